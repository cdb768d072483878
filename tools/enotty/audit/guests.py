"""The audit's QEMU guests: one architecture each, each one more boot pair.

A guest is what it takes to build and boot one architecture's audit
kernel and run the probe in it.  The runner (enotty.audit.run) does the
same for each: the kernel is tinyconfig + the guest's base fragment + the
drivers of its instantiate.tsv rows (`audit` for x86_64, `audit:NAME`
for another guest), built pristine and patched, both booted, the probe's
answers compared; every guest's rows land in the same audit.tsv.  A
guest boots when a series of the version folder touches a file one of its
rows audits (x86_64 also when no guest has one, as before there were
others).

x86_64 runs guest-init.sh under busybox, the probe native and -m32, and
the in-tree kselftests; its audit.tsv targets are the probe's names as
they are.  A guest of another architecture has no busybox (Debian ships
busybox-static for the host only): its /init is guest-init.c, built static
with the Debian cross C library like the probe; it runs no setup steps and
no kselftests, and gives the probe the targets of its own rows (and its
controls) by name.  Its audit.tsv targets carry its name
(`[s390x] /dev/clp`): the same file, column for column, and no row of one
guest can collide with another's.

A new guest plugs in here: one Guest in GUESTS, its base fragment
selftests/audit/config-NAME, its Debian packages in
enotty.packages.NEEDS["audit"] (guests_test checks), and `audit:NAME`
rows in instantiate.tsv; when the tree does not build for its
architecture as it is, the fix as a patch in Guest.tree_fixes (applied to
both of its kernels).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..kernel import build
from . import DATA

DEFAULT = "x86_64"


@dataclass(frozen=True)
class Guest:
    name: str                     # instantiate.tsv's audit:NAME; audit.tsv's target prefix
    srcarch: str                  # the arch/ folder whose Kconfig the plan reads
    make_args: tuple[str, ...]    # kbuild's ARCH=, CROSS_COMPILE=, CC=
    image: str                    # the bootable image kbuild leaves in the build folder
    fragment: Path                # the base fragment merged on top of tinyconfig
    qemu: str                     # qemu-system-* binary
    machine: str                  # its -M
    console: str                  # the kernel's console= device (QEMU's first serial port)
    debug_exit: bool              # isa-debug-exit ends the boot (x86); else a power-off
    probes: tuple[str, ...]       # the probe builds: ioctl_probe (native), ioctl_probe_32 (-m32);
                                  # the first runs in the guest's own ABI
    busybox: bool                 # guest-init.sh under busybox; else the static guest-init.c
    packages: tuple[str, ...]     # the Debian packages its build and boot need
    memory: str = "1G"
    # Flags of the guest's C compiler for its /init (-m32 for i386); the
    # probe's Makefile chooses its own for each of its builds.
    cflags: tuple[str, ...] = ()
    # Targets the probe always gets in this guest: untouched handlers,
    # whose answers must not change (x86_64 probes everything anyway).
    controls: tuple[str, ...] = ()
    # What kbuild makes: the image, and the device tree blob if there is one.
    make_targets: tuple[str, ...] = ("bzImage",)
    # The device tree QEMU hands the kernel (-dtb), relative to the build
    # folder; "" when the firmware describes the machine itself.
    dtb: str = ""
    # /init restarts the machine instead of powering it off: the machine
    # has no power-off Linux can reach (ASPEED); QEMU runs with -no-reboot
    # and exits on the reset the watchdog makes.
    restart: bool = False
    # QEMU's -smp: the AST2600 machines refuse fewer than 2 CPUs (the
    # kernel has no SMP; the second stays in the boot loader).
    cpus: int = 1
    # Patches applied to both of the guest's kernels, before the series:
    # what the tree needs to build for the guest's architecture at all
    # (sparc64: 6.12.118's fs/fcntl.c).  Part of both kernels' keys.
    tree_fixes: tuple[Path, ...] = ()

    @property
    def cc(self) -> str:
        """The C compiler of the guest's programs (probe, init): the
        kernel's, CROSS_COMPILE's gcc."""
        cross = [a.partition("=")[2] for a in self.make_args if a.startswith("CROSS_COMPILE=")]
        return f"{cross[0] if cross else ''}gcc"

    @property
    def prefix(self) -> str:
        """What audit.tsv puts before the probe's target names."""
        return "" if self.name == DEFAULT else f"[{self.name}] "

    @property
    def kselftests(self) -> bool:
        """The in-tree kselftests are built for, and run in, x86_64 only."""
        return self.name == DEFAULT


def cross_make_args(arch: str, cross: str) -> tuple[str, ...]:
    """kbuild's arguments for ARCH=arch with Debian's cross compiler cross*."""
    return (f"ARCH={arch}", f"CROSS_COMPILE={cross}", f"CC=ccache {cross}gcc")


GUESTS: dict[str, Guest] = {g.name: g for g in (
    Guest(name="x86_64", srcarch="x86", make_args=build.X86_64, image="arch/x86/boot/bzImage",
          fragment=DATA / "config", qemu="qemu-system-x86_64", machine="pc", console="ttyS0",
          debug_exit=True, probes=("ioctl_probe", "ioctl_probe_32"), busybox=True,
          packages=("qemu-system-x86", "busybox-static", "gcc-12-multilib")),
    # s390x: /dev/clp (arch/s390/pci/pci_clp.c, a misc device registered at
    # boot with CONFIG_PCI, no PCI function needed) and /dev/z90crypt (the
    # control: zcrypt registers it without AP cards).  The SCLP VT220
    # console (ttysclp0) is QEMU's first serial port; Linux powers the machine off
    # by stopping every CPU, and QEMU then exits.  No -m31 probe: Debian
    # has no 31-bit s390 C library.
    Guest(name="s390x", srcarch="s390",
          make_args=cross_make_args("s390", "s390x-linux-gnu-"),
          image="arch/s390/boot/bzImage", fragment=DATA / "config-s390x",
          qemu="qemu-system-s390x", machine="s390-ccw-virtio", console="ttysclp0",
          debug_exit=False, probes=("ioctl_probe",), busybox=False,
          packages=("qemu-system-misc", "gcc-s390x-linux-gnu", "libc6-dev-s390x-cross"),
          memory="512M", controls=("/dev/z90crypt",)),
    # ppc: a 32-bit PowerMac (mac99) with the PMU, booted by QEMU's
    # OpenBIOS (vmlinux, an ELF, through the kernel's prom_init): the PMU
    # (via-pmu.c, /dev/pmu: the untouched control), APM emulation on top
    # of it (/dev/apm_bios) and the ANS LCD of an Apple Network Server
    # (/dev/anslcd, a "gc/lcd" node its row's -prom-env makes in the
    # firmware's device tree).  The console is the ESCC's first channel
    # (pmac_zilog, ttyPZ0); power-off goes through the PMU.
    Guest(name="ppc", srcarch="powerpc",
          make_args=cross_make_args("powerpc", "powerpc-linux-gnu-"),
          image="vmlinux", make_targets=("vmlinux",), fragment=DATA / "config-ppc",
          qemu="qemu-system-ppc", machine="mac99,via=pmu", console="ttyPZ0",
          debug_exit=False, probes=("ioctl_probe",), busybox=False,
          packages=("qemu-system-ppc", "gcc-powerpc-linux-gnu", "libc6-dev-powerpc-cross"),
          memory="512M", controls=("/dev/pmu",)),
    # arm: an ASPEED AST2600 BMC (IBM Rainier, Cortex-A7: Debian's armhf
    # C library needs ARMv7), its board device tree from the kernel tree,
    # which enables the iBT (/dev/ipmi-bt-host) and two KCS channels
    # (/dev/ipmi-kcs2, /dev/ipmi-kcs3) and the LPC control
    # (/dev/aspeed-lpc-ctrl, the untouched control).  The console is UART5
    # (ttyS0: Rainier's tree has no serial alias); the machine has no
    # power-off Linux reaches, /init restarts it through the watchdog.
    Guest(name="arm", srcarch="arm",
          make_args=cross_make_args("arm", "arm-linux-gnueabihf-"),
          image="arch/arm/boot/zImage",
          make_targets=("zImage", "aspeed/aspeed-bmc-ibm-rainier.dtb"),
          dtb="arch/arm/boot/dts/aspeed/aspeed-bmc-ibm-rainier.dtb",
          fragment=DATA / "config-arm", qemu="qemu-system-arm", machine="rainier-bmc",
          console="ttyS0", debug_exit=False,
          probes=("ioctl_probe",), busybox=False,
          packages=("qemu-system-arm", "gcc-arm-linux-gnueabihf", "libc6-dev-armhf-cross"),
          controls=("/dev/aspeed-lpc-ctrl",), restart=True, cpus=2),
    # powernv: an OpenPOWER host, POWER9 (QEMU's powernv9) with the skiboot
    # (OPAL) firmware QEMU ships, which loads vmlinux (an ELF) and hands it
    # its device tree.  skiboot's QEMU platform is an AST2500 BMC board:
    # astbmc_early_init() calls prd_init(), which adds
    # /ibm,opal/diagnostics ("ibm,opal-prd"), so opal-prd.c registers
    # /dev/opal-prd; OPAL's RTC (rtc-opal, /dev/rtc0, the RTC core) is the
    # untouched control.  A 64-bit little-endian kernel: Debian's ppc64el C
    # library.  The console is OPAL's (hvc0), which skiboot writes to QEMU's
    # first serial port; Linux powers off through OPAL (skiboot asks the
    # machine's IPMI BMC simulator) and QEMU exits.
    Guest(name="powernv", srcarch="powerpc",
          make_args=cross_make_args("powerpc", "powerpc64le-linux-gnu-"),
          image="vmlinux", make_targets=("vmlinux",), fragment=DATA / "config-powernv",
          qemu="qemu-system-ppc64", machine="powernv9", console="hvc0",
          debug_exit=False, probes=("ioctl_probe",), busybox=False,
          packages=("qemu-system-ppc", "gcc-powerpc64le-linux-gnu", "libc6-dev-ppc64el-cross"),
          controls=("/dev/rtc0",)),
    # i386: the X86_32-only drivers (sonypi, the ISA sound cards behind the
    # OSS sequencer).  QEMU's pc machine with a 32-bit kernel; the host gcc
    # builds both programs with -m32 (gcc-12-multilib's libc6-dev-i386, as
    # for x86_64's ioctl_probe_32, which is here the native probe: uname
    # says i686, so it reports its ABI as native).  -m32 finds the uapi
    # <asm/...> headers, which serve both ABIs, after the multiarch folder
    # (the link gcc-multilib would make in /usr/include).  guest-init.c
    # ends the boot with reboot(RB_POWER_OFF): ACPI (in config-i386) powers
    # the machine off, and QEMU exits under -no-reboot.
    Guest(name="i386", srcarch="x86", make_args=("ARCH=i386", "CC=ccache gcc"),
          image="arch/x86/boot/bzImage", fragment=DATA / "config-i386",
          qemu="qemu-system-i386", machine="pc", console="ttyS0",
          debug_exit=False, probes=("ioctl_probe_32",), busybox=False,
          packages=("qemu-system-x86", "gcc-12-multilib"), memory="512M",
          cflags=("-m32", "-idirafter", "/usr/include/x86_64-linux-gnu")),
    # sparc64: a sun4u (UltraSPARC IIi) booted by QEMU's OpenBIOS, which
    # loads the stripped ELF kbuild leaves as arch/sparc/boot/image.
    # /dev/openprom registers on any OpenFirmware machine; the watchdogs
    # (riowd's "pmc", cpwd's "watchdog") and envctrl's "i2c" are nodes the
    # rows' -prom-env boot command makes under the ebus.  /dev/rtc0 (the
    # ebus MK48T59 through rtc-m48t59: the RTC core, untouched) is the
    # control.  The console is the ebus 16550 (sunsu, ttyS0); the kernel
    # powers off through the PROM (SUNW,power-off) and QEMU exits.  The
    # probe also runs -m32 (Debian's 32-bit SPARC C library for the
    # sparc64 cross compiler): the kernel's compat ioctl paths.
    Guest(name="sparc64", srcarch="sparc",
          make_args=cross_make_args("sparc", "sparc64-linux-gnu-"),
          image="arch/sparc/boot/image", make_targets=("image",),
          fragment=DATA / "config-sparc64", qemu="qemu-system-sparc64", machine="sun4u",
          console="ttyS0", debug_exit=False, probes=("ioctl_probe", "ioctl_probe_32"),
          busybox=False,
          packages=("qemu-system-sparc", "gcc-sparc64-linux-gnu", "libc6-dev-sparc64-cross",
                    "libc6-dev-sparc-sparc64-cross", "lib32gcc-12-dev-sparc64-cross"),
          memory="512M", controls=("/dev/rtc0",),
          tree_fixes=(DATA / "tree-fix-sparc64-fcntl.patch",)),
)}


def by_name(name: str) -> Guest:
    """The guest called name; KeyError names the known ones."""
    try:
        return GUESTS[name]
    except KeyError:
        raise KeyError(f"unknown guest {name!r} (known: {', '.join(GUESTS)})") from None
