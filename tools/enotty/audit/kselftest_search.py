"""Which in-tree kselftests exercise a patched source file.

A static search of tools/testing/selftests, as enotty.judge.selftest_search does
for EINVAL assertions, but for any test that talks to the file's handler at
all: a test file is a candidate for a source file when

  * it includes a uapi header that defines ioctl commands the source names
    (linux/userfaultfd.h for fs/userfaultfd.c),
  * it names one of those commands (PAGEMAP_SCAN for fs/proc/task_mmu.c), or
  * it opens a /dev node whose base name is a string of the source
    ("/dev/net/tun" for drivers/net/tun.c's "tun").

kselftests.tsv must say, for every candidate of an audited source, whether
the audit runs it or why not (kselftest_search_test.py checks that).
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

from ..find import ctext
from ..judge import effects, selftest_search

SELFTESTS = "tools/testing/selftests"
_NAME = re.compile(r"\b[A-Z][A-Z0-9_]{2,}\b")
_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)
_STRING = re.compile(r'"([a-z][a-z0-9_-]{1,30})(?:%d|%u)?"')
# Headers that define commands of every kind of file, or of none in
# particular: including them says nothing about which handler a test uses.
GENERIC_HEADERS = frozenset({"linux/fs.h", "asm-generic/ioctls.h", "linux/ioctl.h",
                             "asm-generic/ioctl.h", "linux/types.h"})


@dataclass(frozen=True)
class Keys:
    """What ties a test to a source file's handler."""
    headers: frozenset[str]     # include paths: linux/userfaultfd.h
    names: frozenset[str]       # ioctl command macros the source names
    strings: frozenset[str]     # string literals that could be /dev names


@dataclass(frozen=True)
class Candidate:
    test: str       # path relative to tools/testing/selftests
    why: str


def source_keys(tree: Path, uapi: effects.Uapi, source: str) -> Keys:
    path = tree / source
    if not path.is_file():
        return Keys(frozenset(), frozenset(), frozenset())
    text = path.read_text(errors="replace")
    names = {n for n in _NAME.findall(ctext.blank_lexemes(text)) if n in uapi.commands}
    headers = set()
    for name in names:
        m = re.match(r"(?:arch/[^/]+/)?include/uapi/(.*)$", uapi.commands[name][0])
        if m and m.group(1) not in GENERIC_HEADERS:
            headers.add(m.group(1))
    # Kernel headers the source shares with its tests outside uapi: one in
    # its own folder (mm/gup_test.h, lib/test_hmm_uapi.h) or one named
    # after it (linux/map_benchmark.h).
    folder = Path(source).parent
    for inc in _INCLUDE.findall(text):
        if (tree / folder / inc).is_file():
            headers.add(str(folder / inc))
        elif (inc.startswith("linux/") and Path(inc).stem == path.stem
              and (tree / "include" / inc).is_file()):
            headers.add(inc)
    return Keys(frozenset(headers), frozenset(names), frozenset(_STRING.findall(text)))


def index_tests(tree: Path) -> list[selftest_search.TestFile]:
    """Every C file of the kselftests (their includes, names and /dev nodes,
    with those of the headers beside them that they include)."""
    root = tree / SELFTESTS
    out = []
    for path in sorted(root.rglob("*.c")):
        if path.is_file():
            text = path.read_text(errors="replace")
            out.append(selftest_search.read_test(str(path.relative_to(root)), text,
                                                 selftest_search.own_headers(path, text)))
    return out


# /dev entries that are no driver's node: /dev/fd/N is a file descriptor.
PSEUDO_NODES = frozenset({"fd", "stdin", "stdout", "stderr", "null", "zero", "full", "shm"})


def _node_base(node: str) -> str:
    if node.split("/", 1)[0] in PSEUDO_NODES:
        return ""
    return re.sub(r"\d+$", "", node.rsplit("/", 1)[-1])


def candidates(keys: Keys, tests: list[selftest_search.TestFile]) -> list[Candidate]:
    out = []
    for test in tests:
        why = []
        headers = keys.headers & test.includes
        if headers:
            why.append("includes " + ", ".join(sorted(headers)))
        names = keys.names & test.names
        if names:
            why.append("names " + ", ".join(sorted(names)[:3]))
        nodes = sorted(n for n in test.nodes if _node_base(n) in keys.strings)
        if nodes:
            why.append("opens " + ", ".join(f"/dev/{n}" for n in nodes))
        if why:
            out.append(Candidate(test.path, "; ".join(why)))
    return out


def search(tree: Path, sources: list[str]) -> dict[str, list[Candidate]]:
    """source -> the kselftest files that exercise its handler."""
    uapi = effects.Uapi(tree)
    tests = index_tests(tree)
    return {s: candidates(source_keys(tree, uapi, s), tests) for s in sources}


if __name__ == "__main__":
    # python3 -m enotty.audit.kselftest_search TREE SOURCE...: the candidates, one per line.
    found = search(Path(sys.argv[1]), sys.argv[2:])
    for source, cands in found.items():
        for c in cands:
            print(f"{source}\t{c.test}\t{c.why}")
