"""The site record: one return value that changes, as the rules report it.

The rules print one `ENOTTY-SITE` line per site in `-D tsv` mode; this
module parses those lines and reads/writes the report TSV (header
`file line function interface from to rule`), the series TSV (the same plus
`subsystem series`) and the generated sites.tsv (the same plus the effect
columns of Effects, see effects.py).
"""
from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from typing import Iterable, TextIO

# RESTRUCTURES (rule_python.py, which the rule file embeds): shapes whose
# output rewrites the statement of the site rather than its errno token
# (cocci/lib/output.smpl); their diff may keep the site line as context and
# change the lines around it, in the hunk that covers it.  ADDS keep their
# site line (an initialiser) and add to the switch after it instead: a
# default (ADDS_DEFAULT), or the answer first thing in its default.
# VALID_FIRST keeps its site line (a state check) and adds a test of the
# command before it, and before the function the function that test calls.
from .rule_python import ADDS, ADDS_DEFAULT, RESTRUCTURES, VALID_FIRST
from .rules import SITE_MARKER

REPORT_COLUMNS = ("file", "line", "function", "interface", "from", "to", "rule")

SERIES_COLUMNS = REPORT_COLUMNS + ("subsystem", "series")


@dataclass(frozen=True)
class Effects:
    """What a site changes for user space (effects.py computes it).

    Every cell is a short phrase without tabs; "-" means none, "unknown"
    that the text did not allow a verdict.
    """
    paths: str       # native | compat | both | native+V-compat | unknown
    reach: str       # yes | partly | no | unknown: an unknown command gets to the line
    guard: str       # the check before the dispatch that answers first, or "-"
    branches: str    # all | the #if branch that keeps the old answer | unknown
    uncased: str     # known commands of the family without a case (comma-separated) or "-"
    forward: str     # what a socket handler's -ENOIOCTLCMD lets through, or "-"
    fallback: str    # where the core still answers EINVAL after the driver, or "-"
    visible: str     # yes | invisible | unreachable | unknown
    entry: str = "-"  # the ops-table function user space calls, when the site's is its helper

    COLUMNS = ("paths", "reach", "guard", "branches", "uncased", "forward", "fallback", "visible",
               "entry")

    def cells(self) -> list[str]:
        return [getattr(self, c) for c in self.COLUMNS]

    def guard_items(self) -> list[tuple[int, str, str, str]]:
        """(line, condition, errno, kind) of each check of the guard cell
        ('line 10: !arg -> -EINVAL (argument check); ...')."""
        return [(int(m.group(1)), m.group(2), m.group(3), m.group(4))
                for m in (GUARD_ITEM.match(part) for part in self.guard.split("; ")) if m]

    def uncased_items(self) -> list[tuple[str, str]]:
        """(name, condition) of each uncased command: a case only one #if
        branch holds is NAME[CONFIG_X=n] in the cell, condition '' else."""
        return [] if self.uncased in ("-", "unknown") else [
            (name, when.rstrip("]")) for name, _, when in (c.partition("[") for c in self.uncased.split(","))]

    def uncased_commands(self) -> list[str]:
        """The command names."""
        return [name for name, _when in self.uncased_items()]


# one check of Effects.guard, as effects.py writes it
GUARD_ITEM = re.compile(r"line (\d+): (.*?) -> -(E[A-Z0-9]+) \(([^)]*)\)$")

EFFECT_COLUMNS = SERIES_COLUMNS + Effects.COLUMNS
# sites.tsv as written before the entry column: read with entry "-"
EFFECT_COLUMNS_BEFORE_ENTRY = EFFECT_COLUMNS[:-1]


@dataclass(frozen=True)
class Site:
    file: str        # relative to the tree root once the scan has seen it
    line: int        # 1-based, in the unmodified file
    function: str
    interface: str   # struct.field, e.g. file_operations.unlocked_ioctl
    from_: str       # EINVAL, ENOSYS (no minus)
    to: str          # ENOTTY, ENOIOCTLCMD
    rule: str        # the .cocci basename without .cocci
    subsystem: str = ""   # filled in by the series split, for sites.tsv
    series: str = ""
    effects: Effects | None = None   # filled in by effects.analyse_sites

    def sort_key(self) -> tuple:
        return (self.file, self.line, self.function, self.interface, self.rule,
                self.from_, self.to)

    def cells(self, columns: tuple[str, ...]) -> list[str]:
        by_name = {
            "file": self.file, "line": str(self.line), "function": self.function,
            "interface": self.interface, "from": self.from_, "to": self.to,
            "rule": self.rule, "subsystem": self.subsystem, "series": self.series,
        }
        if columns == EFFECT_COLUMNS:
            if self.effects is None:
                raise ValueError(f"{self.file}:{self.line}: no effects to write")
            return [by_name[c] for c in SERIES_COLUMNS] + self.effects.cells()
        return [by_name[c] for c in columns]


def _check_cell(value: str, what: str) -> str:
    if not value or any(c in value for c in "\t\r\n"):
        raise ValueError(f"bad {what} {value!r}")
    return value


def _line_number(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"bad line number {text!r}")
    return int(text)


def parse_site_line(line: str) -> Site:
    """One `ENOTTY-SITE<TAB>file<TAB>line<TAB>...<TAB>rule` line from spatch."""
    fields = line.rstrip("\r\n").split("\t")
    if len(fields) != 8 or fields[0] != SITE_MARKER:
        raise ValueError(f"not a {SITE_MARKER} line with 7 fields: {line!r}")
    _marker, file, lineno, function, interface, from_, to, rule = fields
    return Site(
        file=_check_cell(file, "file"), line=_line_number(lineno),
        function=_check_cell(function, "function"),
        interface=_check_cell(interface, "interface"),
        from_=_check_cell(from_.lstrip("-"), "from"), to=_check_cell(to.lstrip("-"), "to"),
        rule=_check_cell(rule, "rule"),
    )


def is_site_line(line: str) -> bool:
    return line.startswith(SITE_MARKER + "\t")


def sort_sites(sites: Iterable[Site]) -> list[Site]:
    """File, then numeric line; identical rows (a rule matching twice) once."""
    return sorted(set(sites), key=Site.sort_key)


def write_tsv(sites: Iterable[Site], out: TextIO, columns: tuple[str, ...] = REPORT_COLUMNS) -> None:
    """Header plus one row per site, sorted; `columns` REPORT_, SERIES_ or EFFECT_COLUMNS."""
    if columns not in (REPORT_COLUMNS, SERIES_COLUMNS, EFFECT_COLUMNS):
        raise ValueError(f"unknown column set {columns!r}")
    out.write("\t".join(columns) + "\n")
    for site in sort_sites(sites):
        out.write("\t".join(site.cells(columns)) + "\n")


def read_tsv(stream: TextIO) -> list[Site]:
    """Rows of a report TSV or a sites.tsv (with or without effects), in file order."""
    reader = csv.reader(stream, delimiter="\t", quoting=csv.QUOTE_NONE)
    header = tuple(next(reader, ()))
    if header not in (REPORT_COLUMNS, SERIES_COLUMNS, EFFECT_COLUMNS, EFFECT_COLUMNS_BEFORE_ENTRY):
        raise ValueError(f"unexpected TSV header {header!r}")
    sites = []
    for number, row in enumerate(reader, start=2):
        if len(row) != len(header):
            raise ValueError(f"line {number}: {len(row)} fields, expected {len(header)}")
        cell = dict(zip(header, row))
        sites.append(Site(
            file=cell["file"], line=_line_number(cell["line"]), function=cell["function"],
            interface=cell["interface"], from_=cell["from"], to=cell["to"], rule=cell["rule"],
            subsystem=cell.get("subsystem", ""), series=cell.get("series", ""),
            effects=Effects(*(cell.get(c, "-") for c in Effects.COLUMNS))
            if header in (EFFECT_COLUMNS, EFFECT_COLUMNS_BEFORE_ENTRY) else None,
        ))
    return sites
