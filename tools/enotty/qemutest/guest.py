"""The vivid guest of `make qemu-test`: its kernel, selftests, initramfs and boot.

The guest side lives in selftests/qemu/ (config: the kernel fragment;
init.sh: /init) and in the kselftest the media series adds
(tools/testing/selftests/drivers/media/), which the patched tree's
`make kselftest-install` installs with run_kselftest.sh; vivid and vimc
are modules (modules_install) that the test's wrapper loads.
The kernel build and the boot are enotty.kernel's.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from ..render import companions
from ..errors import UsageError
from ..kernel import initramfs
from ..kernel.build import X86_64, BuildError, TinyKernel, run_logged
from ..kernel.qemu import QBOOT, QemuConfig
from ..kernel.worktree import kbuild_env, replace_file

GUEST = Path(__file__).resolve().parents[3] / "selftests" / "qemu"
FRAGMENT = GUEST / "config"
INIT_SCRIPT = GUEST / "init.sh"
SELFTESTS = companions.SELFTEST_PROGRAMS
WRAPPER = "ioctl_errno.sh"     # the kselftest's TEST_PROGS: what run_kselftest.sh runs
COMPLIANCE = Path("/usr/bin/v4l2-compliance")
STDBUF = Path("/usr/bin/stdbuf")
TIMEOUT = Path("/usr/bin/timeout")
LIBSTDBUF = Path("/usr/libexec/coreutils/libstdbuf.so")
BUSYBOX = Path("/bin/busybox")


def qemu_config(bzimage: Path, initrd: Path, console: Path, kvm: bool = False,
                bios: Path | None = QBOOT) -> QemuConfig:
    """One unattended boot of the vivid kernel (qboot when installed: it
    boots fastest).  No module options on the command line: the
    kselftest's wrapper and /init load vivid with its node types."""
    return QemuConfig(kernel=bzimage, initrd=initrd, console=console, memory="512M",
                      bios=bios, kvm=kvm)


def build_kernel(tree: Path, build: Path, ccache_dir: Path, log: Path,
                 jobs: int | None = None) -> Path:
    """The bzImage, its modules (vivid, vimc) and the uapi headers
    (build/usr/include): tinyconfig + selftests/qemu/config, every option
    checked."""
    kernel = TinyKernel(source=tree, build=build, log=log, ccache=ccache_dir, jobs=jobs)
    kernel.configure(FRAGMENT.read_text(), required_from=FRAGMENT)
    kernel.make("bzImage", "modules", "headers")
    return kernel.bzimage


def install_modules(tree: Path, build: Path, out: Path, log: Path) -> Path:
    """`make modules_install` into out (lib/modules/<release>/), stripped,
    with modules.dep written by busybox's depmod: the guest's modprobe is
    busybox's, and the host needs no kmod."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    run_logged(["make", "-s", "-C", str(tree), f"O={build}", *X86_64, f"INSTALL_MOD_PATH={out}",
                "INSTALL_MOD_STRIP=1", "DEPMOD=/bin/true", "modules_install"], log, kbuild_env())
    release = (build / "include" / "config" / "kernel.release").read_text().strip()
    run_logged([str(BUSYBOX), "depmod", "-b", str(out), release], log)
    return out


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


_NEW_EXECUTABLE = re.compile(r"^diff --git a/(\S+) b/\1\nnew file mode 100755$", re.M)


def set_executables(tree: Path, patches: list[Path]) -> list[str]:
    """chmod +x the files the patches create as executables (the
    kselftest's wrapper: run_kselftest.sh runs only an executable test);
    the work tree is brought to the patches' contents, not their modes.
    Such files are new in the work tree, so no hard link to the source
    tree is touched."""
    made = [rel for patch in patches for rel in _NEW_EXECUTABLE.findall(patch.read_text(errors="replace"))]
    for rel in made:
        path = tree / rel
        if path.is_file() and not path.is_symlink():
            path.chmod(path.stat().st_mode | 0o111)
    return made


def install_kselftest(tree: Path, build: Path, out: Path, log: Path, ccache_dir: Path) -> Path:
    """The kernel's `make kselftest-install TARGETS=drivers/media` of the
    kernel build (its uapi headers): run_kselftest.sh, its runner, and the
    media test (the wrapper and the programs it runs) in out, as a
    kselftest user installs them.  Both programs must be there: the guest
    is x86_64 and the host's compiler builds -m32."""
    shutil.rmtree(out, ignore_errors=True)
    run_logged(["make", "-s", "-C", str(tree), f"O={build}", *X86_64,
                f"TARGETS={companions.SELFTEST_TARGET}", f"KSFT_INSTALL_PATH={out}", "kselftest-install"],
               log, kbuild_env(ccache_dir))
    folder = out / companions.SELFTEST_TARGET
    missing = [name for name in (*SELFTESTS, WRAPPER) if not (folder / name).is_file()]
    if missing or not (out / "run_kselftest.sh").is_file():
        raise BuildError(f"make kselftest-install installed no {', '.join(missing) or 'run_kselftest.sh'}; "
                         f"log: {log}")
    return out


def elf_runtime(program: Path) -> list[Path]:
    """A dynamic program's interpreter and libraries, read from its ELF
    headers (readelf), the libraries from the interpreter's folder: ldd
    runs the program's loader, which fails for ioctl_errno_32 on a host
    kernel without 32-bit support."""
    headers = subprocess.run(["readelf", "-l", "-d", str(program)], capture_output=True, text=True,
                             check=False).stdout
    interp = re.search(r"Requesting program interpreter: (\S+)\]", headers)
    if interp is None:
        return []
    loader = Path(interp.group(1))
    folder = loader.resolve().parent
    return [loader] + [folder / name for name in re.findall(r"\(NEEDED\)\s+Shared library: \[(\S+)\]", headers)]


def build_initramfs(kselftest: Path, modules: Path, out: Path) -> Path:
    """An uncompressed newc cpio: busybox, /init, the installed kselftests
    (/kselftest) with the libraries their programs need, the modules
    (/lib/modules), v4l2-compliance, and coreutils' timeout (the runner
    calls /usr/bin/timeout --foreground, which busybox's lacks)."""
    for tool in (BUSYBOX, COMPLIANCE, STDBUF, LIBSTDBUF, TIMEOUT):
        if not tool.is_file():
            raise UsageError(f"{tool} is missing (packages busybox-static, v4l-utils, coreutils)")
    with tempfile.TemporaryDirectory(prefix="enotty-initramfs-") as tmp:
        root = Path(tmp)
        initramfs.start(root, BUSYBOX, INIT_SCRIPT)
        shutil.copytree(kselftest, root / "kselftest", symlinks=True)
        shutil.copytree(modules / "lib", root / "lib", symlinks=True, dirs_exist_ok=True)
        for name in SELFTESTS:
            for lib in elf_runtime(kselftest / companions.SELFTEST_TARGET / name):
                initramfs.copy_into(root, lib)
        for prog in (COMPLIANCE, STDBUF, TIMEOUT):
            initramfs.copy_program(root, prog)
        initramfs.copy_into(root, LIBSTDBUF)
        return initramfs.pack(root, out)
