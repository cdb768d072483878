"""Every answer other than ENOTTY to an unknown command, explained.

The guests ask every device node, fd kind and socket family an unknown
command, not only the patched targets.  After the series, each answer that
is not ENOTTY must be explained: by the output (a patched handler's
documented exception, a handler left out with its reason) or by a row of
selftests/audit/answers.tsv (a core, a state or a convention that answers
before any handler, in one line).  What no row explains is a recall miss to
fix; AUDIT.md counts each kind and names the misses.
"""
from __future__ import annotations

import csv
import fnmatch
from dataclasses import dataclass
from pathlib import Path

from .compare import NOT_MEASURED, Claim, Line, excused
from .table import ANSWERS, Exception_, TableError, table_lines

# The unknown-command classes the probe sends (presetup: before a setup step).
UNKNOWN = ("foreign", "own", "unlikely")
ANSWER_COLUMNS = ("target", "answer", "reason")


@dataclass(frozen=True)
class Answer:
    """answers.tsv: targets whose unknown commands get this answer, and why."""
    target: str     # glob on the probe's target name (guest prefix included: "[ppc] /dev/pmu")
    answer: str     # errno name, or * for any
    reason: str


@dataclass(frozen=True)
class Explained:
    line: Line
    kind: str       # "exception", "left out", "not applied", "answers.tsv", or "unexplained"
    reason: str


def parse_answers(text: str, name: str = "answers.tsv") -> list[Answer]:
    out = []
    for where, cells in table_lines(text, name, ANSWER_COLUMNS):
        target, answer, reason = (c.strip() for c in cells)
        if not reason or reason == "-":
            raise TableError(f"{where}: {target} needs a reason")
        out.append(Answer(target, answer, reason))
    return out


def load_answers(path: Path = ANSWERS) -> list[Answer]:
    return parse_answers(path.read_text(), path.name) if path.is_file() else []


def left_out(handlers_tsv: Path) -> dict[tuple[str, str], str]:
    """(file, function) -> the reason, for every handler the output leaves
    out (handlers.tsv's verdict "left out", its reason in `left`)."""
    if not handlers_tsv.is_file():
        return {}
    out = {}
    with open(handlers_tsv, newline="") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            if row.get("verdict", "").startswith("left out"):
                for function in (row.get("functions") or row["handler"]).split(","):
                    out[(row["file"], function.strip())] = row.get("left") or row["verdict"]
    return out


def explain(lines: list[Line], claims: dict[str, Claim], exceptions: list[Exception_],
            left: dict[tuple[str, str], str], answers: list[Answer],
            unapplied: dict[str, str] | None = None) -> list[Explained]:
    """One entry per measured answer to an unknown command that is not ENOTTY
    after the series, with what explains it.  unapplied: source -> the
    series of the output that converts it but this run does not apply
    (`make audit SERIES=...`)."""
    out = []
    for ln in lines:
        if (ln.check not in UNKNOWN or ln.harmless or ln.after in NOT_MEASURED
                or ln.after == "ENOTTY"):
            continue
        out.append(Explained(ln, *_why(ln, claims, exceptions, left, answers, unapplied or {})))
    return out


def _why(ln: Line, claims: dict[str, Claim], exceptions: list[Exception_],
         left: dict[tuple[str, str], str], answers: list[Answer],
         unapplied: dict[str, str]) -> tuple[str, str]:
    ex = excused(ln, exceptions) if ln.patched(claims) else None
    if ex:
        return "exception", ex.reason
    for function in ln.function.split(","):
        if (ln.source, function) in left:
            return "left out", left[(ln.source, function)]
    # a file no applied patch touches has no function on its line
    if ln.function == "-":
        for (source, _), reason in sorted(left.items()):
            if source == ln.source:
                return "left out", reason
    if ln.source in unapplied:
        return "not applied", f"converted by the series {unapplied[ln.source]}, which this run does not apply"
    for row in answers:
        if fnmatch.fnmatchcase(ln.target, row.target) and row.answer in ("*", ln.after):
            return "answers.tsv", row.reason
    return "unexplained", ""


def counts(explained: list[Explained], asked: int) -> dict[str, int]:
    """How many unknown-command answers the guests measured, and how each
    non-ENOTTY one is explained."""
    tally = {"asked": asked, "not ENOTTY": len(explained)}
    for kind in ("exception", "left out", "not applied", "answers.tsv", "unexplained"):
        tally[kind] = sum(e.kind == kind for e in explained)
    return tally


def asked(lines: list[Line]) -> int:
    return sum(ln.check in UNKNOWN and not ln.harmless and ln.after not in NOT_MEASURED for ln in lines)


def markdown(explained: list[Explained], n_asked: int) -> list[str]:
    """AUDIT.md's section: the counts, then each distinct answer and why."""
    tally = counts(explained, n_asked)
    md = ["## Every node asked", "",
          f"The guests asked {tally['asked']} unknown commands (foreign, own or unlikely magic, both ABIs)"
          f" of every device node, fd kind and socket family they have; after the series"
          f" {tally['not ENOTTY']} answers are not ENOTTY: {tally['exception']} by a documented exception"
          f" of a patched handler, {tally['left out']} from handlers the output leaves out,"
          + (f" {tally['not applied']} from series this run does not apply," if tally["not applied"] else "")
          + f" {tally['answers.tsv']} from a core or state selftests/audit/answers.tsv names;"
          f" unexplained: {tally['unexplained']}.", ""]
    seen: dict[tuple[str, str, str], set[str]] = {}
    for e in explained:
        seen.setdefault((e.kind, e.line.after, e.reason), set()).add(e.line.target)
    for (kind, answer, reason), targets in sorted(seen.items()):
        names = ", ".join(sorted(targets)[:4]) + (f" and {len(targets) - 4} more" if len(targets) > 4 else "")
        md.append(f"- {names}: {answer} ({kind}{': ' + reason if reason else ''})")
    return md + [""]


def problems(explained: list[Explained]) -> list[str]:
    """A recall miss each: an unknown command's non-ENOTTY answer no row explains."""
    return [f"{e.line.target} ({e.line.abi}, {e.line.command}) answers {e.line.after} after the series,"
            f" and nothing in the output or selftests/audit/answers.tsv explains it"
            f" (source {e.line.source}): a recall miss"
            for e in explained if e.kind == "unexplained"]
