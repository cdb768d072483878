"""guests: each guest's kernel build, QEMU command line and packages."""
from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pytest

from enotty import packages
from enotty.audit import guests, run, table
from enotty.kernel import tree
from enotty.kernel.build import TinyKernel
from enotty.kernel.worktree import patched_contents


def test_every_guest_has_its_fragment_and_its_packages_in_make_audit():
    for guest in guests.GUESTS.values():
        assert guest.fragment.is_file(), guest.fragment
        assert set(guest.packages) <= set(packages.NEEDS["audit"]), guest.name
        # The first probe build runs in the guest's own ABI.
        assert guest.probes and set(guest.probes) <= {"ioctl_probe", "ioctl_probe_32"}
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
    assert s390x.prefix == "[s390x] " and not s390x.kselftests and not s390x.busybox
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


def test_i386_boots_a_32_bit_kernel_on_pc_and_powers_off():
    i386 = guests.by_name("i386")
    argv = run.qemu_config(Path("K"), Path("I"), Path("C"), ["-device", "adlib"], [], i386).argv()
    assert argv[:3] == ["qemu-system-i386", "-M", "pc"]
    assert "isa-debug-exit,iobase=0xf4,iosize=0x04" not in argv and "-no-reboot" in argv
    assert argv[argv.index("-append") + 1] == "console=ttyS0 loglevel=5 panic=-1 rdinit=/init"
    assert argv[-2:] == ["-device", "adlib"]
    assert i386.make_args == ("ARCH=i386", "CC=ccache gcc") and i386.srcarch == "x86"
    assert i386.prefix == "[i386] " and not i386.kselftests and not i386.busybox
    # The -m32 build is the native one on a 32-bit kernel.
    assert i386.probes == ("ioctl_probe_32",)
    assert "CONFIG_ACPI=y" in i386.fragment.read_text().splitlines()


def test_i386_programs_are_built_with_m32(tmp_path: Path, monkeypatch):
    seen = []

    def fake_run(argv, log, env=None, what=""):
        seen.append(argv)
        if argv[0] == "make":
            (tmp_path / "ioctl_probe_32").write_text("")
        else:
            Path(argv[argv.index("-o") + 1]).write_text("")
    monkeypatch.setattr(run, "run_logged", fake_run)
    init, probes = run.build_guest_programs(guests.GUESTS["i386"], tmp_path, tmp_path / "log", {})
    assert seen[0][:5] == ["ccache", "gcc", "-m32", "-idirafter", "/usr/include/x86_64-linux-gnu"]
    assert seen[0][-1].endswith("selftests/audit/guest-init.c")
    assert seen[1][-2:] == ["CC=ccache gcc", str(tmp_path / "ioctl_probe_32")]
    assert init == tmp_path / "init" and probes == [tmp_path / "ioctl_probe_32"]


def test_the_x86_32_only_rows_boot_the_i386_guest_alone():
    rows = table.load()
    assert [g.name for g in run.active_guests(rows, {"drivers/char/sonypi.c"})] == ["i386"]
    assert [g.name for g in run.active_guests(rows, {"sound/drivers/opl3/opl3_oss.c",
                                                     "drivers/char/ppdev.c"})] == ["x86_64", "i386"]
    assert [t.glob for t in rows["sound/drivers/opl3/opl3_oss.c"].targets] == ["/dev/sequencer", "/dev/sequencer2"]


def test_by_name_names_the_known_guests():
    try:
        guests.by_name("vax")
    except KeyError as err:
        assert "unknown guest 'vax' (known: x86_64, s390x" in str(err)
    else:
        raise AssertionError("no KeyError")


def test_ppc_boots_a_powermac_with_the_pmu_and_powers_off():
    ppc = guests.by_name("ppc")
    argv = run.qemu_config(Path("K"), Path("I"), Path("C"), [], [], ppc).argv()
    assert argv[:5] == ["qemu-system-ppc", "-M", "mac99,via=pmu", "-m", "512M"]
    assert argv[argv.index("-smp") + 1] == "1" and "-dtb" not in argv
    assert "isa-debug-exit,iobase=0xf4,iosize=0x04" not in argv and "-no-reboot" in argv
    assert argv[argv.index("-append") + 1] == "console=ttyPZ0 loglevel=5 panic=-1 rdinit=/init"
    assert ppc.make_targets == ("vmlinux",) and ppc.image == "vmlinux" and not ppc.restart
    assert ppc.prefix == "[ppc] " and ppc.probes == ("ioctl_probe",) and not ppc.busybox


def test_arm_boots_its_board_device_tree_on_two_cpus_and_restarts():
    arm = guests.by_name("arm")
    image = Path("images") / "k" / "bzImage"
    argv = run.qemu_config(image, Path("I"), Path("C"), ["-x"], [], arm).argv()
    assert argv[:3] == ["qemu-system-arm", "-M", "rainier-bmc"]
    assert argv[argv.index("-smp") + 1] == "2"
    # the blob kept beside the image, before the rows' own options
    assert argv[-3:] == ["-dtb", str(Path("images") / "k" / run.DTB_NAME), "-x"]
    assert argv[argv.index("-append") + 1] == "console=ttyS0 loglevel=5 panic=-1 rdinit=/init"
    assert arm.dtb.endswith(".dtb") and arm.dtb.rsplit("/", 1)[1] in " ".join(arm.make_targets)
    assert arm.restart and arm.prefix == "[arm] "


def test_a_kept_kernel_holds_the_guests_device_tree(tmp_path: Path, monkeypatch):
    """build_kernel() makes the guest's targets and keeps the blob beside
    the image; a guest without one keeps the image alone."""
    arm = guests.by_name("arm")
    made = []
    kernel = TinyKernel(source=tmp_path, build=tmp_path / "b", log=tmp_path / "log",
                        ccache=tmp_path / "cc", make_args=arm.make_args, image=arm.image)

    def fake_make(*targets):
        made.append(targets)
        for rel, data in ((arm.image, b"zImage"), (arm.dtb, b"dtb")):
            (kernel.build / rel).parent.mkdir(parents=True, exist_ok=True)
            (kernel.build / rel).write_bytes(data)
    monkeypatch.setattr(TinyKernel, "make", lambda self, *targets: fake_make(*targets))

    class Tree:
        @staticmethod
        def apply(patches):
            return []
    tree = cast(Any, Tree())      # the work tree: nothing to switch
    image, built = run.build_kernel(tree, kernel, tmp_path / "images", "k1", [], arm)
    assert built and made == [arm.make_targets]
    assert image.read_bytes() == b"zImage" and image.with_name(run.DTB_NAME).read_bytes() == b"dtb"
    image, built = run.build_kernel(tree, kernel, tmp_path / "images", "k2", [], guests.by_name("ppc"))
    assert built and made[-1] == ("vmlinux",) and not image.with_name(run.DTB_NAME).exists()


def test_sparc64_boots_a_sun4u_through_openbios_and_powers_off(tmp_path: Path, monkeypatch):
    sparc = guests.by_name("sparc64")
    argv = run.qemu_config(Path("K"), Path("I"), Path("C"), [], [], sparc).argv()
    assert argv[:5] == ["qemu-system-sparc64", "-M", "sun4u", "-m", "512M"]
    assert argv[argv.index("-kernel") + 1] == "K" and "-dtb" not in argv
    assert "isa-debug-exit,iobase=0xf4,iosize=0x04" not in argv and "-no-reboot" in argv
    assert argv[argv.index("-append") + 1] == "console=ttyS0 loglevel=5 panic=-1 rdinit=/init"
    # the only cross guest with a compat ABI (and a Debian C library for it)
    assert not sparc.restart and not sparc.busybox
    assert sparc.probes == ("ioctl_probe", "ioctl_probe_32")
    assert sparc.prefix == "[sparc64] " and sparc.controls == ("/dev/rtc0",)
    assert sparc.cc == "sparc64-linux-gnu-gcc"
    # kbuild's sparc64 is ARCH=sparc with 64BIT (the fragment says so:
    # tinyconfig alone would make a 32-bit kernel); OpenBIOS loads the
    # stripped ELF `make image` leaves.
    assert "CONFIG_64BIT=y" in sparc.fragment.read_text().splitlines()
    seen = []
    monkeypatch.setattr("enotty.kernel.build.run_logged", lambda argv, log, env=None: seen.append(argv))
    kernel = TinyKernel(source=tmp_path, build=tmp_path / "b", log=tmp_path / "log",
                        ccache=tmp_path / "cc", jobs=2, make_args=sparc.make_args, image=sparc.image)
    kernel.make(*sparc.make_targets)
    assert seen == [["make", "-s", "-C", str(tmp_path), f"O={tmp_path / 'b'}", "ARCH=sparc",
                     "CROSS_COMPILE=sparc64-linux-gnu-", "CC=ccache sparc64-linux-gnu-gcc", "-j2",
                     "image"]]
    assert kernel.bzimage == tmp_path / "b" / "arch" / "sparc" / "boot" / "image"
    assert {"qemu-system-sparc", "gcc-sparc64-linux-gnu", "libc6-dev-sparc64-cross",
            "libc6-dev-sparc-sparc64-cross", "lib32gcc-12-dev-sparc64-cross"} \
        <= set(packages.NEEDS["audit"])


def test_the_sparc64_tree_fix_applies_and_changes_only_fcntls_check():
    """6.12.118 does not build for sparc (FMODE_NONOTIFY is sparc's
    __O_TMPFILE bit): both sparc64 kernels carry the fix, the others none."""
    sparc = guests.by_name("sparc64")
    assert [p.name for p in sparc.tree_fixes] == ["tree-fix-sparc64-fcntl.patch"]
    assert all(not g.tree_fixes for g in guests.GUESTS.values() if g is not sparc)
    root = tree.resolve(None, need_kernel=True, kver="6.12")
    files = patched_contents(root, list(sparc.tree_fixes))
    assert list(files) == ["fs/fcntl.c"]
    before = (root / "fs/fcntl.c").read_text().splitlines()
    fixed = files["fs/fcntl.c"]
    assert fixed is not None
    after = fixed.decode().splitlines()
    changed = [(a, b) for a, b in zip(before, after) if a != b]
    assert len(before) == len(after) and changed == [
        ("\tBUILD_BUG_ON(21 - 1 /* for O_RDONLY being 0 */ !=",
         "\tBUILD_BUG_ON(20 - 1 /* for O_RDONLY being 0 */ !="),
        ("\t\t\t__FMODE_EXEC | __FMODE_NONOTIFY));", "\t\t\t__FMODE_EXEC));")]


def test_powernv_boots_a_power9_host_under_skiboot_and_powers_off():
    powernv = guests.by_name("powernv")
    argv = run.qemu_config(Path("K"), Path("I"), Path("C"), [], [], powernv).argv()
    # QEMU's powernv machines refuse less than 1G.
    assert argv[:5] == ["qemu-system-ppc64", "-M", "powernv9", "-m", "1G"]
    assert argv[argv.index("-smp") + 1] == "1" and "-dtb" not in argv and "-bios" not in argv
    assert "isa-debug-exit,iobase=0xf4,iosize=0x04" not in argv and "-no-reboot" in argv
    assert argv[argv.index("-append") + 1] == "console=hvc0 loglevel=5 panic=-1 rdinit=/init"
    assert powernv.make_args == ("ARCH=powerpc", "CROSS_COMPILE=powerpc64le-linux-gnu-",
                                 "CC=ccache powerpc64le-linux-gnu-gcc")
    assert powernv.cc == "powerpc64le-linux-gnu-gcc" and powernv.srcarch == "powerpc"
    assert powernv.make_targets == ("vmlinux",) and powernv.image == "vmlinux"
    assert not powernv.restart and not powernv.busybox and not powernv.kselftests
    assert powernv.prefix == "[powernv] " and powernv.probes == ("ioctl_probe",)
    assert powernv.controls == ("/dev/rtc0",)
    assert {"qemu-system-ppc", "gcc-powerpc64le-linux-gnu", "libc6-dev-ppc64el-cross"} \
        <= set(packages.NEEDS["audit"])
    lines = powernv.fragment.read_text().splitlines()
    for option in ("CONFIG_PPC64=y", "CONFIG_CPU_LITTLE_ENDIAN=y", "CONFIG_PPC_POWERNV=y",
                   "CONFIG_HVC_OPAL=y", "CONFIG_RTC_DRV_OPAL=y"):
        assert option in lines, option


def test_opal_prd_boots_the_powernv_guest_alone():
    rows = table.load()
    prd = "arch/powerpc/platforms/powernv/opal-prd.c"
    assert [g.name for g in run.active_guests(rows, {prd})] == ["powernv"]
    assert [t.glob for t in rows[prd].targets] == ["/dev/opal-prd"]
    assert run.probe_args(rows, [prd], guests.by_name("powernv").controls) == \
        ["/dev/opal-prd", "/dev/rtc0"]
