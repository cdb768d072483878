"""bootlog: reading one boot's console log."""
from __future__ import annotations

from pathlib import Path

from enotty.audit import bootlog

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
# ioctl_probe: abi=native targets=2 timeout=5s
probe\t/dev/fd0\tblock\t/tmp/p/b_2_0\t2:0\tblock\tfloppy\topen\t-\t-\tnative\t0
probe\t/dev/fd0\tblock\t/tmp/p/b_2_0\t2:0\tblock\tfloppy\tforeign\t0xc040e1fe\tFOREIGN_E1_FE\tnative\tEINVAL
[    3.100000] WARNING: CPU: 0 PID: 1 at drivers/x.c:1 f+0x1/0x2
probe\t/dev/fd0\tblock\t/tmp/p/b_2_0\t2:0\tblock\tfloppy\tsmoke\t0x8010020f\tFDGETDRVTYP\tnative\t0
not a probe line
ENOTTY-AUDIT: END probe ioctl_probe rc=0
ENOTTY-AUDIT: BEGIN probe ioctl_probe_32
probe\tpipe:pipe2\tfd\t-\t-\t-\t-\town\t0xc040667f\tPIPE_UNUSED\tcompat\tENOTTY
"""


def test_sections_setups_nodes_and_oops():
    boot = bootlog.parse_boot(LOG)
    assert not boot.done
    assert boot.setups == {"loop": True, "autofs": False}
    assert boot.nodes == {"/dev/fd0": "floppy", "/dev/null": "-"}
    assert boot.oops == ["WARNING: CPU: 0 PID: 1 at drivers/x.c:1 f+0x1/0x2"]
    probe32 = [s for s in boot.sections if s.name == "ioctl_probe_32"][0]
    assert probe32.rc is None
    assert bootlog.parse_boot(LOG + "ENOTTY-AUDIT: DONE\n").done


def test_answers_from_the_probe_rows():
    got = bootlog.answers(bootlog.parse_boot(LOG))
    assert [(a.target, a.driver, a.command, a.abi, a.harmless, a.result) for a in got] == [
        ("/dev/fd0", "floppy", "open", "native", True, "0"),
        ("/dev/fd0", "floppy", "foreign:FOREIGN_E1_FE", "native", False, "EINVAL"),
        ("/dev/fd0", "floppy", "smoke:FDGETDRVTYP", "native", True, "0"),
        ("pipe:pipe2", None, "own:PIPE_UNUSED", "compat", False, "ENOTTY"),
    ]


def test_the_s390x_guests_static_init_frames_like_guest_init_sh():
    """A real console of the s390x guest (guest-init.c, pristine kernel):
    the same frames, the probe's answers, the end marker."""
    text = (Path(__file__).parent / "testdata" / "console-s390x-pristine.log").read_text()
    boot = bootlog.parse_boot(text)
    assert boot.done and boot.oops == [] and boot.setups == {}
    assert boot.nodes["/dev/clp"] == "-" and "/dev/z90crypt" in boot.nodes
    assert [(s.kind, s.name, s.rc) for s in boot.sections] == [
        ("setup", "all", 0), ("nodes", "all", 0), ("probe", "ioctl_probe", 0),
        ("dmesg", "kernel", 0)]
    got = {(a.target, a.command): a.result for a in bootlog.answers(boot)}
    assert got[("/dev/clp", "foreign:FOREIGN_E1_FE")] == "EINVAL"
    assert got[("/dev/z90crypt", "unlikely:UNLIKELY_D6_FD")] == "EPERM"
    assert {a.abi for a in bootlog.answers(boot)} == {"native"}
