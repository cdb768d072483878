"""QEMU's command line, one boot's end, the guest's framed console."""
from __future__ import annotations

from pathlib import Path

from enotty.kernel import qemu


def test_argv_of_a_boot(tmp_path: Path):
    bios = tmp_path / "qboot.rom"
    bios.write_bytes(b"")
    config = qemu.QemuConfig(Path("/k/bzImage"), Path("/i.cpio"), Path("/log"), cmdline=("vivid.x=1",),
                             bios=bios)
    argv = config.argv()
    assert argv[0] == "qemu-system-x86_64"
    joined = " ".join(argv)
    assert "-no-reboot" in argv and "-nographic" in argv and "-m 512M" in joined
    assert "isa-debug-exit,iobase=0xf4,iosize=0x04" in argv
    assert "-serial file:/log" in joined and "-accel tcg" in joined
    assert f"-bios {bios}" in joined
    assert argv[argv.index("-append") + 1] == "console=ttyS0 loglevel=5 panic=-1 rdinit=/init vivid.x=1"
    kvm = qemu.QemuConfig(Path("/k"), Path("/i"), Path("/l"), kvm=True, bios=tmp_path / "missing.rom").argv()
    assert "kvm" in kvm and "-bios" not in kvm


def test_argv_puts_the_extra_options_last_in_their_order():
    # The audit keeps a finished boot by a hash of this argv: its order is part of the key.
    argv = qemu.QemuConfig(Path("K"), Path("I"), Path("C"), memory="1G",
                           extra=("-parallel", "null", "-device", "sdhci-pci")).argv()
    assert argv == ["qemu-system-x86_64", "-M", "pc", "-m", "1G", "-smp", "1", "-accel", "tcg",
                    "-nographic", "-no-reboot", "-monitor", "none", "-serial", "file:C",
                    "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04", "-kernel", "K", "-initrd", "I",
                    "-append", "console=ttyS0 loglevel=5 panic=-1 rdinit=/init",
                    "-parallel", "null", "-device", "sdhci-pci"]


def test_boot_reports_the_exit_status_and_a_hang(tmp_path: Path, monkeypatch):
    console = tmp_path / "console.log"
    console.write_text("an earlier boot's log")
    config = qemu.QemuConfig(Path("/k"), Path("/i"), console)
    monkeypatch.setattr(qemu.QemuConfig, "argv",
                        lambda self: ["sh", "-c", "echo qemu: bad option >&2; exit 1"])
    ended = qemu.boot(config, 10)
    assert ended.rc == 1 and ended.last_line() == "qemu: bad option"
    assert not console.exists() and qemu.console_text(config) == ""
    monkeypatch.setattr(qemu.QemuConfig, "argv", lambda self: ["sleep", "5"])
    assert qemu.boot(config, 0.2) == qemu.Exit(None)


LOG = ("[    0.0] Linux version 6.12.118\r\n"
       "M: BEGIN setup all\r\n"
       "M: SETUP loop ok\r\n"
       "M: END setup all rc=0\r\n"
       "[    1.5] M: BEGIN kselftest epoll\r\n"
       "\x1b[32mok 1 x\x1b[0m\r\n"
       "[    3.1] WARNING: CPU: 0 PID: 1 at drivers/x.c:1 f+0x1/0x2\r\n"
       "M: END kselftest epoll rc=0 secs=4\r\n"
       "M: END kselftest other rc=1\r\n"
       "M: BEGIN probe p\r\n"
       "half a line\r\n")


def test_frames_in_order_with_rc_seconds_and_clean_lines():
    secs = qemu.frames(LOG, "M:")
    assert [(s.kind, s.name, s.rc, s.secs) for s in secs] == [
        ("setup", "all", 0, None), ("kselftest", "epoll", 0, 4), ("probe", "p", None, None)]
    # a marker behind a kernel timestamp still counts; colours and \r go
    assert secs[1].lines == ["ok 1 x", "[    3.1] WARNING: CPU: 0 PID: 1 at drivers/x.c:1 f+0x1/0x2"]
    assert secs[2].lines == ["half a line", ""]
    assert qemu.frames(LOG, "OTHER:") == []
    assert not qemu.finished(LOG, "M:") and qemu.finished(LOG + "M: DONE\r\n", "M:")


def test_trouble_without_timestamps():
    assert qemu.trouble(LOG) == ["WARNING: CPU: 0 PID: 1 at drivers/x.c:1 f+0x1/0x2"]
    assert qemu.trouble("Kernel panic - not syncing: x\r\nCall Trace:\r\n fine\r\n") == [
        "Kernel panic - not syncing: x", "Call Trace:"]
