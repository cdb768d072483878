"""What one audit boot printed: setup results, device nodes, probe answers.

guest-init.sh frames everything with `ENOTTY-AUDIT: BEGIN KIND NAME` /
`ENOTTY-AUDIT: END KIND NAME rc=N` and ends with `ENOTTY-AUDIT: DONE`;
kernel messages may interleave on the serial console, so lines are
matched, not assumed to be contiguous.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from audit_compare import Answer

_MARK = re.compile(r"ENOTTY-AUDIT: (BEGIN|END) (\S+) (\S+)(?: rc=(-?\d+))?")
_SETUP = re.compile(r"ENOTTY-AUDIT: SETUP (\S+) (ok|failed)")
_OOPS = re.compile(r"(Kernel panic|BUG:|Oops:|WARNING:|general protection fault|"
                   r"Unable to handle kernel)")


@dataclass
class Section:
    kind: str
    name: str
    lines: list[str] = field(default_factory=list)
    rc: int | None = None       # None: no END marker (the guest stopped inside)


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
            what, kind, name, rc = m.groups()
            if what == "BEGIN":
                current = Section(kind, name)
                sections.append(current)
            elif current is not None and (current.kind, current.name) == (kind, name):
                current.rc = int(rc) if rc is not None else None
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


# The probe's line, as assumed until selftests/ioctl_probe's own parser is
# used: `probe target=T driver=D command=C kind=unknown|harmless abi=A result=R`.
_PROBE = re.compile(r"^probe\s+(.*)$")


def parse_probe_lines(lines: list[str], abi_default: str) -> list[Answer]:
    out = []
    for line in lines:
        m = _PROBE.match(line.strip())
        if not m:
            continue
        fields = dict(kv.split("=", 1) for kv in m.group(1).split() if "=" in kv)
        if "target" not in fields or "command" not in fields or "result" not in fields:
            continue
        driver = fields.get("driver")
        out.append(Answer(target=fields["target"], driver=None if driver in (None, "-") else driver,
                          command=fields["command"], abi=fields.get("abi", abi_default),
                          harmless=fields.get("kind") == "harmless", result=fields["result"]))
    return out


def answers(boot: Boot) -> list[Answer]:
    """Every probe answer of a boot, both binaries."""
    out: list[Answer] = []
    for sec in boot.sections:
        if sec.kind == "probe":
            abi = "compat" if sec.name.endswith("_32") else "native"
            out += parse_probe_lines(sec.lines, abi)
    return out
