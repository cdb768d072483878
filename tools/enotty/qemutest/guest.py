"""The vivid guest of `make qemu-test`: its kernel, selftests, initramfs and boot.

The guest side lives in selftests/qemu/ (config: the kernel fragment;
init.sh: /init) and in the kselftest the media series adds
(tools/testing/selftests/drivers/media/, built from the patched tree).
The kernel build and the boot are enotty.kernel's.
"""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from ..render import companions
from ..errors import UsageError
from ..kernel import initramfs
from ..kernel.build import BuildError, TinyKernel, run_logged
from ..kernel.qemu import QBOOT, QemuConfig
from ..kernel.worktree import kbuild_env, replace_file

GUEST = Path(__file__).resolve().parents[3] / "selftests" / "qemu"
FRAGMENT = GUEST / "config"
INIT_SCRIPT = GUEST / "init.sh"
SELFTESTS = ("ioctl_errno", "ioctl_errno_32")
COMPLIANCE = Path("/usr/bin/v4l2-compliance")
STDBUF = Path("/usr/bin/stdbuf")
LIBSTDBUF = Path("/usr/libexec/coreutils/libstdbuf.so")
BUSYBOX = Path("/bin/busybox")
# vivid's default node set (0xe1d3d) plus bit 16, its framebuffer.
VIVID_NODE_TYPES = 0xF1D3D


def kernel_cmdline() -> tuple[str, ...]:
    """vivid with its framebuffer (after the serial console and /init)."""
    return (f"vivid.node_types={VIVID_NODE_TYPES:#x}",)


def qemu_config(bzimage: Path, initrd: Path, console: Path, kvm: bool = False,
                bios: Path | None = QBOOT) -> QemuConfig:
    """One unattended boot of the vivid kernel (qboot when installed: it boots fastest)."""
    return QemuConfig(kernel=bzimage, initrd=initrd, console=console, memory="512M",
                      cmdline=kernel_cmdline(), bios=bios, kvm=kvm)


def build_kernel(tree: Path, build: Path, ccache_dir: Path, log: Path,
                 jobs: int | None = None) -> Path:
    """The bzImage and the uapi headers (build/usr/include) for the selftest:
    tinyconfig + selftests/qemu/config, every option checked."""
    kernel = TinyKernel(source=tree, build=build, log=log, ccache=ccache_dir, jobs=jobs)
    kernel.configure(FRAGMENT.read_text(), required_from=FRAGMENT)
    kernel.make("bzImage", "headers")
    return kernel.bzimage


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
    replace_file(scratch, companions.selftest_diff(source).encode())
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
    run_logged(["make", "-s", "-C", str(tree / "tools" / "testing" / "selftests"),
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
