"""instantiate.tsv: how each patched source file is reached in the guest."""
from __future__ import annotations

import fnmatch
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from . import DATA
from .guests import DEFAULT, GUESTS

TABLE = DATA / "instantiate.tsv"
EXCEPTIONS = DATA / "exceptions.tsv"
ANSWERS = DATA / "answers.tsv"
EXCEPTION_COLUMNS = ("source", "target", "check", "abi", "reason")
COLUMNS = ("source", "how", "config", "qemu", "cmdline", "setup", "targets", "reason")
# The probe's setup steps (selftests/ioctl_probe/ioctl_probe.c, setup_steps[]).
SETUP_STEPS = ("ppclaim", "uffdio_api", "hmm_range")


class TableError(Exception):
    """A malformed row; the message names the file and line."""


@dataclass(frozen=True)
class TargetPattern:
    """[!]GLOB[@DRIVER][=FUNCTION][+SETUP] from the targets column; `!`
    names the target to the probe, which does not find it on its own;
    SETUP is the probe's setup step for it (ppclaim, uffdio_api,
    hmm_range: what a real program does before its commands reach the
    dispatch)."""
    glob: str
    driver: str | None
    function: str | None
    named: bool = False
    setup: str | None = None

    def matches(self, target: str, driver: str | None) -> bool:
        if not fnmatch.fnmatchcase(target, self.glob):
            return False
        if self.driver is None:
            return True
        if self.driver == "-":
            return driver is None
        return driver is not None and fnmatch.fnmatchcase(driver, self.driver)


@dataclass(frozen=True)
class Row:
    source: str
    audit: bool
    config: tuple[str, ...]
    qemu: tuple[str, ...]
    cmdline: tuple[str, ...]
    setup: tuple[str, ...]
    targets: tuple[TargetPattern, ...]
    reason: str
    # The guest (enotty.audit.guests) whose boots audit the file: `audit`
    # is x86_64, `audit:s390x` another; "" for a skip row.
    guest: str = ""


def _words(cell: str) -> tuple[str, ...]:
    return () if cell.strip() in ("", "-") else tuple(cell.split())


def _argv(cell: str) -> tuple[str, ...]:
    """The qemu column: words as a shell splits them, so that one argument
    can hold a space in quotes (an SMBIOS manufacturer)."""
    if cell.strip() in ("", "-"):
        return ()
    try:
        return tuple(shlex.split(cell))
    except ValueError as err:
        raise ValueError(f"qemu: {err}") from None


def parse_pattern(text: str) -> TargetPattern:
    named = text.startswith("!")
    rest, plus, setup = text.lstrip("!").partition("+")
    glob, _, function = rest.partition("=")
    glob, _, driver = glob.partition("@")
    if not glob:
        raise ValueError(f"empty target pattern in {text!r}")
    if plus and setup not in SETUP_STEPS:
        raise ValueError(f"unknown setup step {setup!r} in {text!r} "
                         f"(known: {', '.join(SETUP_STEPS)})")
    return TargetPattern(glob=glob, driver=driver or None, function=function or None, named=named,
                         setup=setup or None)


def table_lines(text: str, name: str, columns: tuple[str, ...]) -> Iterator[tuple[str, list[str]]]:
    """(file:line, cells) of each row with the right number of columns;
    comments (#) and blank lines are skipped."""
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        where = f"{name}:{number}"
        if len(cells) != len(columns):
            raise TableError(f"{where}: {len(cells)} columns, expected {len(columns)} "
                             f"({' '.join(columns)})")
        yield where, cells


def parse_table(text: str, name: str = "instantiate.tsv") -> dict[str, Row]:
    """source -> Row; comments (#) and blank lines are skipped."""
    rows: dict[str, Row] = {}
    for where, cells in table_lines(text, name, COLUMNS):
        source, how, config, qemu, cmdline, setup, targets, reason = cells
        how, colon, guest = how.partition(":")
        if how not in ("audit", "skip") or (colon and (how == "skip" or guest not in GUESTS)):
            raise TableError(f"{where}: how is {cells[1]!r}, expected audit, "
                             f"audit:GUEST ({', '.join(GUESTS)}) or skip")
        if source in rows:
            raise TableError(f"{where}: {source} has a row already")
        if not reason.strip() or reason.strip() == "-":
            raise TableError(f"{where}: {source} needs a reason")
        try:
            patterns = tuple(parse_pattern(t) for t in _words(targets))
        except ValueError as err:
            raise TableError(f"{where}: {err}") from None
        if how == "audit" and not patterns:
            raise TableError(f"{where}: {source} is audited but names no target")
        symbols = tuple(s.removeprefix("CONFIG_") for s in _words(config))
        try:
            qemu_args = _argv(qemu)
        except ValueError as err:
            raise TableError(f"{where}: {err}") from None
        rows[source] = Row(source=source, audit=how == "audit", config=symbols,
                           qemu=qemu_args, cmdline=_words(cmdline),
                           setup=tuple(s for s in setup.split(",") if s.strip() not in ("", "-")),
                           targets=patterns, reason=reason.strip(),
                           guest=(guest or DEFAULT) if how == "audit" else "")
    return rows


def of_guest(rows: dict[str, Row], guest: str) -> dict[str, Row]:
    """The audit rows one guest's boots reach, in table order."""
    return {source: row for source, row in rows.items() if row.audit and row.guest == guest}


def load(path: Path = TABLE) -> dict[str, Row]:
    return parse_table(path.read_text(), path.name)


def source_for(rows: dict[str, Row], target: str, driver: str | None) -> tuple[str, str | None] | None:
    """(source, function or None) answering for a probe target, if any row
    claims it; the first matching row in table order wins."""
    for row in rows.values():
        if not row.audit:
            continue
        for pattern in row.targets:
            if pattern.matches(target, driver):
                return row.source, pattern.function
    return None


def explicit_targets(rows: dict[str, Row], sources: list[str]) -> list[str]:
    """The targets (marked `!`) the probe must be given by name: a watchdog,
    which it never opens on its own (opening arms it), a directory, a node
    that sysfs does not list (binderfs)."""
    out: list[str] = []
    for source in sources:
        for pattern in rows[source].targets:
            if pattern.named and pattern.glob not in out:
                out.append(pattern.glob)
    return out


def probe_setups(rows: dict[str, Row], sources: list[str]) -> list[str]:
    """The probe's -s GLOB=STEP arguments for the audited sources' targets."""
    out: list[str] = []
    for source in sources:
        for pattern in rows[source].targets:
            arg = f"{pattern.glob}={pattern.setup}"
            if pattern.setup and arg not in out:
                out.append(arg)
    return out


@dataclass(frozen=True)
class Exception_:
    """A patched handler's unknown-command answer that may stay other than
    ENOTTY after its series, and the reason, which names the state the
    handler needs before its dispatch (exceptions.tsv)."""
    source: str
    target: str     # glob on the probe's target name
    check: str      # foreign | own
    abi: str        # native | compat | *
    reason: str


def parse_exceptions(text: str, name: str = "exceptions.tsv") -> list[Exception_]:
    out = []
    for where, cells in table_lines(text, name, EXCEPTION_COLUMNS):
        source, target, check, abi, reason = (c.strip() for c in cells)
        if check not in ("foreign", "own"):
            raise TableError(f"{where}: check is {check!r}, expected foreign or own")
        if abi not in ("native", "compat", "*"):
            raise TableError(f"{where}: abi is {abi!r}, expected native, compat or *")
        if not reason or reason == "-":
            raise TableError(f"{where}: {source} needs a reason (the state the handler needs)")
        out.append(Exception_(source, target, check, abi, reason))
    return out


def load_exceptions(path: Path = EXCEPTIONS) -> list[Exception_]:
    return parse_exceptions(path.read_text(), path.name) if path.is_file() else []
