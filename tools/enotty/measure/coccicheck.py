"""`enotty coccicheck`: the rule file alone under the kernel's `make coccicheck`.

A semantic patch for scripts/coccinelle must work in the four modes that
coccicheck drives (patch, report, context, org) with nothing but its own
`// Options:`.  This runs `make coccicheck MODE=<mode> COCCI=<the rule
file> M=<subdir>` in each mode, as README.rst tells a user to, reads the
sites back out of what each mode prints (the lines a diff removes, the
report's and the org file's positions), and compares them with the
scan's sites over the same folder.  The rule file alone has no phase-1
facts (those come from -D enotty_facts, which the scan passes), so the
sites it must find are the scan's without phase 1, and the sites that
phase 1 adds are listed apart; --facts passes phase 1's rows in SPFLAGS
(as `enotty facts > F; make coccicheck SPFLAGS="-D enotty_facts=F"`
would) and expects every site of the scan.

coccicheck runs in an enotty.kernel.worktree copy of the tree: make and
`spatch --jobs` write their temporary files there, never into the tree.
bench.py times coccicheck with the same helpers (command, m_option,
run_limited, tsv_positions).
"""
from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from ..find import rules, scan
from ..kernel import tree
from ..errors import UsageError
from ..requests import COCCICHECK_MODES, CoccicheckRequest, ScanRequest
from ..find.sites import is_site_line, parse_site_line
from ..kernel.worktree import WorkTree, kbuild_env

MODES = COCCICHECK_MODES

Position = tuple[str, int]          # file relative to the tree root, 1-based line


def m_option(root: Path, scope: Path) -> str | None:
    """M= for make coccicheck: scope relative to the top of the tree, or
    None for the whole tree.  An absolute M= would send spatch to the tree
    itself instead of the copy that make runs in."""
    return os.path.relpath(scope, root) if scope != root else None


def command(copy: Path, cocci: Path, subdir: str | None, jobs: int,
            spflags: Sequence[str] = (), mode: str = "patch") -> list[str]:
    """make coccicheck in copy, one mode; SPFLAGS only when given."""
    cmd = ["make", "-C", str(copy), "coccicheck", f"MODE={mode}", f"J={jobs}", f"COCCI={cocci}"]
    if spflags:
        cmd.append("SPFLAGS=" + " ".join(spflags))
    if subdir:
        cmd.append(f"M={subdir}")
    return cmd


def run_limited(cmd: list[str], timeout: float | None) -> tuple[int | None, str]:
    """Run cmd in its own process group; (exit status, stdout), or (None,
    stdout so far) when it ran out of time: then the whole group (make and
    its spatch workers) is killed.  Read as bytes: patch and context mode
    print source lines, and some kernel files are not UTF-8."""
    with tempfile.TemporaryFile("w+b") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL,
                                env=kbuild_env(), start_new_session=True)
        code: int | None = None
        try:
            code = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
        finally:
            if proc.returncode is None:     # timed out, or ^C: stop make and spatch
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        out.seek(0)
        return code, out.read().decode(errors="surrogateescape")


# ---------------------------------------------------------------- reading the modes' output

def lines_of(text: str) -> list[str]:
    """Lines split at newlines only: str.splitlines() also splits at the
    form feeds (^L) of kernel sources, which would shift a hunk's count."""
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


def relative(path: str, copy: Path | None) -> str:
    """A path as spatch printed it, relative to the tree root."""
    if copy is not None and os.path.isabs(path):
        try:
            path = os.path.relpath(path, copy)
        except ValueError:
            pass
    return os.path.normpath(path)


_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+\d+(?:,(\d+))? @@")


def diff_positions(text: str, copy: Path | None = None) -> set[Position]:
    """The old-file lines a unified diff removes.  Patch mode removes the
    errno token's line (and adds its replacement), context mode prints the
    `*` line as removed; either way a removed line is a site.  Only lines
    inside a counted hunk are read, so coccicheck's own chatter between
    the diffs is never taken for one."""
    found: set[Position] = set()
    lines = lines_of(text)
    i, name = 0, ""
    while i < len(lines):
        line = lines[i]
        if line.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ "):
            old, new = line[4:].split("\t")[0], lines[i + 1][4:].split("\t")[0]
            # patch mode: a/F b/F; context mode: F /tmp/nothing/F
            if old.startswith("a/") and new.startswith("b/"):
                old = old[2:]
            name = relative(old, copy)
            i += 2
            continue
        hunk = _HUNK.match(line)
        if hunk and name:
            old_line = int(hunk.group(1))
            old_left = int(hunk.group(2) or 1)
            new_left = int(hunk.group(3) or 1)
            i += 1
            while i < len(lines) and (old_left > 0 or new_left > 0):
                body = lines[i]
                if body.startswith("-"):
                    found.add((name, old_line))
                    old_line, old_left = old_line + 1, old_left - 1
                elif body.startswith("+"):
                    new_left -= 1
                elif body.startswith("\\"):
                    pass                        # "\ No newline at end of file"
                else:
                    old_line, old_left, new_left = old_line + 1, old_left - 1, new_left - 1
                i += 1
            continue
        i += 1
    return found


_REPORT = re.compile(r"^(\S+?):(\d+):\d+-\d+: ")
_ORG = re.compile(r"^\* TODO \[\[view:(.+?)::face=[^:]*::linb=(\d+)::")


def report_positions(text: str, copy: Path | None = None) -> set[Position]:
    """FILE:LINE:COL-COL: message, one line per site (coccilib.report)."""
    return {(relative(m.group(1), copy), int(m.group(2)))
            for m in map(_REPORT.match, lines_of(text)) if m}


def org_positions(text: str, copy: Path | None = None) -> set[Position]:
    """* TODO [[view:FILE::face=...::linb=LINE::...][message]] (coccilib.org)."""
    return {(relative(m.group(1), copy), int(m.group(2)))
            for m in map(_ORG.match, lines_of(text)) if m}


def tsv_positions(text: str, copy: Path | None = None) -> set[Position]:
    """The ENOTTY-SITE lines of -D tsv (which only SPFLAGS passes), as
    (file, line); a line cut short (a worker killed mid-write) is no site."""
    found = set()
    for line in filter(is_site_line, lines_of(text)):
        try:
            site = parse_site_line(line)
        except ValueError:
            continue
        found.add((relative(site.file, copy), site.line))
    return found


READERS = {"patch": diff_positions, "context": diff_positions,
           "report": report_positions, "org": org_positions}


# ---------------------------------------------------------------- comparing

@dataclass(frozen=True)
class ModeResult:
    mode: str
    seconds: float
    exit: int | None                  # None: stopped at the timeout
    found: frozenset[Position]
    missing: frozenset[Position] = field(default_factory=frozenset)   # the scan's, not found
    extra: frozenset[Position] = field(default_factory=frozenset)     # found, not the scan's

    @property
    def same(self) -> bool:
        return self.exit == 0 and not self.missing and not self.extra


def compare(mode: str, seconds: float, code: int | None, found: Iterable[Position],
            expected: Iterable[Position]) -> ModeResult:
    got, want = frozenset(found), frozenset(expected)
    return ModeResult(mode, seconds, code, got, want - got, got - want)


def _where(positions: Iterable[Position]) -> str:
    return ", ".join(f"{f}:{n}" for f, n in sorted(positions))


def table(results: Sequence[ModeResult], expected: int, against: str = "the scan") -> str:
    lines = [f"{'mode':<8} {'wall s':>8} {'sites':>6}  same as {against} ({expected} sites)"]
    for r in results:
        if r.exit is None:
            verdict = "no: stopped at the timeout"
        elif r.exit != 0:
            verdict = f"no: make coccicheck exited {r.exit}"
        elif r.same:
            verdict = "yes"
        else:
            verdict = "no:" + (f" missing {_where(r.missing)}" if r.missing else "") + \
                      (f" extra {_where(r.extra)}" if r.extra else "")
        lines.append(f"{r.mode:<8} {r.seconds:>8.1f} {len(r.found):>6}  {verdict}")
    return "\n".join(lines)


def scan_positions(req: CoccicheckRequest, across_files: bool) -> tuple[set[Position], dict[str, str]]:
    """The scan's sites over the same folder, from its cache when warm, and
    the phase-1 rows it used."""
    res = scan.scan(ScanRequest(req.tree, req.subdir, jobs=req.jobs, across_files=across_files))
    return {(s.file, s.line) for s in res.sites}, res.facts


def run(req: CoccicheckRequest) -> tuple[list[ModeResult], set[Position], set[Position]]:
    """(one result per mode, the sites each mode must print, the sites
    that phase 1 adds and this run cannot see).  Alone, the rule file must
    print the scan's sites without phase 1; with req.facts it gets phase
    1's rows in SPFLAGS, as a user would pass `enotty facts` output, and
    must print the scan's sites."""
    root = req.tree.root
    if not (root / "scripts" / "coccicheck").is_file():
        raise UsageError(f"{root} has no scripts/coccicheck: make coccicheck needs a kernel tree")
    full, facts = scan_positions(req, across_files=True)
    expected = full if req.facts else scan_positions(req, across_files=False)[0]
    subdir = m_option(root, req.scope)
    results = []
    with tempfile.TemporaryDirectory(prefix="enotty-coccicheck-", dir=tree.cache_dir()) as tmp:
        spflags = []
        if req.facts:
            facts_file = Path(tmp) / "facts.tsv"
            facts_file.write_text(scan.facts_tsv(facts))
            spflags = ["-D", f"enotty_facts={facts_file}"]
        copy = WorkTree(root, Path(tmp) / "tree")
        copy.ensure()
        for mode in req.modes:
            cmd = command(copy.path, rules.rule_file(), subdir, req.jobs, spflags, mode)
            print(f"enotty: coccicheck {mode}: {shlex.join(cmd)}", file=sys.stderr)
            t0 = time.monotonic()
            code, out = run_limited(cmd, req.timeout)
            results.append(compare(mode, time.monotonic() - t0, code,
                                   READERS[mode](out, copy.path), expected))
            print(f"enotty: coccicheck {mode}: {results[-1].seconds:.1f} s,"
                  f" {len(results[-1].found)} sites", file=sys.stderr)
    return results, expected, full - expected


def main(req: CoccicheckRequest) -> int:
    """Print the table; 1 when a mode failed or its sites differ from the scan's."""
    results, expected, added = run(req)
    print(table(results, len(expected), "the scan" if req.facts else "the scan without phase 1"))
    if added:
        print(f"phase 1 adds {len(added)} sites that the rule file alone cannot see"
              f" (make coccicheck-modes FACTS=1 passes them): {_where(added)}")
    return 0 if all(r.same for r in results) else 1
