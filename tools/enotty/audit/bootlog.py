"""What one audit boot printed: setup results, device nodes, probe answers.

guest-init.sh frames everything with `ENOTTY-AUDIT: BEGIN KIND NAME` /
`ENOTTY-AUDIT: END KIND NAME rc=N` and ends with `ENOTTY-AUDIT: DONE`;
kernel messages may interleave on the serial console, so lines are
matched, not assumed to be contiguous.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..kernel import qemu
from ..kernel.qemu import Section
from . import probe_output
from .compare import Answer

MARKER = "ENOTTY-AUDIT:"
_SETUP = re.compile(rf"{MARKER} SETUP (\S+) (ok|failed)")


@dataclass
class Boot:
    done: bool
    sections: list[Section]
    setups: dict[str, bool]
    nodes: dict[str, str]       # /dev/NAME -> driver or "-"
    oops: list[str]


def parse_boot(text: str) -> Boot:
    """The frames of one boot's console log (enotty.kernel.qemu reads
    them), its setup steps' results, device nodes and kernel trouble."""
    sections = qemu.frames(text, MARKER)
    setups = {m.group(1): m.group(2) == "ok" for m in _SETUP.finditer(text)}
    nodes = {}
    for sec in sections:
        if sec.kind == "nodes":
            for line in sec.lines:
                parts = line.split()
                if len(parts) == 2 and parts[0].startswith("/dev/"):
                    nodes[parts[0]] = parts[1]
    return Boot(done=qemu.finished(text, MARKER), sections=sections, setups=setups, nodes=nodes,
                oops=qemu.trouble(text))


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
