"""What the semantic patch offered to scripts/coccinelle/ finds in an output.

cocci/upstream/ioctl_enotty.cocci reads one file at a time and reports a
handler whole or not at all.  render.rule_reach runs it in MODE=report, with
its own `// Options:`, on pristine files (its count of a series' exits is
what the cover letters quote); report_positions() reads the same runs.
reach() holds an output to the issue's bar (the acceptance check
rule-coverage does the same from the shell): the share of the series' sites
it reports, the sites of handlers the pipeline leaves out that it flags, and
how many of floppy.c's exits MODE=patch converts.
"""
from __future__ import annotations

import csv
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from ..find import rules
from ..kernel import kconfig
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


def spatch(root: Path, files: list[str], mode: str, rule: Path = RULE) -> str:
    """spatch's output for files (relative to root), BATCH at a time; its
    scratch files go to a folder of our own, never into the tree."""
    out = []
    with tempfile.TemporaryDirectory(prefix="enotty-upstream-rule-") as tmp:
        for i in range(0, len(files), BATCH):
            cmd = ["spatch", "--sp-file", str(rule), "-D", mode, "--very-quiet", "--timeout", str(TIMEOUT),
                   *options(rule), *(str(root / f) for f in files[i:i + BATCH])]
            out.append(subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, errors="replace",
                                      check=False).stdout)
    return "".join(out)


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
    """file -> the functions of handlers whose verdict is "left out ...",
    except those left out only because no Kconfig of the tree selects
    their file: the pipeline cannot compile-test them, but their exits are
    real, and mainline has removed them (6.12's ISDN CAPI, Bluetooth CMTP),
    so the rule names no such reader."""
    out: dict[str, set[str]] = {}
    with open(output / "handlers.tsv") as fh:
        for h in csv.DictReader(fh, delimiter="\t"):
            if h.get("verdict", "").startswith("left out") and \
                    not (h.get("left") or "").startswith(kconfig.NO_CONFIGURATION):
                out.setdefault(h["file"], set()).update(f.strip() for f in h["functions"].split(","))
    return out


def reach(output: Path, root: Path, rule: Path = RULE) -> Reach:
    """The rule over the files of output's series and left-out handlers."""
    rows = read_sites(output)
    series = [r for r in rows if r.series != "-"]
    left = left_out_functions(output)
    flagged = report_positions(root, {r.file for r in series} | set(left), rule)
    bad = sorted(f"{r.file}:{r.line}" for r in rows
                 if (r.file, r.line) in flagged and r.function in left.get(r.file, ()))
    patch = spatch(root, [FLOPPY], "patch", rule) if (root / FLOPPY).is_file() else ""
    converted = sum(1 for ln in patch.splitlines() if ln.startswith("+") and not ln.startswith("+++")
                    and "-ENOTTY" in ln)
    return Reach(sum((r.file, r.line) in flagged for r in series), len(series), bad, converted,
                 sum(r.file == FLOPPY for r in series))
