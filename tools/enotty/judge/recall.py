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
from typing import Sequence

def missed(pairs: Sequence[tuple[Sequence[dict[str, str]], Sequence[dict[str, str]]]],
           sites: Sequence[dict[str, str]]) -> tuple[list[tuple[str, ...]], Counter[str]]:
    """REAL rows of every (census, verdicts) pair that the output leaves at
    their errno, and the counts (real, found, converted)."""
    listed = {(r["file"], r["line"]): r for r in sites}
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
            if not converted:
                state = "not found" if hit is None else "found, in no series"
                out.append((v["file"], v["line"], v["function"], errno.get(key, "?"),
                            f"{v['class']}; {state}; {v['reason']}"))
    return out, counts


RECALL = Path(__file__).resolve().parents[3] / "cocci" / "recall"


@dataclass(frozen=True)
class Miss:
    """A REAL exit of the committed census that the rules do not find."""
    file: str
    line: str
    function: str
    errno: str
    why: str          # the census's class and reason


def committed_misses(version: str, site_rows: Sequence[dict[str, str]],
                     folder: Path = RECALL) -> tuple[list[Miss], list[str]]:
    """The REAL exits of the committed census of this tree version
    (census-VERSION.tsv with verdicts-VERSION.tsv, and census2/verdicts2
    where they exist) that site_rows (file, line, series) do not hold at
    all: a site there in no series already has its reason.  Also the
    census files read (none: no census of this version)."""
    pairs, names = [], []
    for census, verdicts in ((f"census-{version}.tsv", f"verdicts-{version}.tsv"),
                             (f"census2-{version}.tsv", f"verdicts2-{version}.tsv")):
        if (folder / census).is_file() and (folder / verdicts).is_file():
            pairs.append((_rows(folder / census), _rows(folder / verdicts)))
            names += [census, verdicts]
    out, _ = missed(pairs, site_rows)
    return [Miss(f, line, fn, errno, why.replace("; not found; ", ": ", 1))
            for f, line, fn, errno, why in out if "; not found; " in why], names


def _rows(path: Path) -> list[dict[str, str]]:
    """A committed TSV's rows by its header."""
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8")), delimiter="\t",
                               quoting=csv.QUOTE_NONE))
