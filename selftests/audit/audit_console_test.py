"""audit_console: reading one boot's console log."""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import audit_console  # noqa: E402

LOG = """\
[    0.000000] Linux version 6.12.118
ENOTTY-AUDIT: BEGIN setup all
ENOTTY-AUDIT: SETUP loop ok
ENOTTY-AUDIT: SETUP autofs failed
ENOTTY-AUDIT: END setup all rc=0
ENOTTY-AUDIT: BEGIN nodes all
/dev/fd0 floppy
/dev/null -
ENOTTY-AUDIT: END nodes all rc=0
ENOTTY-AUDIT: BEGIN probe ioctl_probe
probe target=/dev/fd0 driver=floppy command=foreign kind=unknown result=EINVAL
[    3.100000] WARNING: CPU: 0 PID: 1 at drivers/x.c:1 f+0x1/0x2
probe target=/dev/fd0 driver=floppy command=harmless kind=harmless result=0
not a probe line
ENOTTY-AUDIT: END probe ioctl_probe rc=0
ENOTTY-AUDIT: BEGIN probe ioctl_probe_32
probe target=pipe:0 driver=- command=own kind=unknown result=ENOTTY
"""


def test_sections_setups_nodes_and_oops():
    boot = audit_console.parse_boot(LOG)
    assert not boot.done
    assert boot.setups == {"loop": True, "autofs": False}
    assert boot.nodes == {"/dev/fd0": "floppy", "/dev/null": "-"}
    assert boot.oops == ["WARNING: CPU: 0 PID: 1 at drivers/x.c:1 f+0x1/0x2"]
    probe32 = [s for s in boot.sections if s.name == "ioctl_probe_32"][0]
    assert probe32.rc is None
    assert audit_console.parse_boot(LOG + "ENOTTY-AUDIT: DONE\n").done


def test_answers_take_the_abi_from_the_binary():
    got = audit_console.answers(audit_console.parse_boot(LOG))
    assert [(a.target, a.driver, a.command, a.abi, a.harmless, a.result) for a in got] == [
        ("/dev/fd0", "floppy", "foreign", "native", False, "EINVAL"),
        ("/dev/fd0", "floppy", "harmless", "native", True, "0"),
        ("pipe:0", None, "own", "compat", False, "ENOTTY"),
    ]
