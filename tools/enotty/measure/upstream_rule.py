"""What the semantic patch offered to scripts/coccinelle/ finds in an output.

cocci/upstream/ioctl_enotty.cocci reads one file at a time and reports a
handler whole or not at all.  render.rule_reach runs it in MODE=report, with
its own `// Options:`, on pristine files (its count of a series' exits is
what the cover letters quote); report_positions() reads the same runs.
reach() holds an output to the issue's bar as the acceptance check
rule-coverage measures it from the shell: spatch on groups of BATCH files
(spatch reads one command line's files as one program, so a group can fail
where each file alone runs clean), the share of the series' sites it
reports, the sites of handlers the pipeline leaves out that it flags, and
how many of floppy.c's exits MODE=patch converts.
"""
from __future__ import annotations

import csv
import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from .. import cache
from ..find import rules, scan
from ..kernel import tree
from ..render import rule_reach

RULE = rules.cocci_dir() / "upstream" / "ioctl_enotty.cocci"
FLOPPY = "drivers/block/floppy.c"
BATCH = 20          # files per spatch run
TIMEOUT = 120       # seconds per file, as the scan allows


@dataclass(frozen=True)
class Reach:
    found: int                  # series sites the rule reports
    total: int                  # series sites
    left_out_flagged: list[str]  # FILE:LINE of handlers the pipeline leaves out
    floppy_converted: int       # -ENOTTY lines MODE=patch adds to floppy.c
    floppy_sites: int           # floppy.c's series sites

    @property
    def share(self) -> float:
        return self.found / self.total if self.total else 1.0


def options(rule: Path = RULE) -> list[str]:
    """The rule's `// Options:` line, as make coccicheck passes it."""
    return rule_reach.options(rule.read_text())


class GroupFailed(Exception):
    """A group of files made spatch fail (a stack overflow, a timeout)."""


def spatch(root: Path, files: list[str], mode: str, rule: Path = RULE) -> str:
    """spatch's output for files (relative to root), BATCH at a time, as
    rule-coverage runs it; its scratch files go to a folder of our own,
    never into the tree.  A run that fails raises GroupFailed: the check
    loses that group's reports."""
    out = []
    with tempfile.TemporaryDirectory(prefix="enotty-upstream-rule-") as tmp:
        for i in range(0, len(files), BATCH):
            group = files[i:i + BATCH]
            cmd = ["spatch", "--sp-file", str(rule), "-D", mode, "--very-quiet", "--timeout", str(TIMEOUT),
                   *options(rule), *(str(root / f) for f in group)]
            res = subprocess.run(cmd, cwd=tmp, env=dict(os.environ, TMPDIR=tmp), capture_output=True,
                                 text=True, errors="replace", check=False)
            if res.returncode != 0:
                raise GroupFailed(f"spatch exit {res.returncode} on {group[0]} .. {group[-1]}: "
                                  + " ".join(res.stderr.split()[-12:]))
            out.append(res.stdout)
    return "".join(out)


def grouped_report_positions(root: Path, files: Iterable[str], rule: Path = RULE) -> set[tuple[str, int]]:
    """(file, line) of every report of spatch run on the sorted files in
    groups of BATCH; kept by content (the rule, spatch's version, every
    file's bytes)."""
    names = sorted(set(files))
    k = cache.key("upstream-rule-groups-1", scan.spatch_version(scan.spatch_binary()), rule.read_text(),
                  str(BATCH), *(n + ":" + cache.digest((root / n).read_bytes()) for n in names))
    store = cache.JsonCache(tree.cache_dir() / "rule-reach")
    hit = store.get(k)
    if not isinstance(hit, list):
        hit = sorted([f, line] for f, lines in
                     rule_reach.parse_report(spatch(root, names, "report", rule), root).items() for line in lines)
        store.put(k, hit)
    return {(f, line) for f, line in hit}


def report_positions(root: Path, files: Iterable[str], rule: Path = RULE) -> set[tuple[str, int]]:
    """(file, line) of every report the rule prints for files (the runs of
    render.rule_reach, kept by content)."""
    found = rule_reach.report_lines(root, sorted(set(files)), rule)
    return {(f, line) for f, lines in found.items() for line in lines}


def python_lines(text: str) -> int:
    """Non-blank lines of Python in a rule file: the bodies (after their @@)
    of its initialize and script rules, up to the next rule or comment."""
    count, inside, body = 0, False, False
    for line in text.splitlines():
        if line.startswith("@@"):
            body = inside
        elif line.startswith("@"):
            inside, body = "python" in line, False
        elif line.startswith("//"):
            inside = body = False
        elif body and line.strip():
            count += 1
    return count


@dataclass(frozen=True)
class Row:
    file: str
    line: int
    function: str
    series: str


def read_sites(output: Path) -> list[Row]:
    with open(output / "sites.tsv") as fh:
        return [Row(r["file"], int(r["line"]), r["function"], (r.get("series") or "-").strip())
                for r in csv.DictReader(fh, delimiter="\t")]


def left_out_functions(output: Path) -> dict[str, set[str]]:
    """file -> the functions of handlers whose verdict is "left out ..."
    (as ../shared/checks/rule-coverage reads handlers.tsv)."""
    out: dict[str, set[str]] = {}
    with open(output / "handlers.tsv") as fh:
        for h in csv.DictReader(fh, delimiter="\t"):
            if h.get("verdict", "").startswith("left out"):
                out.setdefault(h["file"], set()).update(f.strip() for f in h["functions"].split(","))
    return out


def reach(output: Path, root: Path, rule: Path = RULE) -> Reach:
    """The rule over the files of output's series and left-out handlers."""
    rows = read_sites(output)
    series = [r for r in rows if r.series != "-"]
    left = left_out_functions(output)
    flagged = grouped_report_positions(root, [f for f in {r.file for r in series} | set(left)
                                              if (root / f).is_file()], rule)
    bad = sorted(f"{r.file}:{r.line}" for r in rows
                 if (r.file, r.line) in flagged and r.function in left.get(r.file, ()))
    patch = spatch(root, [FLOPPY], "patch", rule) if (root / FLOPPY).is_file() else ""
    converted = sum(1 for ln in patch.splitlines() if ln.startswith("+") and not ln.startswith("+++")
                    and "-ENOTTY" in ln)
    return Reach(sum((r.file, r.line) in flagged for r in series), len(series), bad, converted,
                 sum(r.file == FLOPPY for r in series))
