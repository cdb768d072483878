"""Whom each mail goes to: the tree's get_maintainer.pl, asked as b4 asks it.

address() is the render stage's last step: once every series is formatted,
each mail is read by get_maintainer.pl as the file it is (its subject and
message count, for K: keywords match them, not only the diff's paths),
and so are the companion patches sent beside the series.  No git history
is consulted; MAINTAINERS is all the script reads, so an answer is kept by
the text's content, MAINTAINERS and the script (a warm run asks perl
nothing).
"""
from __future__ import annotations

import dataclasses
import functools
import re
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .. import cache
from ..errors import ToolError
from ..kernel import tree
from ..partition.maintainers import parse, perl_env
from ..requests import KernelTree, default_jobs
from . import series
from . import companions
from .companions import Companions

People = tuple[tuple[str, ...], tuple[str, ...]]    # (To, Cc) of one mail


def address(kernel: KernelTree, mails: list[str], extra: Companions) -> tuple[list[People], Companions]:
    """(To, Cc) of each mail text, in order, and the companion patches
    addressed: the kselftest patch by its diff (on the patch: its mail is
    addressed with its series), the rule's mail in its headers.  One
    get_maintainer.pl question per text."""
    asks = mails + ([extra.selftest.diff] if extra.selftest else []) + ([extra.rule.text] if extra.rule else [])
    people = mail_recipients(kernel, asks)
    answers = iter(people[len(mails):])
    test, rule = extra.selftest, extra.rule
    if test is not None:
        to, cc = with_section(next(answers), kernel.root / "MAINTAINERS", extended_section(test.diff))
        # by name: vimc's Shuah Khan is the kselftest maintainer already, at another address
        named = {who.split("<")[0].strip().lower() for who in to}
        to = tuple(series.union([list(to), [who for who in section_maintainers(
            kernel.root / "MAINTAINERS", companions.TESTED_SECTIONS)
            if who.split("<")[0].strip().lower() not in named]]))
        test = dataclasses.replace(test, to=to, cc=cc)
    if rule is not None:
        to, cc = next(answers)
        rule = series.Mail(rule.name, series.add_recipients(rule.text, list(to), list(cc)))
    return people[:len(mails)], dataclasses.replace(extra, selftest=test, rule=rule)


def extended_section(diff: str) -> str | None:
    """The MAINTAINERS section whose F: lines a diff extends (the
    kselftest patch adds its folder to one), None when it adds none."""
    return companions.MEDIA_SECTION if "+++ b/MAINTAINERS\n" in diff and \
        f"\n+F:\t{companions.SELFTEST_DIR}/\n" in diff else None


def section_maintainers(maintainers: Path, titles: tuple[str, ...]) -> list[str]:
    """The M: and R: of the MAINTAINERS sections of those titles."""
    if not maintainers.is_file():
        return []
    return [who for s in parse(maintainers.read_text(errors="replace")) if s.title in titles
            for who in s.values("M") + s.values("R")]


def with_section(people: People, maintainers: Path, title: str | None) -> People:
    """people plus what get_maintainer.pl answers once the patch's new F:
    line is in MAINTAINERS: the section's maintainers and reviewers (To)
    and lists (Cc)."""
    if title is None or not maintainers.is_file():
        return people
    found = [s for s in parse(maintainers.read_text(errors="replace")) if s.title == title]
    if not found:
        return people
    to = series.union([people[0], found[0].values("M") + found[0].values("R")])
    cc = series.union([people[1], found[0].values("L")], to)
    return tuple(to), tuple(cc)


def mail_recipients(kernel: KernelTree, texts: list[str]) -> list[People]:
    """recipients() of each mail or diff text, in order, each read from a
    file of its own (get_maintainer.pl reads files); as many perl runs at
    once as we may use CPUs (a cold run asks one per mail, about 0.2 s of
    perl)."""
    with tempfile.TemporaryDirectory(prefix="enotty-get-maintainer-") as tmp, \
            ThreadPoolExecutor(max_workers=default_jobs()) as pool:
        paths = [Path(tmp) / f"{n:04d}.patch" for n in range(len(texts))]
        for path, text in zip(paths, texts):
            path.write_text(text)
        return list(pool.map(lambda path: recipients(kernel, [path]), paths))


def recipients(kernel: KernelTree, patch_files: list[Path]) -> People:
    """(To, Cc) of a mail, as b4 addresses it: the maintainers and
    reviewers (b4 asks --nol), then the lists (b4 asks --nom and drops who
    is already in To, compared without case).  One run with the roles
    shown gives both: get_maintainer.pl prints the people of --nol in the
    same order, then the lists in the order --nom prints them."""
    people = _ask(kernel, patch_files)
    to = [person for person, role in people if not role.endswith(LIST_ROLES)]
    seen = {person.lower() for person in to}
    cc = []
    for person in (person for person, role in people if role.endswith(LIST_ROLES)):
        if person.lower() not in seen:
            seen.add(person.lower())
            cc.append(person)
    return tuple(to), tuple(cc)


# get_maintainer.pl's roles of a mailing list (add_categories), each
# followed by ":SUBSYSTEM" or nothing
LIST_ROLES = ("open list", "moderated list", "subscriber list")


_ROLES = re.compile(r"^(.*?>|[^\s<>()]*)\s*\((.*)\)$")


def _role(line: str) -> tuple[str, str]:
    """'Name <a@b> (maintainer:X,reviewer:Y)' -> ('Name <a@b>', 'maintainer');
    'l@b (open list:X (Y))' -> ('l@b', 'open list'); a subsystem's name
    may hold parentheses, an address does not.  An L: line that is a name
    before its address ('L: The X Team <x@y>') gives no address at all:
    '(open list:X)' -> ('', 'open list') (entries() finds it); an empty
    line without roles."""
    m = _ROLES.match(line)
    if m is None:
        return line, ""
    return m.group(1), m.group(2).split(",")[0].split(":")[0]


@functools.lru_cache(maxsize=None)
def _inputs_digest(maintainers: Path, script_path: Path) -> str:
    """What get_maintainer.pl's answer follows from besides the patch."""
    return cache.key(cache.digest(maintainers.read_bytes()), cache.digest(script_path.read_bytes()))


def _ask(kernel: KernelTree, patch_files: list[Path]) -> list[tuple[str, str]]:
    """get_maintainer.pl's answer with each entry's first role, kept by the
    patches' content, MAINTAINERS and the script."""
    root = kernel.root
    found = kernel.get_maintainer if (root / "MAINTAINERS").is_file() else None
    if found is None:
        return []
    path, own = found.path, found.own
    inputs = _inputs_digest(root / "MAINTAINERS", path)
    args = ["perl", str(path), "--nogit", "--nogit-fallback", "--nogit-chief-penguins",
            "--rolestats"] + ([] if own else ["--no-tree"])
    k = cache.key(inputs, " ".join(args[2:]), *(cache.digest(p.read_bytes()) for p in patch_files))
    store = cache.JsonCache(tree.cache_dir() / "get_maintainer")
    hit = store.get(k) if kernel.use_cache else None
    if isinstance(hit, list):
        lines = [str(x) for x in hit]
    else:
        res = subprocess.run(args + [str(p) for p in patch_files], cwd=root, env=perl_env(),
                             capture_output=True, text=True, check=False)
        if res.returncode != 0:
            raise ToolError(f"get_maintainer.pl failed: {res.stderr.strip()[:200]}")
        lines = [ln.strip() for ln in res.stdout.splitlines() if ln.strip()]
        store.put(k, lines)
    return entries(lines, root / "MAINTAINERS")


# get_maintainer.pl's line for an L: entry written as a name before its
# address: the roles alone, '(open list:NITRO SECURE MODULE (NSM))'
_ADDRESSLESS_LIST = re.compile(r"^\((?:%s):(.*)\)$" % "|".join(LIST_ROLES))


def entries(lines: list[str], maintainers: Path) -> list[tuple[str, str]]:
    """get_maintainer.pl's lines as (person or list, first role).  It
    prints no address for a list written as a name before its address
    (`L: The AWS Nitro Enclaves Team <aws-nitro-enclaves-devel@amazon.com>`):
    those come from the section's own L: lines."""
    out: list[tuple[str, str]] = []
    for line in lines:
        person, role = _role(line)
        if person:
            out.append((person, role))
        elif unnamed := _ADDRESSLESS_LIST.match(line):
            out += [(p, role) for p in _named_lists(maintainers).get(unnamed.group(1), []) if (p, role) not in out]
    return out


@functools.lru_cache(maxsize=None)
def _named_lists(maintainers: Path) -> dict[str, list[str]]:
    """The L: entries written as a name before the address, by section."""
    sections = parse(maintainers.read_text(errors="replace")) if maintainers.is_file() else []
    return {s.title: [v for v in s.values("L") if "<" in v] for s in sections}
