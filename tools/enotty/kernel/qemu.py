"""One unattended QEMU boot and what the guest printed on its console.

QemuConfig is the whole boot, typed (kunit's qemu_config): argv() is the
qemu-system-x86_64 command line (or another architecture's: binary,
machine, console), and boot() runs it with a time limit.  Kernel code only
ever runs here, in TCG (KVM only on request).  The guest's /init ends the
boot through isa-debug-exit (QEMU then exits with 1), or on a machine
without one (debug_exit=False) by powering off (-no-reboot: QEMU exits
with 0).

The guest frames each program's output with marker lines
(`MARKER BEGIN KIND NAME` ... `MARKER END KIND NAME rc=N [secs=S]`, then
`MARKER DONE`) so that kernel messages printed elsewhere on the console
are not mistaken for results; frames() reads them, trouble() finds the
kernel's panics, oopses, BUGs and WARNs.  The TAP inside a frame is read
by enotty.kernel.tap.
"""
from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

QBOOT = Path("/usr/share/qemu/qboot.rom")
# Serial console, enough log level for WARN/oops, no reboot on panic,
# the initramfs's /init.
CONSOLE = "ttyS0"
BASE_CMDLINE = (f"console={CONSOLE}", "loglevel=5", "panic=-1", "rdinit=/init")
DEBUG_EXIT = "isa-debug-exit,iobase=0xf4,iosize=0x04"


@dataclass(frozen=True)
class QemuConfig:
    """One boot of kernel with initrd (x86_64 unless binary, machine and
    console_device say otherwise); the first serial port -- the console
    the kernel is told to use -- goes to the file console."""
    kernel: Path
    initrd: Path
    console: Path
    memory: str = "512M"
    cmdline: tuple[str, ...] = ()      # kernel parameters after BASE_CMDLINE
    extra: tuple[str, ...] = ()        # devices and other options, last
    bios: Path | None = None           # used when the file exists
    kvm: bool = False
    binary: str = "qemu-system-x86_64"
    machine: str = "pc"
    console_device: str = CONSOLE      # the kernel's console= (s390x: ttysclp0)
    debug_exit: bool = True            # isa-debug-exit (x86 only)
    cpus: int = 1                      # -smp (QEMU's AST2600 machines want 2)

    def argv(self) -> list[str]:
        base = (f"console={self.console_device}", *BASE_CMDLINE[1:])
        argv = [self.binary, "-M", self.machine, "-m", self.memory, "-smp", str(self.cpus),
                "-accel", "kvm" if self.kvm else "tcg",
                "-nographic", "-no-reboot", "-monitor", "none", "-serial", f"file:{self.console}",
                *(("-device", DEBUG_EXIT) if self.debug_exit else ()),
                "-kernel", str(self.kernel), "-initrd", str(self.initrd),
                "-append", " ".join([*base, *self.cmdline])]
        if self.bios is not None and self.bios.is_file():
            argv += ["-bios", str(self.bios)]
        return argv + list(self.extra)


@dataclass(frozen=True)
class Exit:
    """How a boot ended: QEMU's exit status (None: the time limit struck)
    and what QEMU itself printed (not the guest's console)."""
    rc: int | None
    output: str = ""

    def last_line(self) -> str:
        lines = [ln for ln in self.output.strip().splitlines() if ln]
        return lines[-1] if lines else ""


def boot(config: QemuConfig, timeout: float) -> Exit:
    """Boot once, the console file written afresh."""
    config.console.unlink(missing_ok=True)
    try:
        res = subprocess.run(config.argv(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return Exit(None)
    return Exit(res.returncode, res.stdout.decode(errors="replace"))


def console_text(config: QemuConfig) -> str:
    """The console log of a boot ('' when the guest wrote none)."""
    return config.console.read_text(errors="replace") if config.console.is_file() else ""


# ---------------------------------------------------------------- the console

@dataclass
class Section:
    """One framed program run on the console."""
    kind: str
    name: str
    lines: list[str] = field(default_factory=list)
    rc: int | None = None        # None: the END marker never came
    secs: int | None = None      # how long it ran, when the END marker says


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def console_lines(text: str) -> list[str]:
    """Console text as lines, without carriage returns and colour escapes
    (v4l2-compliance colours its OK/FAIL)."""
    text = _ANSI.sub("", text.replace("\r\n", "\n"))
    return [line.rstrip("\r") for line in text.split("\n")]


def frames(text: str, marker: str) -> list[Section]:
    """The sections framed by marker, in order; an unterminated one keeps
    rc=None.  Markers are searched for, not anchored: a kernel message may
    land in front of one on the same line."""
    mark = re.compile(rf"{re.escape(marker)} (BEGIN|END) (\S+) (\S+)(?: rc=(-?\d+))?(?: secs=(\d+))?")
    out: list[Section] = []
    current: Section | None = None
    for line in console_lines(text):
        m = mark.search(line)
        if m:
            what, kind, name, rc, secs = m.groups()
            if what == "BEGIN":
                current = Section(kind, name)
                out.append(current)
            elif current is not None and (current.kind, current.name) == (kind, name):
                current.rc = int(rc) if rc is not None else None
                current.secs = int(secs) if secs is not None else None
                current = None
            continue
        if current is not None:
            current.lines.append(line)
    return out


def finished(text: str, marker: str) -> bool:
    """The guest's /init reached its end marker."""
    return f"{marker} DONE" in text


# What a kernel in trouble prints.  "WARNING:" is the WARN_ON banner.
_TROUBLE = re.compile(r"(Kernel panic|BUG:|Oops|WARNING:|general protection fault|"
                      r"Unable to handle kernel|Call Trace:)")
_TIMESTAMP = re.compile(r"^\[\s*[\d.]+\]\s*")


def trouble(text: str) -> list[str]:
    """Every console line that shows a panic, oops, BUG or WARN, without
    its timestamp (the same warning in two boots compares equal)."""
    return [_TIMESTAMP.sub("", line.strip()) for line in console_lines(text) if _TROUBLE.search(line)]
