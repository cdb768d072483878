"""guests: each guest's kernel build, QEMU command line and packages."""
from __future__ import annotations

from pathlib import Path

from enotty import packages
from enotty.audit import guests, run
from enotty.kernel.build import TinyKernel


def test_every_guest_has_its_fragment_and_its_packages_in_make_audit():
    for guest in guests.GUESTS.values():
        assert guest.fragment.is_file(), guest.fragment
        assert set(guest.packages) <= set(packages.NEEDS["audit"]), guest.name
        assert guest.probes[0] == "ioctl_probe"
    assert guests.DEFAULT in guests.GUESTS


def test_x86_64_is_the_boot_it_was(tmp_path: Path):
    """The default guest's argv (part of every kept boot's key) and kernel
    key do not depend on the other guests."""
    x86 = guests.GUESTS["x86_64"]
    argv = run.qemu_config(Path("K"), Path("I"), Path("C"), ["-parallel", "null"], ["a=1"], x86).argv()
    assert argv == ["qemu-system-x86_64", "-M", "pc", "-m", "1G", "-smp", "1", "-accel", "tcg",
                    "-nographic", "-no-reboot", "-monitor", "none", "-serial", "file:C",
                    "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04", "-kernel", "K", "-initrd", "I",
                    "-append", "console=ttyS0 loglevel=5 panic=-1 rdinit=/init a=1",
                    "-parallel", "null"]
    assert run.qemu_config(Path("K"), Path("I"), Path("C"), [], []).argv() == \
        run.qemu_config(Path("K"), Path("I"), Path("C"), [], [], x86).argv()
    assert x86.prefix == "" and x86.kselftests and x86.busybox


def test_s390x_boots_its_own_machine_and_powers_off():
    s390x = guests.by_name("s390x")
    argv = run.qemu_config(Path("K"), Path("I"), Path("C"), [], [], s390x).argv()
    assert argv[:3] == ["qemu-system-s390x", "-M", "s390-ccw-virtio"]
    assert "isa-debug-exit,iobase=0xf4,iosize=0x04" not in argv and "-no-reboot" in argv
    assert argv[argv.index("-append") + 1] == "console=ttysclp0 loglevel=5 panic=-1 rdinit=/init"
    assert s390x.prefix == "s390x:" and not s390x.kselftests and not s390x.busybox
    assert s390x.probes == ("ioctl_probe",)


def test_a_guest_builds_with_its_cross_compiler(tmp_path: Path, monkeypatch):
    seen = []
    monkeypatch.setattr("enotty.kernel.build.run_logged", lambda argv, log, env=None: seen.append(argv))
    s390x = guests.GUESTS["s390x"]
    kernel = TinyKernel(source=tmp_path, build=tmp_path / "b", log=tmp_path / "log",
                        ccache=tmp_path / "cc", jobs=2, make_args=s390x.make_args, image=s390x.image)
    kernel.make("bzImage")
    assert seen == [["make", "-s", "-C", str(tmp_path), f"O={tmp_path / 'b'}", "ARCH=s390",
                     "CROSS_COMPILE=s390x-linux-gnu-", "CC=ccache s390x-linux-gnu-gcc", "-j2",
                     "bzImage"]]
    assert kernel.bzimage == tmp_path / "b" / "arch" / "s390" / "boot" / "bzImage"


def test_by_name_names_the_known_guests():
    try:
        guests.by_name("vax")
    except KeyError as err:
        assert "unknown guest 'vax' (known: x86_64, s390x" in str(err)
    else:
        raise AssertionError("no KeyError")
