"""probe_output: ioctl_probe's lines as rows, console noise kept aside."""
from __future__ import annotations


import pytest


from enotty.audit import probe_output

# Shaped like a QEMU console log: CRLF endings, a kernel message between
# two rows, one inside a row (which then splits in two), both ABIs.
CONSOLE = (
    "ENOTTY-QEMU: BEGIN probe ioctl_probe\r\n"
    "# ioctl_probe: abi=native targets=2 timeout=5s\r\n"
    "# probe\ttarget\tkind\tnode\tdev\tsubsystem\tdriver\tcheck\tcommand\tname\tabi\tresult\r\n"
    "probe\t/dev/fd0\tblock\t/tmp/ioctl_probe.x/b_2_0\t2:0\tblock\tfloppy\topen\t-\t-\tnative\t0\r\n"
    "probe\t/dev/fd0\tblock\t/tmp/ioctl_probe.x/b_2_0\t2:0\tblock\tfloppy\tforeign\t"
    "0xc040e1fe\tFOREIGN_E1_FE\tnative\tEINVAL\r\n"
    "[    3.141592] floppy0: no floppy controllers found\r\n"
    "probe\t/dev/fd0\tblock\t/tmp/ioctl_probe.x/b_2_0\t2:0\tblock\tfloppy\town\t"
    "0xc040027f\tFD_UNUSED\tnative\tEINVAL\r\n"
    "probe\t/dev/fd0\tblock\t/tmp/ioctl_probe.x/b_2_0\t2:0\tbl[    3.2] oops\r\n"
    "ock\tfloppy\tsmoke\t0x8010020f\tFDGETDRVTYP\tnative\t0\r\n"
    "probe\tsocket:mctp\tsocket\t-\t-\t-\t-\topen\t-\t-\tnative\tabsent\r\n"
    "# ioctl_probe: done abi=native\r\n"
    "probe\t/dev/fd0\tblock\t/tmp/ioctl_probe.y/b_2_0\t2:0\tblock\tfloppy\tforeign\t"
    "0xc040e1fe\tFOREIGN_E1_FE\tcompat\tENOTTY\r\n"
    "probe\tpipe:pipe2\tfd\t-\t-\t-\t-\texit\t-\t-\tcompat\tSIGNAL9\r\n"
)


def test_rows_columns_and_dashes():
    out = probe_output.parse(CONSOLE)
    first = out.rows[0]
    assert first == probe_output.Row(
        target="/dev/fd0", kind="block", node="/tmp/ioctl_probe.x/b_2_0", dev="2:0",
        subsystem="block", driver="floppy", check="open", command=None, name=None,
        abi="native", result="0")
    assert out.rows[1].command == 0xC040E1FE and out.rows[1].name == "FOREIGN_E1_FE"
    absent = out.by_key()[("socket:mctp", "open", "native")]
    assert absent.node is None and absent.driver is None and absent.result == "absent"


def test_console_noise_is_kept_aside_not_guessed():
    out = probe_output.parse(CONSOLE)
    # The row split by a kernel message is malformed; its tail and the
    # kernel's own lines are not probe lines at all.
    assert len(out.malformed) == 1 and out.malformed[0].endswith("\tbl[    3.2] oops")
    assert out.result("/dev/fd0", "smoke") is None
    assert out.result("/dev/fd0", "own") == "EINVAL"
    assert len(out.rows) == 6


def test_abis_and_finished_runs():
    out = probe_output.parse(CONSOLE)
    assert out.result("/dev/fd0", "foreign", "native") == "EINVAL"
    assert out.result("/dev/fd0", "foreign", "compat") == "ENOTTY"
    # The compat run never printed its last line: it did not finish.
    assert out.finished == {"native"}
    assert out.result("pipe:pipe2", "exit", "compat") == "SIGNAL9"
    assert out.targets() == ["/dev/fd0", "pipe:pipe2", "socket:mctp"]


@pytest.mark.parametrize("line, complaint", [
    ("probe\t/dev/null\tchar", "fields"),
    ("probe\t/dev/null\tchar\t-\t1:3\tmem\t-\tbogus\t-\t-\tnative\t0", "unknown check"),
    ("probe\t/dev/null\tchar\t-\t1:3\tmem\t-\topen\t-\t-\tx32\t0", "unknown abi"),
    ("probe\t/dev/null\tchar\t-\t1:3\tmem\t-\tforeign\t0xzz\tX\tnative\tENOTTY", "bad command"),
    ("probe\t/dev/null\tchar\t-\t1:3\tmem\t-\tforeign\t0x1\tX\tnative\t", "empty"),
])
def test_malformed_lines_raise(line: str, complaint: str):
    with pytest.raises(probe_output.ProbeLineError, match=complaint):
        probe_output.parse_line(line)


def test_other_lines_are_not_rows():
    assert probe_output.parse_line("# probe\ttarget") is None
    assert probe_output.parse_line("probes\tx") is None
    assert probe_output.parse_line("ok 1 - something") is None


def test_presetup_rows_are_unknown_commands_told_apart_by_name():
    text = "".join("\t".join(("probe", "/dev/parport0", "char", "/dev/parport0", "99:0", "ppdev",
                              "-", check, cmd, name, "native", result)) + "\n"
                   for check, cmd, name, result in [
                       ("presetup", "0xc040e1fe", "FOREIGN_E1_FE", "EINVAL"),
                       ("presetup", "0xc04070bf", "PP_UNUSED", "EINVAL"),
                       ("setup", "-", "ppclaim", "0"),
                       ("own", "0xc04070bf", "PP_UNUSED", "ENOTTY")])
    out = probe_output.parse(text)
    assert not out.malformed and len(out.by_key()) == 4
    assert out.result("/dev/parport0", "presetup:PP_UNUSED") == "EINVAL"
    assert out.result("/dev/parport0", "setup") == "0"
    assert "presetup" in probe_output.UNKNOWN_CHECKS and "setup" not in probe_output.UNKNOWN_CHECKS
