"""What one audit boot printed: setup results, device nodes, probe answers.

guest-init.sh frames everything with `ENOTTY-AUDIT: BEGIN KIND NAME` /
`ENOTTY-AUDIT: END KIND NAME rc=N` and ends with `ENOTTY-AUDIT: DONE`;
kernel messages may interleave on the serial console, so lines are
matched, not assumed to be contiguous.
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from audit_compare import Answer

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "ioctl_probe"))

import probe_output  # noqa: E402  (selftests/ioctl_probe: the probe's own reader)

_MARK = re.compile(r"ENOTTY-AUDIT: (BEGIN|END) (\S+) (\S+)(?: rc=(-?\d+))?(?: secs=(\d+))?")
_SETUP = re.compile(r"ENOTTY-AUDIT: SETUP (\S+) (ok|failed)")
_OOPS = re.compile(r"(Kernel panic|BUG:|Oops:|WARNING:|general protection fault|"
                   r"Unable to handle kernel)")


@dataclass
class Section:
    kind: str
    name: str
    lines: list[str] = field(default_factory=list)
    rc: int | None = None       # None: no END marker (the guest stopped inside)
    secs: int | None = None     # how long it ran, when the END marker says


@dataclass
class Boot:
    done: bool
    sections: list[Section]
    setups: dict[str, bool]
    nodes: dict[str, str]       # /dev/NAME -> driver or "-"
    oops: list[str]


def parse_boot(text: str) -> Boot:
    sections: list[Section] = []
    current: Section | None = None
    setups: dict[str, bool] = {}
    oops: list[str] = []
    for raw in text.splitlines():
        line = raw.rstrip("\r")
        m = _SETUP.search(line)
        if m:
            setups[m.group(1)] = m.group(2) == "ok"
            continue
        m = _MARK.search(line)
        if m:
            what, kind, name, rc, secs = m.groups()
            if what == "BEGIN":
                current = Section(kind, name)
                sections.append(current)
            elif current is not None and (current.kind, current.name) == (kind, name):
                current.rc = int(rc) if rc is not None else None
                current.secs = int(secs) if secs is not None else None
                current = None
            continue
        if _OOPS.search(line):
            # Without the timestamp: the same warning in both boots compares equal.
            oops.append(re.sub(r"^\[\s*[\d.]+\]\s*", "", line.strip()))
        if current is not None:
            current.lines.append(line)
    nodes = {}
    for sec in sections:
        if sec.kind == "nodes":
            for line in sec.lines:
                parts = line.split()
                if len(parts) == 2 and parts[0].startswith("/dev/"):
                    nodes[parts[0]] = parts[1]
    return Boot(done=any("ENOTTY-AUDIT: DONE" in ln for ln in text.splitlines()),
                sections=sections, setups=setups, nodes=nodes, oops=oops)


def answers(boot: Boot) -> list[Answer]:
    """Every probe answer of a boot, both binaries, as probe_output reads them.

    The command of an answer is the probe's check, with the command's name
    where it has one (own:FD_UNUSED, smoke:FDGETDRVTYP, open, exit).  Only
    foreign, own and unlikely are unknown commands; open, smoke and exit
    must not change at all.
    """
    out: list[Answer] = []
    for sec in boot.sections:
        if sec.kind != "probe":
            continue
        for row in probe_output.parse("\n".join(sec.lines)).rows:
            command = f"{row.check}:{row.name}" if row.name else row.check
            out.append(Answer(target=row.target, driver=row.driver, command=command, abi=row.abi,
                              harmless=row.check not in probe_output.UNKNOWN_CHECKS,
                              result=row.result))
    return out
