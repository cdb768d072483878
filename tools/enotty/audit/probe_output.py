"""Read ioctl_probe's output: one row per (target, check, ABI).

ioctl_probe prints, besides '#' comment lines, one tab-separated line per
result:

    probe TARGET KIND NODE DEV SUBSYSTEM DRIVER CHECK COMMAND NAME ABI RESULT

('-' for an empty field; selftests/README.rst describes every column).
The lines may come from a QEMU serial console, where a kernel message can
land in the middle of a line: such a line is kept aside as malformed rather
than guessed at, and the caller decides what a missing row means.
"""
from __future__ import annotations

from dataclasses import dataclass, field

COLUMNS = ("target", "kind", "node", "dev", "subsystem", "driver", "check",
           "command", "name", "abi", "result")
# presetup: an unknown command before the target's setup step (claiming
# the port, the UFFDIO_API handshake), whose own row is check setup.
CHECKS = ("open", "presetup", "setup", "foreign", "own", "unlikely", "smoke", "exit")
ABIS = ("native", "compat")
# Results that are not errno names: the call succeeded, the alarm cut it
# short, the kernel lacks this kind of file, the probe's child was killed.
SUCCESS, TIMEOUT, ABSENT = "0", "TIMEOUT", "absent"
UNKNOWN_CHECKS = ("foreign", "own", "unlikely", "presetup")


@dataclass(frozen=True)
class Row:
    """One result line; optional columns are None where the probe wrote '-'."""
    target: str
    kind: str
    node: str | None
    dev: str | None
    subsystem: str | None
    driver: str | None
    check: str
    command: int | None
    name: str | None
    abi: str
    result: str

    @property
    def key(self) -> tuple[str, str, str]:
        """What a row answers for: unique within one run of one binary
        (a target's presetup rows, one per unknown command, by name)."""
        check = f"presetup:{self.name}" if self.check == "presetup" else self.check
        return (self.target, check, self.abi)


@dataclass
class ProbeOutput:
    rows: list[Row] = field(default_factory=list)
    malformed: list[str] = field(default_factory=list)
    finished: set[str] = field(default_factory=set)   # ABIs whose run printed "done"

    def by_key(self) -> dict[tuple[str, str, str], Row]:
        return {r.key: r for r in self.rows}

    def result(self, target: str, check: str, abi: str = "native") -> str | None:
        row = self.by_key().get((target, check, abi))
        return row.result if row else None

    def targets(self) -> list[str]:
        return sorted({r.target for r in self.rows})


class ProbeLineError(ValueError):
    """A line that starts like a result but is not one."""


def _opt(value: str) -> str | None:
    return None if value == "-" else value


def parse_line(line: str) -> Row | None:
    """The row of one result line; None for any other line."""
    line = line.rstrip("\r\n")
    if not line.startswith("probe\t"):
        return None
    fields = line.split("\t")[1:]
    if len(fields) != len(COLUMNS):
        raise ProbeLineError(f"{len(fields)} fields, expected {len(COLUMNS)}: {line!r}")
    values = dict(zip(COLUMNS, fields))
    if values["check"] not in CHECKS:
        raise ProbeLineError(f"unknown check {values['check']!r}: {line!r}")
    if values["abi"] not in ABIS:
        raise ProbeLineError(f"unknown abi {values['abi']!r}: {line!r}")
    if not values["result"] or not values["target"]:
        raise ProbeLineError(f"empty target or result: {line!r}")
    try:
        command = None if values["command"] == "-" else int(values["command"], 16)
    except ValueError:
        raise ProbeLineError(f"bad command {values['command']!r}: {line!r}") from None
    return Row(target=values["target"], kind=values["kind"], node=_opt(values["node"]),
               dev=_opt(values["dev"]), subsystem=_opt(values["subsystem"]),
               driver=_opt(values["driver"]), check=values["check"], command=command,
               name=_opt(values["name"]), abi=values["abi"], result=values["result"])


def parse(text: str) -> ProbeOutput:
    """Every result row of one or more probe runs (native and compat)."""
    out = ProbeOutput()
    for line in text.splitlines():
        line = line.rstrip("\r")
        if line.startswith("# ioctl_probe: done abi="):
            out.finished.add(line.rsplit("=", 1)[1].strip())
            continue
        try:
            row = parse_line(line)
        except ProbeLineError:
            out.malformed.append(line)
            continue
        if row is not None:
            out.rows.append(row)
    return out
