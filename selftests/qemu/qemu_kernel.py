"""Kernel config, kernel and selftest builds, initramfs and QEMU command line."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from enotty.render import companions
from enotty.kernel import initramfs
from enotty.errors import UsageError
from enotty.requests import default_jobs
from enotty.kernel.worktree import kbuild_env

import qemu_tree

HERE = Path(__file__).resolve().parent
FRAGMENT = HERE / "config"
INIT_SCRIPT = HERE / "init.sh"
SELFTESTS = ("ioctl_errno", "ioctl_errno_32")
QBOOT = Path("/usr/share/qemu/qboot.rom")
COMPLIANCE = Path("/usr/bin/v4l2-compliance")
STDBUF = Path("/usr/bin/stdbuf")
LIBSTDBUF = Path("/usr/libexec/coreutils/libstdbuf.so")
BUSYBOX = Path("/bin/busybox")
# vivid's default node set (0xe1d3d) plus bit 16, its framebuffer.
VIVID_NODE_TYPES = 0xF1D3D


class BuildError(Exception):
    """A build step failed; the message names the log to read."""


def parse_config(text: str) -> dict[str, str]:
    """CONFIG_X -> value ('y', 'm', '"str"', 'n' for `# CONFIG_X is not set`)."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"^(CONFIG_\w+)=(.*)$", line)
        if m:
            out[m.group(1)] = m.group(2)
            continue
        m = re.match(r"^# (CONFIG_\w+) is not set$", line)
        if m:
            out[m.group(1)] = "n"
    return out


def config_mismatches(fragment: str, config: str) -> list[str]:
    """Fragment options the final .config does not carry, as messages."""
    have = parse_config(config)
    bad = []
    for key, want in parse_config(fragment).items():
        got = have.get(key, "n")
        if got != want:
            bad.append(f"{key}={want} requested, .config has {key}={got}")
    return bad


def kernel_cmdline() -> str:
    """Serial console, enough log level for WARN/oops, vivid with its fb."""
    return " ".join([
        "console=ttyS0", "loglevel=5", "panic=-1", "rdinit=/init",
        f"vivid.node_types={VIVID_NODE_TYPES:#x}",
    ])


def qemu_argv(bzimage: Path, initramfs: Path, console_log: Path, kvm: bool = False,
              bios: Path | None = QBOOT) -> list[str]:
    """qemu-system-x86_64 for one unattended boot; exits via isa-debug-exit."""
    argv = ["qemu-system-x86_64", "-M", "pc", "-m", "512M", "-smp", "1",
            "-nographic", "-no-reboot", "-monitor", "none",
            "-serial", f"file:{console_log}",
            "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
            "-kernel", str(bzimage), "-initrd", str(initramfs),
            "-append", kernel_cmdline()]
    argv += ["-accel", "kvm"] if kvm else ["-accel", "tcg"]
    if bios is not None and bios.is_file():
        argv += ["-bios", str(bios)]
    return argv


def _run_logged(argv: list[str], log: Path, env: dict[str, str] | None = None,
                cwd: Path | None = None) -> None:
    with open(log, "ab") as f:
        f.write(("$ " + " ".join(argv) + "\n").encode())
        f.flush()
        res = subprocess.run(argv, stdout=f, stderr=subprocess.STDOUT, env=env, cwd=cwd,
                             check=False)
    if res.returncode != 0:
        tail = log.read_text(errors="replace").splitlines()[-15:]
        raise BuildError(f"`{' '.join(argv[:6])} ...` failed ({res.returncode}); "
                         f"log: {log}\n" + "\n".join(tail))


def make_argv(tree: Path, build: Path, *targets: str, jobs: int | None = None) -> list[str]:
    """Kbuild for x86_64 through ccache, with jobs (default: our CPUs) workers."""
    return ["make", "-s", "-C", str(tree), f"O={build}", "ARCH=x86_64",
            "CC=ccache gcc", f"-j{jobs or default_jobs()}", *targets]


def configure(tree: Path, build: Path, log: Path, env: dict[str, str]) -> None:
    """tinyconfig + the fragment, checked option by option after olddefconfig."""
    fragment = FRAGMENT.read_text()
    config = build / ".config"
    stamp = build / ".enotty-fragment"
    if not (config.is_file() and stamp.is_file() and stamp.read_text() == fragment):
        build.mkdir(parents=True, exist_ok=True)
        _run_logged(make_argv(tree, build, "tinyconfig"), log, env)
        with open(config, "a") as f:
            f.write("\n" + fragment)
        _run_logged(make_argv(tree, build, "olddefconfig"), log, env)
        stamp.write_text(fragment)
    bad = config_mismatches(fragment, config.read_text())
    if bad:
        stamp.unlink(missing_ok=True)
        raise BuildError(f"{FRAGMENT}: options olddefconfig dropped (missing dependency?): "
                         + "; ".join(bad))


def build_kernel(tree: Path, build: Path, ccache_dir: Path, log: Path,
                 jobs: int | None = None) -> Path:
    """The bzImage and the uapi headers (build/usr/include) for the selftest.

    ccache_dir: ccache's folder, under ours (see worktree.kbuild_env)."""
    env = kbuild_env(ccache_dir)
    configure(tree, build, log, env)
    _run_logged(make_argv(tree, build, "bzImage", "headers", jobs=jobs), log, env)
    return build / "arch" / "x86" / "boot" / "bzImage"


def adds_selftest(patch: Path) -> bool:
    """The patch adds the kselftest (the media series' last patch)."""
    return f"+++ b/{companions.SELFTEST_DIR}/ioctl_errno.c\n" in patch.read_text(errors="replace")


def with_selftest(source: Path, patches: list[Path], scratch: Path) -> list[Path]:
    """patches, plus the kselftest patch when none of them adds it (the
    pristine run, or a series written before it carried the test): the
    same diff the media series carries, so every run builds the test from
    the tree's own tools/testing/selftests."""
    if any(adds_selftest(p) for p in patches):
        return patches
    qemu_tree.replace_file(scratch, companions.selftest_diff(source).encode())
    return [*patches, scratch]


def build_selftests(tree: Path, build: Path, out: Path, log: Path, ccache_dir: Path) -> list[Path]:
    """ioctl_errno (64-bit) and ioctl_errno_32, static, built by the kernel's
    kselftest make from tree's tools/testing/selftests (where the media
    series' patch puts it) against the headers of the kernel build."""
    target = tree / companions.SELFTEST_DIR
    if not (target / "Makefile").is_file():
        raise BuildError(f"{target}: no kselftest (the patch set must add it)")
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    _run_logged(["make", "-s", "-C", str(tree / "tools" / "testing" / "selftests"),
                 f"TARGETS={companions.SELFTEST_TARGET}", f"O={out}", "ARCH=x86",
                 f"KHDR_INCLUDES=-isystem {build / 'usr' / 'include'}",
                 "LDFLAGS=-static", "CC=ccache gcc"], log, kbuild_env(ccache_dir))
    found = {p.name: p for p in out.rglob("ioctl_errno*") if p.is_file() and not p.suffix}
    missing = [name for name in SELFTESTS if name not in found]
    if missing:
        raise BuildError(f"the kselftest build made no {', '.join(missing)}; log: {log}")
    return [found[name] for name in SELFTESTS]


def build_initramfs(selftests: list[Path], out: Path) -> Path:
    """An uncompressed newc cpio: busybox, /init, selftests, v4l2-compliance."""
    for tool in (BUSYBOX, COMPLIANCE, STDBUF, LIBSTDBUF):
        if not tool.is_file():
            raise UsageError(f"{tool} is missing (packages busybox-static, v4l-utils, coreutils)")
    with tempfile.TemporaryDirectory(prefix="enotty-initramfs-") as tmp:
        root = Path(tmp)
        initramfs.start(root, BUSYBOX, INIT_SCRIPT)
        for prog in selftests:
            initramfs.copy_into(root, prog, f"/selftest/{prog.name}")
        for prog in (COMPLIANCE, STDBUF):
            initramfs.copy_program(root, prog)
        initramfs.copy_into(root, LIBSTDBUF)
        return initramfs.pack(root, out)


def boot(bzimage: Path, initramfs: Path, console_log: Path, timeout: int,
         kvm: bool = False) -> int | None:
    """Boot once; QEMU's exit status, or None when the guest hung."""
    console_log.unlink(missing_ok=True)
    argv = qemu_argv(bzimage, initramfs, console_log, kvm=kvm)
    try:
        res = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return None
    if res.returncode not in (0, 1) and res.stdout:
        sys.stderr.write(res.stdout.decode(errors="replace")[-2000:])
    return res.returncode
