"""audit.run: the placeholders of the qemu column (@SCRATCH/, @ACPI/)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest


from enotty.audit import run

needs_iasl = pytest.mark.skipif(shutil.which("iasl") is None, reason="no iasl (acpica-tools)")

SSDT = """DefinitionBlock ("", "SSDT", 2, "ENOTTY", "TEST", 1)
{
    Scope (\\_SB) { Device (TST0) { Name (_HID, "%s") } }
}
"""


def test_scratch_images(tmp_path):
    argv = run.scratch_images(["-drive", "if=floppy,file=@SCRATCH/fd0.img,format=raw"],
                                    tmp_path)
    assert argv == ["-drive", f"if=floppy,file={tmp_path}/fd0.img,format=raw"]
    assert (tmp_path / "fd0.img").stat().st_size == run.FLOPPY_BYTES


@needs_iasl
def test_acpi_tables_compiled_and_named_by_content(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "dev.asl").write_text(SSDT % "TST0001")
    out = tmp_path / "out"
    out.mkdir()
    first = run.acpi_tables(["-acpitable", "file=@ACPI/dev"], out, src)
    assert first[0] == "-acpitable" and first[1].startswith(f"file={out}/dev-")
    aml = Path(first[1].removeprefix("file="))
    assert aml.suffix == ".aml" and aml.read_bytes()[:4] == b"SSDT"
    (src / "dev.asl").write_text(SSDT % "TST0002")
    second = run.acpi_tables(["-acpitable", "file=@ACPI/dev"], out, src)
    assert second != first     # an edited table is another file: no kept boot reused


@needs_iasl
def test_acpi_tables_errors(tmp_path):
    with pytest.raises(run.AuditError, match="no .*missing.asl"):
        run.acpi_tables(["file=@ACPI/missing"], tmp_path, tmp_path)
    (tmp_path / "bad.asl").write_text("DefinitionBlock (")
    with pytest.raises(run.AuditError, match="iasl bad.asl: exit"):
        run.acpi_tables(["file=@ACPI/bad"], tmp_path, tmp_path)


def test_committed_tables_compile(tmp_path):
    if shutil.which("iasl") is None:
        pytest.skip("no iasl (acpica-tools)")
    for asl in sorted(run.ACPI_DIR.glob("*.asl")):
        argv = run.acpi_tables([f"file=@ACPI/{asl.stem}"], tmp_path)
        assert Path(argv[0].removeprefix("file=")).is_file()


def test_the_command_line_takes_make_audits_variables():
    from enotty import cli
    args = cli.build_parser().parse_args(["audit", "--series", "media", "--out", "o",
                                          "--mutant", "einval,untouched"])
    assert (args.series, args.out, args.mutant) == ("media", "o", ("einval", "untouched"))
    args = cli.build_parser().parse_args(["audit"])
    assert (args.series, args.mutant, args.timeout, args.probe_timeout) == ("all", (), 600, 240)
    assert set(run.MUTANTS) == {"einval", "untouched", "epoll", "s390-untouched"}
    assert all(p.is_file() for p in run.MUTANTS.values())



# ---------------------------------------------------------------- guests

from enotty.audit import guests, table  # noqa: E402

TABLE = (
    "drivers/char/random.c\taudit\t-\t-\t-\t-\t/dev/random /dev/urandom\tr\n"
    "drivers/char/ppdev.c\taudit\t-\t-parallel null\t-\t-\t/dev/parport0+ppclaim\tp\n"
    "arch/s390/pci/pci_clp.c\taudit:s390x\t-\t-\t-\t-\t/dev/clp\tclp\n"
    "drivers/s390/cio/chsc_sch.c\taudit:s390x\t-\t-\t-\t-\t/dev/chsc /dev/clp+ppclaim\tchsc\n"
    "drivers/s390/char/tape_3590.c\tskip\t-\t-\t-\t-\t-\ttape\n")


def test_a_guest_boots_when_the_series_touch_one_of_its_rows():
    rows = table.parse_table(TABLE)
    names = lambda claimed: [g.name for g in run.active_guests(rows, claimed)]  # noqa: E731
    assert names({"drivers/char/random.c"}) == ["x86_64"]
    assert names({"arch/s390/pci/pci_clp.c", "drivers/s390/char/tape_3590.c"}) == ["s390x"]
    assert names({"arch/s390/pci/pci_clp.c", "drivers/char/random.c"}) == ["x86_64", "s390x"]
    # Nothing audited anywhere: x86_64 still boots (its untouched controls).
    assert names({"drivers/s390/char/tape_3590.c"}) == ["x86_64"]


def test_a_guest_without_busybox_names_its_targets_and_runs_no_setup_step():
    rows = table.of_guest(table.parse_table(TABLE), "s390x")
    s390x = guests.GUESTS["s390x"]
    assert run.probe_args(rows, ["arch/s390/pci/pci_clp.c"], s390x.controls) == [
        "/dev/clp", "/dev/z90crypt"]
    assert run.probe_args(rows, list(rows), ("/dev/chsc",)) == [
        "-s", "/dev/clp=ppclaim", "/dev/clp", "/dev/chsc"]
    run.check_guest_rows(s390x, rows, list(rows))       # no setup column: fine
    with_setup = table.parse_table("arch/s390/pci/pci_clp.c\taudit:s390x\t-\t-\t-\tloop\t/dev/clp\tr\n")
    with pytest.raises(table.TableError, match=r"pci_clp.c \(audit:s390x\) names setup step\(s\) loop"):
        run.check_guest_rows(s390x, with_setup, list(with_setup))
    run.check_guest_rows(guests.GUESTS["x86_64"], with_setup, list(with_setup))


def test_the_static_initramfs_holds_init_the_probe_and_its_arguments(tmp_path):
    init = tmp_path / "init"
    init.write_bytes(b"\x7fELF init")
    probe = tmp_path / "ioctl_probe"
    probe.write_bytes(b"\x7fELF probe")
    cpio = run.build_static_initramfs(init, [probe], ["-s", "/dev/x=ppclaim", "/dev/clp"], 60,
                                      tmp_path / "initramfs.cpio")
    listing = subprocess.run(["cpio", "-it", "--quiet"], input=cpio.read_bytes(),
                             capture_output=True, check=True).stdout.decode().split()
    assert set(listing) >= {"init", "audit/probe/ioctl_probe", "audit/probe-args",
                            "audit/probe-timeout"}
    out = tmp_path / "x"
    out.mkdir()
    subprocess.run(["cpio", "-id", "--quiet"], input=cpio.read_bytes(), cwd=out, check=True)
    assert (out / "audit" / "probe-args").read_text() == "-s\n/dev/x=ppclaim\n/dev/clp\n"
    assert (out / "audit" / "probe-timeout").read_text() == "60\n"
    assert (out / "init").stat().st_mode & 0o111
    assert not (out / "audit" / "restart").exists()
    restarting = run.build_static_initramfs(init, [probe], ["/dev/ipmi-kcs*"], 60,
                                            tmp_path / "restart.cpio", restart=True)
    listing = subprocess.run(["cpio", "-it", "--quiet"], input=restarting.read_bytes(),
                             capture_output=True, check=True).stdout.decode().split()
    assert "audit/restart" in listing
    # Same content, same bytes: the boot is kept by the archive's hash.
    again = run.build_static_initramfs(init, [probe], ["-s", "/dev/x=ppclaim", "/dev/clp"], 60,
                                       tmp_path / "again.cpio")
    assert again.read_bytes() == cpio.read_bytes()


def test_kernel_keys_and_notes_per_guest(tmp_path):
    patch = tmp_path / "0001.patch"
    patch.write_text("diff\n")
    x86, s390x = guests.GUESTS["x86_64"], guests.GUESTS["s390x"]
    assert run.kernel_key("F", [patch]) == run.kernel_key("F", [patch], x86)
    assert run.kernel_key("F", [patch], s390x) != run.kernel_key("F", [patch], x86)
    # one fragment, one series, two trees: two kernels
    assert (run.kernel_key("F", [patch], x86, "/src/linux-source-6.12")
            != run.kernel_key("F", [patch], x86, "/src/linux-source-7.2"))
    # the message does not make the kernel; the diff does
    mail = tmp_path / "0002.patch"
    mail.write_text("Subject: x\n\nTested in QEMU: ...\n---\ndiff --git a/f b/f\n-a\n+b\n")
    key = run.kernel_key("F", [mail])
    mail.write_text("Subject: x\n\nreworded\n---\ndiff --git a/f b/f\n-a\n+b\n")
    assert run.kernel_key("F", [mail]) == key
    mail.write_text("Subject: x\n\nreworded\n---\ndiff --git a/f b/f\n-a\n+c\n")
    assert run.kernel_key("F", [mail]) != key
    assert run.guest_note(x86, 3, "every series").startswith(
        "One x86_64 kernel (tinyconfig + selftests/audit/config + the drivers of 3 series")
    note = run.guest_note(s390x, 3, "the s390-architecture series")
    assert "One s390x kernel (tinyconfig + selftests/audit/config-s390x" in note
    assert "s390-ccw-virtio" in note and "audit.tsv as [s390x] TARGET" in note
    assert "the probe ran native on" in note
    # sparc64 runs the probe -m32 too: AUDIT.md says so
    assert "the probe ran native and -m32 on" in run.guest_note(guests.GUESTS["sparc64"], 3, "x")


def test_a_missing_cross_tool_is_one_line(monkeypatch):
    monkeypatch.setattr(run.shutil, "which", lambda tool: None if "s390x" in tool else "/bin/x")
    with pytest.raises(run.UsageError, match=r"^s390x-linux-gnu-gcc is missing for the s390x guest "
                                             r"\(Debian packages: qemu-system-misc gcc-s390x"):
        run.check_tools(guests.GUESTS["s390x"])


def test_the_sparc64_rows_make_their_nodes_with_one_boot_command():
    """Each sparc64 row of the committed table that needs a node OpenBIOS
    lacks carries the same boot command (any series alone still gets
    it); QEMU gets it once."""
    everything = table.load()
    names = [g.name for g in run.active_guests(everything, {"drivers/watchdog/riowd.c",
                                                            "drivers/char/random.c"})]
    assert names == ["x86_64", "sparc64"]
    rows = table.of_guest(everything, "sparc64")
    sparc = guests.GUESTS["sparc64"]
    qemu, cmdline, setups = run.guest_options(rows, sorted(rows))
    assert qemu[::2] == ["-prom-env"] and not cmdline and not setups
    command = qemu[1]
    assert command.startswith("boot-command=dev /pci@1fe,0/pci@1,1/ebus@1 ")
    assert command.endswith(" device-end boot")
    for node in ('" pmc"', '" i2c"', '" watchdog"', '" cpwd-irq"'):
        assert f"new-device {node} device-name" in command
    alone, _, _ = run.guest_options(rows, ["drivers/watchdog/riowd.c"])
    assert alone == qemu
    assert run.guest_options(rows, ["drivers/sbus/char/openprom.c"])[0] == []
    assert run.probe_args(rows, sorted(rows), sparc.controls) == [
        "/dev/envctrl", "/dev/openprom", "/dev/RIC", "/dev/XIR", "/dev/POR", "/dev/watchdog",
        "/dev/rtc0"]
