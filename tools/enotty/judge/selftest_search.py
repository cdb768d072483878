"""In-tree tests that expect the old answer of a converted handler.

A patch that turns a handler's EINVAL into ENOTTY must update any in-tree
test that asserts the EINVAL, in the same patch.  This module reads the
tests under tools/testing (kselftests and the few other in-tree testers)
once, finds each ioctl() call followed by an EINVAL expectation, and ties
it to the sites whose handler can answer that call:

  * the test file is about the handler: it includes the uapi header that
    defines the handler's commands, names one of them, or opens a /dev
    node whose name the driver registers;
  * the command of the call reaches the converted line: it is one of the
    site's uncased known commands (effects.py), or it is no known command
    of the handler (a literal, a made-up number, a local variable set to
    one) - "affected" - or a variable the text cannot resolve - "maybe".
    A command the handler has a case for is left out: its argument checks
    do not change.  Sites whose change user space cannot see (a leaf
    -ENOIOCTLCMD, an unreachable line) get no assertions.

Entry point: search(sites, root) -> {Site: [Assertion]}; SEARCHED says
where it looked.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from . import effects
from ..find.sites import Site
from ..find import ctext

SEARCHED = ("tools/testing",)
SUFFIXES = (".c", ".h", ".sh", ".py")
WINDOW = 8          # lines after an ioctl() call that may hold its errno check

_IOCTL_CALL = re.compile(r"\bioctl\s*\(\s*[^,;]+?,\s*([^,;)]+(?:\([^;)]*\))?)")
_EXPECTS_EINVAL = re.compile(
    r"(==|!=)\s*-?EINVAL\b|\b-?EINVAL\s*(==|!=)|\bEINVAL\s*,\s*errno|errno\s*,\s*EINVAL\b"
    r"|EXPECT\w*\(\s*-?EINVAL|\bEINVAL\b.*\)\s*;"
    # Python's unittest: assertEqual(error.exception.errno, 22) (tools/crypto/ccp/test_dbc.py)
    r"|\berrno\s*,\s*22\s*\)|\berrno\s*==\s*22\b")
_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)
_OWN_INCLUDE = re.compile(r'^\s*#\s*include\s*"([\w.-]+\.h)"', re.M)
_DEV_NODE = re.compile(r'"/dev/([A-Za-z][\w/-]*?)(?:%d|\d+)?"')
_NAME = re.compile(r"\b[A-Z][A-Z0-9_]{2,}\b")


@dataclass(frozen=True)
class Probe:
    """One ioctl() call in a test followed by an EINVAL expectation."""
    path: str
    line: int          # the line of the EINVAL expectation
    command: str       # the command expression of the call


@dataclass(frozen=True)
class TestFile:
    path: str
    includes: frozenset[str]
    names: frozenset[str]
    nodes: frozenset[str]
    probes: tuple[Probe, ...]


@dataclass(frozen=True)
class Assertion:
    path: str
    line: int
    command: str
    verdict: str       # affected | maybe
    why: str           # what ties the test to the handler

    def cell(self) -> str:
        return f"{self.path}:{self.line} {self.command} ({self.verdict}, {self.why})"


def _resolve(command: str, lines: list[str], line: int) -> str:
    """A local variable's initial value (`int bad = EPIOCGPARAMS + 10;`), else command."""
    if not re.fullmatch(r"[a-z_]\w*", command):
        return command
    for k in range(line - 1, max(0, line - 30), -1):
        m = re.search(r"\b%s\s*=\s*([^;=][^;]*);" % re.escape(command), lines[k - 1])
        if m:
            return " ".join(m.group(1).split())
    return command


def expects_einval(line: str) -> bool:
    """The line checks errno against EINVAL (or 22)."""
    return bool(_EXPECTS_EINVAL.search(line))


def read_test(path: str, text: str, headers: str = "") -> TestFile:
    """The test's probes; its includes, names and /dev nodes also from
    headers, the text of the test's own headers (hid_common.h opens
    /dev/hidraw%d for hidraw.c)."""
    code = ctext.blank_lexemes(text) if path.endswith((".c", ".h")) else text
    lines = code.splitlines()
    probes = []
    for n, ln in enumerate(lines, start=1):
        for m in _IOCTL_CALL.finditer(ln):
            for k in range(n, min(n + WINDOW, len(lines)) + 1):
                if _EXPECTS_EINVAL.search(lines[k - 1]):
                    command = " ".join(m.group(1).split())
                    probes.append(Probe(path, k, _resolve(command, lines, n)))
                    break
    both, both_code = text + "\n" + headers, code + "\n" + ctext.blank_lexemes(headers)
    return TestFile(path, frozenset(_INCLUDE.findall(both)), frozenset(_NAME.findall(both_code)),
                    frozenset(n.rstrip("/") for n in _DEV_NODE.findall(both)), tuple(probes))


def own_headers(path: Path, text: str) -> str:
    """The text of the headers a test includes with quotes from its own
    folder (one level: what the test's fixture opens and includes)."""
    out = []
    for inc in _OWN_INCLUDE.findall(text):
        header = path.parent / inc
        if header.is_file():
            out.append(header.read_text(errors="replace"))
    return "\n".join(out)


def index_tests(root: Path, roots: tuple[str, ...] = SEARCHED) -> list[TestFile]:
    """Every test file under roots that calls ioctl() and expects EINVAL somewhere."""
    out = []
    for top in roots:
        for path in sorted((root / top).rglob("*")):
            if path.suffix not in SUFFIXES or not path.is_file():
                continue
            text = path.read_text(errors="replace")
            if "ioctl" not in text or "EINVAL" not in text:
                continue
            test = read_test(str(path.relative_to(root)), text, own_headers(path, text))
            if test.probes:
                out.append(test)
    return out


@dataclass(frozen=True)
class Handler:
    """What ties tests to a site's handler."""
    handled: frozenset[str]     # commands the handler has a case for or names
    uncased: frozenset[str]
    headers: frozenset[str]     # include paths, e.g. linux/rtc.h
    nodes: frozenset[str]       # string literals of the driver that could be /dev names


def handler_keys(tree: effects.Tree, site: Site) -> Handler:
    cf = tree.file(site.file)
    fn = effects.function_at(cf, site.function, site.line) if cf else None
    if cf is None or fn is None:
        return Handler(frozenset(), frozenset(), frozenset(), frozenset())
    uapi = tree.uapi
    body = cf.code[fn.body:fn.end]
    handled = {n for n in _NAME.findall(body) if n in uapi.commands}
    uncased = set(site.effects.uncased_commands()) if site.effects else set()
    headers = set()
    for name in handled | uncased:
        header = uapi.commands[name][0] if name in uapi.commands else ""
        m = re.match(r"(?:arch/[^/]+/)?include/uapi/(.*)$", header)
        if m:
            headers.add(m.group(1))
    # a string that names an element of a table (`[IIO_MOD_LIGHT_UV] = "uv"`)
    # is no device the driver registers
    nodes = {m.group(1) for m in re.finditer(r'"([a-z][a-z0-9_-]{1,30})"', cf.raw)
             if not re.search(r"\]\s*=\s*$", cf.raw[max(0, m.start() - 80):m.start()])}
    return Handler(frozenset(handled), frozenset(uncased), frozenset(headers), frozenset(nodes))


def _node_base(node: str) -> str:
    return re.sub(r"\d+$", "", node.rsplit("/", 1)[-1])


def assertions(handler: Handler, tests: list[TestFile]) -> list[Assertion]:
    """The EINVAL expectations of tests that a site's change can break."""
    out = []
    for test in tests:
        why = []
        if handler.headers & test.includes:
            why.append("includes " + ", ".join(sorted(handler.headers & test.includes)))
        named = (handler.handled | handler.uncased) & test.names
        if named:
            why.append("names " + ", ".join(sorted(named)[:3]))
        nodes = sorted(n for n in test.nodes if _node_base(n) in handler.nodes)
        if nodes:
            why.append("opens " + ", ".join(f"/dev/{n}" for n in nodes))
        elif test.nodes:
            # the test talks to the devices it opens, none of them this
            # driver's: hidraw.c includes linux/input.h but opens /dev/hidraw,
            # iommufd.c names VFIO_IOMMU_MAP_DMA but sends it to /dev/iommu
            continue
        if not why:
            continue
        for probe in test.probes:
            command = probe.command
            if command in handler.handled and command not in handler.uncased:
                continue
            if command in handler.uncased:
                verdict = "affected"
            elif re.fullmatch(r"[A-Z][A-Z0-9_]+", command):
                # a known name: of this family (it would be in handled or
                # uncased) or of another device the test also talks to
                continue
            elif re.fullmatch(r"[a-z_]\w*(?:->\w+|\.\w+|\[[^\]]*\])*", command):
                verdict = "maybe"
            else:
                verdict = "affected"          # a literal or a made-up _IO() number
            out.append(Assertion(probe.path, probe.line, command, verdict, "; ".join(why)))
    return out


def search(sites: list[Site], root: Path, roots: tuple[str, ...] = SEARCHED) -> dict[Site, list[Assertion]]:
    """For each site, the in-tree test assertions of its old answer (sites carry effects)."""
    tree = effects.Tree(root)
    tests = index_tests(root, roots)
    out: dict[Site, list[Assertion]] = {}
    for s in sites:
        if effects.is_leaf(s) or (s.effects and s.effects.visible in ("invisible", "unreachable")):
            out[s] = []       # user space sees the same answer: no test can notice
        else:
            out[s] = assertions(handler_keys(tree, s), tests)
    return out


def left_out_reason(site: Site, hits: list[Assertion]) -> str:
    """One line for SUMMARY.md when a site is left out because of its tests."""
    where = ", ".join(f"{h.path}:{h.line}" for h in hits)
    return (f"{site.file}: {site.function}() left as it is: {where} "
            f"{'expects' if len(hits) == 1 else 'expect'} EINVAL from it.")


def held_reason(hits: list[Assertion]) -> str:
    """One line for handlers.tsv's `left` when a handler's sites are left
    out because of their tests: the test files, without lines."""
    paths = list(dict.fromkeys(h.path for h in hits))
    return f"{', '.join(paths)} {'expects' if len(paths) == 1 else 'expect'} EINVAL"
