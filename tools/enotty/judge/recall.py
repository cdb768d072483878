"""The committed census's verdicts against an output: which REAL exits
(cocci/recall/verdicts-VERSION.tsv, classified by reading and by the
rules of enotty.measure.verdicts) a run converts, and which the rules do
not report at all (SUMMARY.md's "Recall misses").  Here, not in measure/,
because the write stage reads it and measure/ reads the write stage."""
from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from ..errors import UsageError

def missed(pairs: Sequence[tuple[Sequence[dict[str, str]], Sequence[dict[str, str]]]],
           sites: Sequence[dict[str, str]], kept: Mapping[tuple[str, str, str], Kept] | None = None
           ) -> tuple[list[tuple[str, ...]], Counter[str]]:
    """REAL rows of every (census, verdicts) pair that the output leaves at
    their errno, and the counts (real, found, converted, kept: not found
    but named in kept.tsv, not found: neither)."""
    listed = {(r["file"], r["line"]): r for r in sites}
    kept = kept or {}
    counts: Counter[str] = Counter()
    out: list[tuple[str, ...]] = []
    seen: set[tuple[str, str]] = set()
    for census, verdict_rows in pairs:
        errno = {(r["file"], r["line"]): r["errno"] for r in census}
        for v in verdict_rows:
            key = (v["file"], v["line"])
            counts[v["verdict"]] += key not in seen
            if v["verdict"] != "REAL" or key in seen:
                seen.add(key)
                continue
            seen.add(key)
            hit = listed.get(key)
            converted = hit is not None and hit.get("series", "x") not in ("-", "")
            counts["found"] += hit is not None
            counts["converted"] += converted
            keeper = kept.get((v["file"], v["function"], errno.get(key, "?"))) if hit is None else None
            counts["kept"] += keeper is not None
            counts["not found"] += hit is None and keeper is None
            if not converted:
                state = "found, in no series" if hit else f"kept by a {keeper.keeper}" if keeper else "not found"
                out.append((v["file"], v["line"], v["function"], errno.get(key, "?"),
                            f"{v['class']}; {state}; {v['reason']}"))
    return out, counts


RECALL = Path(__file__).resolve().parents[3] / "cocci" / "recall"
KEPT_COLUMNS = ("file", "function", "errno", "keeper", "reason")
KEEPERS = ("consumer", "state", "core")


@dataclass(frozen=True)
class Kept:
    """A row of kept.tsv: what keeps a REAL exit that no rule reports at
    its errno (the rules do not report it, and should not change it)."""
    file: str
    function: str
    errno: str
    keeper: str       # consumer, state or core
    reason: str


def read_kept(path: Path) -> dict[tuple[str, str, str], Kept]:
    """kept.tsv by (file, function, errno); no file, no rows; a malformed
    row: UsageError naming its line."""
    if not path.is_file():
        return {}
    out = {}
    for n, row in enumerate(_rows(path), start=2):
        if None in row or any(not row.get(c) for c in KEPT_COLUMNS):
            raise UsageError(f"{path}:{n}: a row needs {', '.join(KEPT_COLUMNS)}")
        if row["keeper"] not in KEEPERS:
            raise UsageError(f"{path}:{n}: keeper {row['keeper']!r} is none of {', '.join(KEEPERS)}")
        k = Kept(*(row[c] for c in KEPT_COLUMNS))
        out[(k.file, k.function, k.errno)] = k
    return out


@dataclass(frozen=True)
class Miss:
    """A REAL exit of the committed census that the rules do not find."""
    file: str
    line: str
    function: str
    errno: str
    why: str          # the census's class and reason, or kept.tsv's reason
    keeper: str = ""  # kept.tsv's keeper: not a miss to fix, an exit kept on purpose


def committed_misses(version: str, site_rows: Sequence[dict[str, str]],
                     folder: Path = RECALL) -> tuple[list[Miss], list[str]]:
    """The REAL exits of the committed census of this tree version
    (census-VERSION.tsv with verdicts-VERSION.tsv, and census2/verdicts2
    where they exist) that site_rows (file, line, series) do not hold at
    all: a site there in no series already has its reason; one that
    kept.tsv names carries its keeper.  Also the census files read (none:
    no census of this version)."""
    pairs, names = [], []
    for census, verdicts in ((f"census-{version}.tsv", f"verdicts-{version}.tsv"),
                             (f"census2-{version}.tsv", f"verdicts2-{version}.tsv")):
        if (folder / census).is_file() and (folder / verdicts).is_file():
            pairs.append((_rows(folder / census), _rows(folder / verdicts)))
            names += [census, verdicts]
    kept = read_kept(folder / "kept.tsv")
    out, _ = missed(pairs, site_rows, kept)
    misses = []
    for f, line, fn, errno, why in out:
        if "; not found; " in why:
            misses.append(Miss(f, line, fn, errno, why.replace("; not found; ", ": ", 1)))
        elif "; kept by a " in why:
            k = kept[(f, fn, errno)]
            misses.append(Miss(f, line, fn, errno, k.reason, k.keeper))
    return misses, names


def _rows(path: Path) -> list[dict[str, str]]:
    """A committed TSV's rows by its header."""
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8")), delimiter="\t",
                               quoting=csv.QUOTE_NONE))
