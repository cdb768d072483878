"""ioctl_probe, built as the audit builds it, run on this host's safe targets.

Only targets that are safe on any machine are probed here (/dev/null,
/dev/zero, a pipe, an eventfd, an epoll fd, a pty, a unix socket): the
answers are the running kernel's, real errnos, no QEMU needed.  The
magic table is checked against the kernel tree's headers: an "unused"
number that some header defines would be a known command, not an unknown
one.
"""
from __future__ import annotations

import errno
import os
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest


from enotty.audit import PROBE_DIR, guests, probe_output, run
from ..kernel import tree

SAFE = ["/dev/null", "/dev/zero", "pipe:*", "eventfd:*", "epoll:*", "pty:*",
        "socket:unix/stream", "debugfs:enotty-no-such-file"]


@pytest.fixture(scope="module")
def binaries(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("ioctl_probe")
    res = subprocess.run(["make", "-s", "-C", str(PROBE_DIR), f"O={out}"],
                         capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stderr
    return {"native": out / "ioctl_probe", "compat": out / "ioctl_probe_32"}


def _probe(binary: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(binary), *args], capture_output=True, text=True,
                          timeout=120, check=False)


def _runs_here(binary: Path) -> bool:
    """Whether this host's kernel runs the binary (a kernel without
    IA32_EMULATION refuses the 32-bit one with ENOEXEC)."""
    try:
        subprocess.run([str(binary), "-h"], capture_output=True, timeout=30, check=False)
    except OSError as err:
        if err.errno == errno.ENOEXEC:
            return False
        raise
    return True


@pytest.fixture(scope="module")
def host_abis(binaries) -> list[str]:
    return [abi for abi, binary in binaries.items() if _runs_here(binary)]


def _need(host_abis: list[str], abi: str) -> None:
    if abi not in host_abis:
        pytest.skip(f"this host's kernel cannot run the {abi} probe (no IA32 emulation)")


@pytest.fixture(scope="module")
def host_runs(binaries, host_abis) -> probe_output.ProbeOutput:
    text = ""
    for abi in host_abis:
        res = _probe(binaries[abi], *SAFE)
        assert res.returncode == 0, res.stderr
        assert res.stderr == ""
        text += res.stdout
    return probe_output.parse(text)


def _elf(path: Path) -> tuple[int, bool]:
    """(32 or 64, whether it names a program interpreter) from the ELF header."""
    data = path.read_bytes()
    assert data[:4] == b"\x7fELF"
    bits = {1: 32, 2: 64}[data[4]]
    if bits == 32:
        phoff, phentsize, phnum = (struct.unpack_from("<I", data, 28)[0],
                                   *struct.unpack_from("<HH", data, 42))
    else:
        phoff, phentsize, phnum = (struct.unpack_from("<Q", data, 32)[0],
                                   *struct.unpack_from("<HH", data, 54))
    assert phentsize >= 4
    types = [struct.unpack_from("<I", data, phoff + i * phentsize)[0] for i in range(phnum)]
    return bits, 3 in types     # PT_INTERP: a dynamic program


def test_both_binaries_are_static(binaries):
    # A busybox initramfs has no dynamic loader.
    assert _elf(binaries["native"]) == (64, False)
    assert _elf(binaries["compat"]) == (32, False)


@pytest.mark.parametrize("abi", ["native", "compat"])
def test_unknown_commands_answer_enotty_where_no_handler_knows_them(host_runs, host_abis, abi):
    _need(host_abis, abi)
    out = host_runs
    assert abi in out.finished
    assert not out.malformed
    for target, unknown, smoke in [
        ("/dev/null", "unlikely", "FIGETBSZ"),    # mem's null_fops: no ioctl at all
        ("/dev/zero", "unlikely", "FIGETBSZ"),
        ("eventfd:eventfd", "unlikely", "FIGETBSZ"),
        ("pipe:pipe2", "own", "FIONREAD"),        # pipe_ioctl: -ENOIOCTLCMD
        ("pty:master", "own", "TCGETS"),
        ("pty:slave", "own", "TCGETS"),
        ("socket:unix/stream", "own", "SIOCGPGRP"),
    ]:
        rows = out.by_key()
        assert rows[(target, "open", abi)].result == "0", target
        assert rows[(target, "foreign", abi)].result == "ENOTTY", target
        assert rows[(target, unknown, abi)].result == "ENOTTY", target
        assert rows[(target, "smoke", abi)].name == smoke
        assert rows[(target, "smoke", abi)].result == "0", target


def test_rows_name_the_device(host_runs):
    null = host_runs.by_key()[("/dev/null", "foreign", "native")]
    assert (null.kind, null.node, null.dev, null.subsystem) == ("char", "/dev/null", "1:3", "mem")
    assert null.command == 0xC040E1FE and null.name == "FOREIGN_E1_FE"
    pipe = host_runs.by_key()[("pipe:pipe2", "open", "native")]
    assert (pipe.kind, pipe.node, pipe.dev, pipe.command) == ("fd", None, None, None)


def test_epoll_answers_both_unknown_commands_alike(host_runs, host_abis):
    # fs/eventpoll.c answers EINVAL before the series, ENOTTY after: which
    # one depends on the host's kernel, but the two unknown commands agree.
    for abi in host_abis:
        foreign = host_runs.result("epoll:epoll_create1", "foreign", abi)
        own = host_runs.result("epoll:epoll_create1", "own", abi)
        assert foreign == own and foreign in ("EINVAL", "ENOTTY")


def test_one_row_per_check_and_missing_files_are_absent(host_runs, host_abis):
    for abi in host_abis:
        checks = [r.check for r in host_runs.rows if r.target == "pty:slave" and r.abi == abi]
        assert checks == ["open", "foreign", "own", "smoke"]
    missing = [r for r in host_runs.rows if r.target == "debugfs:enotty-no-such-file"]
    assert [(r.check, r.result) for r in missing] == [("open", "absent")] * len(host_abis)


def test_abi_column(host_runs, host_abis):
    assert "native" in host_abis
    assert {r.abi for r in host_runs.rows} == set(host_abis)


def test_a_setup_step_follows_the_presetup_rows(binaries):
    # hmm_range calls nothing (it fills the unknown commands' argument), so
    # it runs on any target: a pipe answers its commands alike either way.
    res = _probe(binaries["native"], "-s", "pipe:*=hmm_range", "pipe:*")
    assert res.returncode == 0, res.stderr
    out = probe_output.parse(res.stdout)
    rows = [(r.check, r.name, r.result) for r in out.rows]
    assert rows == [("open", None, "0"),
                    ("presetup", "FOREIGN_E1_FE", "ENOTTY"),
                    ("presetup", "WATCH_QUEUE_UNUSED", "ENOTTY"),
                    ("setup", "hmm_range", "0"),
                    ("foreign", "FOREIGN_E1_FE", "ENOTTY"),
                    ("own", "WATCH_QUEUE_UNUSED", "ENOTTY"),
                    ("smoke", "FIONREAD", "0")]
    # a step the probe does not know is bad usage, one line
    res = _probe(binaries["native"], "-s", "pipe:*=claim", "pipe:*")
    assert res.returncode == 2 and res.stderr == "ioctl_probe: unknown setup step claim\n"


def test_bad_usage_and_unknown_targets(binaries):
    res = _probe(binaries["native"], "-t", "0")
    assert res.returncode == 2 and "usage:" in res.stderr
    res = _probe(binaries["native"], "enotty-no-such-target")
    assert res.returncode == 0
    assert res.stderr == "ioctl_probe: no target enotty-no-such-target\n"
    assert not probe_output.parse(res.stdout).rows


def _rules(binary: Path) -> list[dict[str, str]]:
    res = _probe(binary, "-l")
    assert res.returncode == 0
    lines = res.stdout.splitlines()
    header = lines[0].lstrip("# ").split("\t")
    return [dict(zip(header, line.split("\t"))) for line in lines[1:]]


def test_watchdogs_are_probed_only_when_named(binaries):
    wd = [r for r in _rules(binaries["native"]) if r["pattern"] == "/dev/watchdog*"]
    assert wd and wd[0]["flags"] == "explicit,magic-close"


# --- the magic table against the kernel's headers -------------------------

_IOC = re.compile(r"\b_IO(?:R|W|WR)?\s*\(\s*([^,()]+|\([^()]*\))\s*,\s*([^,()]+|\([^()]*\))\s*[,)]")
_IOC_RAW = re.compile(r"\b_IOC\s*\(\s*[^,]+,\s*([^,()]+|\([^()]*\))\s*,\s*([^,()]+|\([^()]*\))\s*,")
_DEFINE = re.compile(r"^\s*#\s*define\s+([A-Z_][A-Z0-9_]*)[ \t]+([^\n]+?)[ \t]*(?:/\*[^\n]*)?$", re.M)
# enum members, as ORANGEFS defines its commands
_ENUM = re.compile(r"^[ \t]*([A-Z_][A-Z0-9_]*)[ \t]*=[ \t]*(_IO\w*\([^)\n]*\)|[^,\n]+?)[ \t]*,",
                   re.M)
_PLAIN = re.compile(r"^0x([0-9a-fA-F]{4})$")
SIZES = {"int": 4, "__s32": 4, "__u32": 4, "int32_t": 4, "unsigned int": 4, "__u64": 8,
         "struct capi_version": 16, "struct epoll_params": 8}


def _value(expr: str, macros: dict[str, str], depth: int = 0) -> int | None:
    expr = expr.strip()
    m = re.fullmatch(r"'(.)'", expr)
    if m:
        return ord(m.group(1))
    if depth > 6:
        return None
    # upper-case names only: lower-case ones are macro parameters
    expr = re.sub(r"\b([A-Z_][A-Z0-9_]*)\b",
                  lambda m: str(_value(macros[m.group(1)], macros, depth + 1))
                  if m.group(1) in macros else m.group(1), expr)
    expr = re.sub(r"'(.)'", lambda m: str(ord(m.group(1))), expr)
    if not re.fullmatch(r"[0-9a-fA-FxXuUlL+\-*()<|> ]+", expr):
        return None
    try:
        return int(eval(re.sub(r"(?<=[0-9a-fA-F])[uUlL]+\b", "", expr)))  # noqa: S307
    except (SyntaxError, ValueError, TypeError):
        return None


# Where ioctl numbers are defined: the uapi and kernel headers, and the
# folders of the drivers the magic table names (register dumps left out).
HEADER_DIRS = ("include", "arch/x86/include", "net", "fs", "sound", "lib", "mm", "security",
               "drivers/android", "drivers/block", "drivers/char", "drivers/gpio",
               "drivers/input", "drivers/iommu", "drivers/isdn", "drivers/media/mc",
               "drivers/sbus",
               "drivers/message", "drivers/misc", "drivers/mmc", "drivers/net/wwan",
               "drivers/tty", "drivers/usb/core", "drivers/usb/gadget", "drivers/vdpa",
               "drivers/video/fbdev/core", "drivers/watchdog")


# The sparc64 guest's drivers define their commands in SPARC's own uapi
# headers (the rest of arch/sparc/include is sparc's tty and socket
# numbers, which no x86 target answers).
SPARC_HEADERS = ("openpromio.h", "envctrl.h", "watchdog.h")


def _headers(root: Path) -> list[Path]:
    sparc = [root / "arch/sparc/include/uapi/asm" / name for name in SPARC_HEADERS]
    return [p for sub in HEADER_DIRS for p in (root / sub).rglob("*.h")
            if p.is_file() and p.stat().st_size < 512 * 1024] + sparc


@pytest.fixture(scope="module")
def kernel_commands() -> tuple[set[tuple[int, int]], dict[str, str]]:
    """(magic, nr) of every command the tree's headers define, and the macros."""
    root = tree.resolve(None, need_kernel=True, kver="6.12")
    texts = {p: p.read_text(errors="replace") for p in _headers(root)}
    macros: dict[str, str] = {}
    for text in texts.values():
        for name, value in _DEFINE.findall(text) + _ENUM.findall(text):
            macros.setdefault(name, value)
    used: set[tuple[int, int]] = set()
    for path, text in texts.items():
        for magic, nr in _IOC.findall(text) + _IOC_RAW.findall(text):
            m, n = _value(magic, macros), _value(nr, macros)
            if m is not None and n is not None:
                used.add((m & 0xFF, n & 0xFF))
        # Legacy families (tty 0x54xx, loop 0x4Cxx, lp 0x06xx, sockets
        # 0x89xx) write plain numbers, in uapi headers; elsewhere four hex
        # digits are mostly PCI and USB ids.
        if "uapi" not in path.parts:
            continue
        for _, value in _DEFINE.findall(text):
            plain = _PLAIN.match(value)
            if plain:
                v = int(plain.group(1), 16)
                used.add((v >> 8, v & 0xFF))
    return used, macros


def test_unknown_commands_are_unknown_to_every_header(binaries, kernel_commands):
    used, _ = kernel_commands
    # the reader sees plain numbers (TCGETS 0x5401) and _IO* (VIDIOC_QUERYCAP)
    assert (0x54, 0x01) in used and (ord("V"), 0) in used
    assert not {(m, n) for m, n in used if m in (0xE1, 0xD6)}, "foreign magic in use"
    clashes = []
    for rule in _rules(binaries["native"]):
        own = int(rule["own"], 16)
        if rule["own_name"] != "-" and ((own >> 8) & 0xFF, own & 0xFF) in used:
            clashes.append(f"{rule['pattern']}: {rule['own_name']} {rule['own']}")
    assert not clashes


def _ioc(direction: str, magic: int, nr: int, size: int) -> int:
    bits = {"": 0, "W": 1, "R": 2, "WR": 3}[direction]
    return (bits << 30) | (size << 16) | (magic << 8) | nr


def test_hand_defined_smoke_commands_match_the_kernel(binaries, kernel_commands):
    # Commands the probe defines itself because Debian's uapi headers lack
    # them: recomputed from the tree's own definition.
    _, macros = kernel_commands
    smoke = {r["smoke_name"]: int(r["smoke"], 16) for r in _rules(binaries["native"])}
    checked = 0
    for name in ("BNEPGETCONNLIST", "CMTPGETCONNLIST", "HIDPGETCONNLIST", "IMGETVERSION",
                 "CAPI_GET_VERSION", "ORANGEFS_DEV_GET_MAGIC", "IOCTL_VMCI_VERSION",
                 "EPIOCGPARAMS", "OPIOCGETOPTNODE", "ENVCTRL_RD_GLOBALADDRESS"):
        m = re.fullmatch(r"_IO(R|W|WR)?\s*\(\s*([^,]+?)\s*,\s*([^,]+?)\s*(?:,\s*(.+?)\s*)?\)",
                         macros[name])
        assert m, (name, macros[name])
        direction, magic, nr, size = m.groups()
        want = _ioc(direction or "", _value(magic, macros), _value(nr, macros),
                    SIZES[size] if size else 0)
        assert smoke[name] == want, f"{name}: probe 0x{smoke[name]:08x}, kernel 0x{want:08x}"
        checked += 1
    assert checked == 10



# ELF e_machine of each guest without busybox (the probe and init are its
# own programs, built with its cross compiler), and of its -m32 probe.
_MACHINES = {"s390x": 22, "ppc": 20, "arm": 40, "sparc64": 43, "powernv": 21}
_MACHINES_32 = {"sparc64": 18}     # EM_SPARC32PLUS


def _machine_and_interp(path: Path) -> tuple[int, bool]:
    """(e_machine, whether it names a program interpreter), either byte order."""
    data = path.read_bytes()
    assert data[:4] == b"\x7fELF"
    o = "<" if data[5] == 1 else ">"
    machine = struct.unpack_from(f"{o}H", data, 18)[0]
    if data[4] == 1:
        phoff, (phentsize, phnum) = struct.unpack_from(f"{o}I", data, 28)[0], \
            struct.unpack_from(f"{o}HH", data, 42)
    else:
        phoff, (phentsize, phnum) = struct.unpack_from(f"{o}Q", data, 32)[0], \
            struct.unpack_from(f"{o}HH", data, 54)
    types = [struct.unpack_from(f"{o}I", data, phoff + i * phentsize)[0] for i in range(phnum)]
    return machine, 3 in types


@pytest.mark.parametrize("name", sorted(_MACHINES))
def test_the_probe_and_init_build_with_each_guests_cross_compiler(name, tmp_path):
    """The audit's own step (run.build_guest_programs): static programs for
    the guest's architecture, the probe's magic table included."""
    guest = guests.by_name(name)
    if shutil.which(guest.cc) is None:
        pytest.skip(f"{guest.cc} is not installed ({' '.join(guest.packages)})")
    env = dict(os.environ, CCACHE_DISABLE="1")
    init, probes = run.build_guest_programs(guest, tmp_path / "out", tmp_path / "log", env)
    assert [p.name for p in probes] == list(guest.probes)
    for prog in [init, *probes]:
        machine = _MACHINES_32[name] if prog.name == "ioctl_probe_32" else _MACHINES[name]
        assert _machine_and_interp(prog) == (machine, False), prog
