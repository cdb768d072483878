"""table: parsing instantiate.tsv and matching probe targets to sources."""
from __future__ import annotations

import re

import pytest


from enotty.audit import PROBE_DIR, table
from enotty.measure import generated

HEADER = "# comment\n\n"


def row(*cells: str) -> str:
    return "\t".join(cells) + "\n"


def test_parse_audit_and_skip_rows():
    text = HEADER + row("drivers/block/floppy.c", "audit", "-", "-drive if=floppy", "-", "-",
                        "/dev/fd0", "floppy") \
        + row("drivers/gpio/gpiolib-cdev.c", "audit", "CONFIG_GPIO_SIM GPIO_CDEV_V1", "-", "x=1",
              "gpiosim,other", "/dev/gpiochip*=gpio_ioctl gpio-linehandle:*=linehandle_ioctl",
              "gpio-sim") \
        + row("arch/sparc/kernel/apc.c", "skip", "-", "-", "-", "-", "-", "sparc")
    rows = table.parse_table(text)
    fd = rows["drivers/block/floppy.c"]
    assert fd.audit and fd.qemu == ("-drive", "if=floppy") and fd.setup == ()
    gpio = rows["drivers/gpio/gpiolib-cdev.c"]
    assert gpio.config == ("GPIO_SIM", "GPIO_CDEV_V1")
    assert gpio.setup == ("gpiosim", "other") and gpio.cmdline == ("x=1",)
    assert [p.function for p in gpio.targets] == ["gpio_ioctl", "linehandle_ioctl"]
    assert not rows["arch/sparc/kernel/apc.c"].audit


def test_qemu_column_is_split_like_a_shell():
    text = HEADER + row("drivers/platform/x86/sony-laptop.c", "audit", "-",
                        "-smbios 'type=1,manufacturer=Sony Corporation' -acpitable file=@ACPI/x",
                        "-", "-", "/dev/sonypi", "an SMBIOS vendor with a space")
    rows = table.parse_table(text)
    assert rows["drivers/platform/x86/sony-laptop.c"].qemu == (
        "-smbios", "type=1,manufacturer=Sony Corporation", "-acpitable", "file=@ACPI/x")


def test_qemu_column_unbalanced_quote():
    text = HEADER + row("a.c", "audit", "-", "-smbios 'type=1", "-", "-", "/dev/x", "r")
    with pytest.raises(table.TableError, match="qemu: No closing quotation"):
        table.parse_table(text)


def test_the_how_column_names_the_guest():
    rows = table.parse_table(
        row("drivers/char/random.c", "audit", "-", "-", "-", "-", "/dev/random", "r")
        + row("arch/s390/pci/pci_clp.c", "audit:s390x", "-", "-", "-", "-", "/dev/clp", "r")
        + row("arch/sparc/kernel/apc.c", "skip", "-", "-", "-", "-", "-", "sparc"))
    assert rows["drivers/char/random.c"].guest == "x86_64"
    clp = rows["arch/s390/pci/pci_clp.c"]
    assert clp.audit and clp.guest == "s390x"
    assert rows["arch/sparc/kernel/apc.c"].guest == ""
    assert list(table.of_guest(rows, "s390x")) == ["arch/s390/pci/pci_clp.c"]
    assert list(table.of_guest(rows, "x86_64")) == ["drivers/char/random.c"]
    # A guest's rows only match in that guest's boots.
    assert table.source_for(table.of_guest(rows, "x86_64"), "/dev/clp", None) is None


@pytest.mark.parametrize("line,message", [
    (row("a.c", "audit", "-", "-", "-", "-", "/dev/x"), "7 columns"),
    (row("a.c", "maybe", "-", "-", "-", "-", "/dev/x", "r"), "how is 'maybe'"),
    (row("a.c", "audit:vax", "-", "-", "-", "-", "/dev/x", "r"),
     r"how is 'audit:vax', expected audit, audit:GUEST \(x86_64, s390x"),
    (row("a.c", "skip:s390x", "-", "-", "-", "-", "-", "r"), "how is 'skip:s390x'"),
    (row("a.c", "audit", "-", "-", "-", "-", "-", "r"), "names no target"),
    (row("a.c", "skip", "-", "-", "-", "-", "-", "-"), "needs a reason"),
    (row("a.c", "audit", "-", "-", "-", "-", "=f", "r"), "empty target pattern"),
])
def test_malformed_rows_name_the_line(line, message):
    with pytest.raises(table.TableError, match=message) as err:
        table.parse_table(HEADER + line, "t.tsv")
    assert "t.tsv:3" in str(err.value)


def test_duplicate_source_is_an_error():
    line = row("a.c", "skip", "-", "-", "-", "-", "-", "r")
    with pytest.raises(table.TableError, match="has a row already"):
        table.parse_table(line + line)


def test_target_matching_by_glob_and_driver():
    rows = table.parse_table(
        row("vivid-osd.c", "audit", "-", "-", "-", "-", "/dev/fb*@vivid", "r")
        + row("aty128fb.c", "audit", "-", "-", "-", "-", "/dev/fb*@aty128fb", "r")
        + row("userfaultfd.c", "audit", "-", "-", "-", "-",
              "userfaultfd:*=userfaultfd_ioctl /dev/userfaultfd=userfaultfd_dev_ioctl", "r")
        + row("skipped.c", "skip", "-", "-", "-", "-", "/dev/fb*", "r"))
    assert table.source_for(rows, "/dev/fb0", "vivid") == ("vivid-osd.c", None)
    assert table.source_for(rows, "/dev/fb1", "aty128fb") == ("aty128fb.c", None)
    assert table.source_for(rows, "/dev/fb2", "radeonfb") is None
    nodriver = table.parse_table(row("v.c", "audit", "-", "-", "-", "-", "/dev/fb*@-", "r"))
    assert table.source_for(nodriver, "/dev/fb2", None) == ("v.c", None)
    assert table.source_for(nodriver, "/dev/fb0", "aty128fb") is None
    assert table.source_for(rows, "/dev/fb2", None) is None
    assert table.source_for(rows, "/dev/userfaultfd", None) == (
        "userfaultfd.c", "userfaultfd_dev_ioctl")
    assert table.source_for(rows, "userfaultfd:0", None) == ("userfaultfd.c", "userfaultfd_ioctl")


def test_committed_table_parses_and_every_audited_row_has_a_target():
    rows = table.load()
    audited = [r for r in rows.values() if r.audit]
    assert len(audited) >= 40
    assert all(r.targets for r in audited)
    assert rows["arch/s390/pci/pci_clp.c"].guest == "s390x"
    assert rows["drivers/block/floppy.c"].guest == "x86_64"
    assert all(r.reason for r in rows.values())


def test_targets_marked_with_a_bang_are_named_to_the_probe():
    rows = table.parse_table(
        row("ipmi_watchdog.c", "audit", "-", "-", "-", "-", "!/dev/watchdog", "r")
        + row("root.c", "audit", "-", "-", "-", "-", "!dir:/autofs", "r")
        + row("floppy.c", "audit", "-", "-", "-", "-", "/dev/fd0", "r"))
    assert table.explicit_targets(rows, list(rows)) == ["/dev/watchdog", "dir:/autofs"]
    assert table.explicit_targets(rows, ["floppy.c"]) == []
    assert table.source_for(rows, "dir:/autofs", None) == ("root.c", None)


def test_setup_steps_in_the_targets_column():
    rows = table.parse_table(
        "fs/userfaultfd.c\taudit\t-\t-\t-\t-\tuserfaultfd:*=userfaultfd_ioctl+uffdio_api "
        "/dev/userfaultfd\tuffd\n"
        "lib/test_hmm.c\taudit\t-\t-\t-\t-\t!/dev/hmm_dmirror0+hmm_range\thmm\n")
    uffd = rows["fs/userfaultfd.c"].targets
    assert (uffd[0].glob, uffd[0].function, uffd[0].setup) == (
        "userfaultfd:*", "userfaultfd_ioctl", "uffdio_api")
    assert uffd[1].setup is None
    hmm = rows["lib/test_hmm.c"].targets[0]
    assert hmm.named and hmm.glob == "/dev/hmm_dmirror0" and hmm.setup == "hmm_range"
    assert table.probe_setups(rows, list(rows)) == [
        "userfaultfd:*=uffdio_api", "/dev/hmm_dmirror0=hmm_range"]
    with pytest.raises(table.TableError, match="unknown setup step 'claim'"):
        table.parse_table("drivers/char/ppdev.c\taudit\t-\t-\t-\t-\t/dev/parport0+claim\tp\n")


def test_setup_steps_are_the_probes():
    source = (PROBE_DIR / "ioctl_probe.c").read_text()
    steps = source[source.index("setup_steps[] = {"):]
    steps = steps[:steps.index("};")]
    assert tuple(re.findall(r'\{ "(\w+)"', steps)) == table.SETUP_STEPS


def test_exceptions_need_a_reason_and_known_classes():
    assert table.load_exceptions() is not None  # the committed file parses
    with pytest.raises(table.TableError, match="needs a reason"):
        table.parse_exceptions("a.c\t/dev/x\town\tnative\t-\n")
    with pytest.raises(table.TableError, match="check is 'unlikely'"):
        table.parse_exceptions("a.c\t/dev/x\tunlikely\tnative\twhy\n")


@pytest.mark.parametrize("output", generated.committed_outputs(), ids=lambda p: p.name)
def test_every_committed_patched_source_file_has_a_row(output):
    """AUDIT.md says of every patched source file how it is reached or
    what hardware it needs: that needs a row here (a missing row reads
    "not in instantiate.tsv", which tells a reader nothing)."""
    rows = table.load()
    committed = sorted(output.glob("*/*.patch"))
    touched = {m for p in committed
               for m in re.findall(r"^\+\+\+ b/(\S+\.c)$", p.read_text(), re.M)
               if not m.startswith("tools/testing/")}   # the companion kselftest
    assert committed and touched
    assert sorted(touched - set(rows)) == []
