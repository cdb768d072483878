"""Check for the Debian packages a target needs; install them when root.

Every Makefile target starts here, so that a fresh Debian 12 machine needs
nothing but `make patches` or `make check`.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import TextIO

from .errors import UsageError

# What each entry point needs, cumulatively named by the Makefile target.
# The cross compilers of make patches' compile test (verify.crossbuild's
# PLATFORMS): asked for in the same apt run as the rest, because one apt
# run costs far less than seven on a fresh machine.
CROSS_COMPILERS = ("gcc-m68k-linux-gnu", "gcc-sparc64-linux-gnu", "gcc-powerpc64le-linux-gnu",
                   "gcc-powerpc-linux-gnu", "gcc-arm-linux-gnueabihf", "gcc-mips-linux-gnu",
                   "gcc-s390x-linux-gnu", "gcc-sh4-linux-gnu")
# The default tree is fetched by apt into the cache (kernel.debian);
# linux-source-6.12 only for KVER=6.12 (kernel.tree.pinned_tree) and make check.
NEEDS: dict[str, tuple[str, ...]] = {
    "report": ("coccinelle", "python3", "xz-utils"),
    "patches": (
        "coccinelle", "python3", "git", "perl",
        "xz-utils", "gcc", "make", "flex", "bison", "bc", "libelf-dev",
        "libssl-dev", "ccache",
    ) + CROSS_COMPILERS,
    "qemu": (
        "gcc", "make", "flex", "bison", "bc", "libelf-dev", "libssl-dev",
        # gcc-12-multilib, not the gcc-multilib metapackage: that one
        # conflicts with every gcc-*-linux-gnu cross compiler (apt removes
        # them); -m32 finds <asm/*.h> in the kernel's own `make headers`.
        "ccache", "cpio", "qemu-system-x86", "busybox-static", "gcc-12-multilib",
        "v4l-utils", "coreutils", "linux-source-6.12", "xz-utils",
        # the kernel's `make kselftest-install` copies with rsync (lib.mk)
        "rsync",
    ),
}
# What `make patches` needs before its scan starts.  The rest of its set (the
# compilers of the compile test, minutes of apt on a fresh machine) is
# installed by a background apt run while the tree is fetched and scanned;
# the verify stage waits for it (wait_for_background) before it builds.
FIRST: dict[str, tuple[str, ...]] = {"patches": ("coccinelle", "python3", "git", "perl", "xz-utils")}
# The background run, machine-wide like apt's own lock (root only).
BACKGROUND_PID = Path("/run/enotty-apt.pid")
BACKGROUND_LOG = Path("/run/enotty-apt.log")
# git send-email lives in git-email; it mails through Net::SMTP and reads
# addresses with Mail::Address (libmailtools-perl).
NEEDS["mailout"] = NEEDS["patches"] + ("git-email", "libmailtools-perl")
# The audit's guest setup copies /bin/ip into the initramfs (a macvtap link);
# its in-tree kselftests link libcap statically (epoll_busy_poll); iasl
# compiles the SSDTs of selftests/audit/acpi (qemu -acpitable).  The s390x,
# ppc, arm, sparc64 and powernv guests (enotty.audit.guests) need their QEMU, cross compiler
# and the Debian cross C library for their static probe and init (no
# foreign dpkg architecture; sparc64's 32-bit one too, for the -m32 probe).
NEEDS["audit"] = NEEDS["qemu"] + ("iproute2", "libcap-dev", "acpica-tools",
                                  "qemu-system-misc", "gcc-s390x-linux-gnu",
                                  "libc6-dev-s390x-cross",
                                  "qemu-system-ppc", "gcc-powerpc-linux-gnu",
                                  "libc6-dev-powerpc-cross",
                                  "qemu-system-arm", "gcc-arm-linux-gnueabihf",
                                  "libc6-dev-armhf-cross",
                                  "qemu-system-sparc", "gcc-sparc64-linux-gnu",
                                  "libc6-dev-sparc64-cross", "libc6-dev-sparc-sparc64-cross",
                                  "lib32gcc-12-dev-sparc64-cross",
                                  "gcc-powerpc64le-linux-gnu", "libc6-dev-ppc64el-cross")
# The cross compilers of `make patches` are asked for by the run that needs
# them (crossbuild.ensure_compilers); make check's real cross build is m68k's.
NEEDS["check"] = tuple(sorted(set(NEEDS["mailout"]) | set(NEEDS["audit"])
                              | {"python3-pytest", "mypy", "linux-source-6.12"}))


def missing(packages: tuple[str, ...] | list[str]) -> list[str]:
    """The packages dpkg does not report as installed, asked in one
    dpkg-query (one a package cost half a second for make patches' 21)."""
    if not packages:
        return []
    res = subprocess.run(["dpkg-query", "-W", "-f=${Package}\t${Status}\n", *packages],
                         capture_output=True, text=True, check=False)
    installed = {name for name, _, status in (line.partition("\t") for line in res.stdout.splitlines())
                 if status == "install ok installed"}
    return [pkg for pkg in packages if pkg not in installed]


def install_line(packages: list[str]) -> str:
    return "apt-get install -y --no-install-recommends " + " ".join(packages)


def ensure_packages(wanted: list[str], why: str, log: TextIO = sys.stderr, wait: bool = True) -> None:
    """Install these packages when root and some are missing; otherwise
    raise UsageError with the apt-get line.  For what a run finds it needs
    only after its scan (the cross compilers of the patched platforms).
    wait: a background run (start_background) may be installing them."""
    need = missing(wanted)
    if need and wait and os.geteuid() == 0 and wait_for_background(log):
        need = missing(wanted)
    if not need:
        return
    if os.geteuid() != 0:
        raise UsageError(f"missing Debian packages ({why}); run as root: {install_line(need)}")
    print(f"enotty: installing {' '.join(need)} ({why})", file=log)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    try:
        subprocess.run(["apt-get", "update"], check=True, env=env, stdout=log)
        # --no-remove: never take a package away to make room (Debian 12's
        # gcc-multilib and the cross compilers conflict); fail instead.
        subprocess.run(install_line(need).split() + ["--no-remove"], check=True, env=env, stdout=log)
    except subprocess.CalledProcessError as err:
        raise UsageError(f"could not install {' '.join(need)} ({why}; apt-get would have to remove"
                         f" a package, or failed): exit {err.returncode}") from None
    still = missing(need)
    if still:
        raise UsageError(f"apt-get did not install {' '.join(still)} ({why})")


def ensure(target: str) -> None:
    """Install what `target` needs when root; otherwise say the apt line.
    A target with a FIRST set gets that set now and the rest of its
    packages from a background apt run (start_background)."""
    try:
        wanted = NEEDS[target]
    except KeyError:
        raise UsageError(f"unknown package set {target!r}; known: {', '.join(sorted(NEEDS))}")
    first = FIRST.get(target)
    if first is None or os.geteuid() != 0:
        ensure_packages(list(wanted), f"make {target}")
        return
    ensure_packages(list(first), f"make {target}")
    later = missing([p for p in wanted if p not in first])
    if later:
        start_background(later, f"make {target}")


def start_background(need: list[str], why: str, log: TextIO = sys.stderr) -> None:
    """An apt run of need that outlives this process, its output in
    BACKGROUND_LOG and its pid in BACKGROUND_PID until it ends."""
    if wait_for_background(log):
        need = missing(need)
        if not need:
            return
    with open(BACKGROUND_LOG, "w") as out:
        child = subprocess.Popen([sys.executable, "-m", "enotty.packages", "--install", why, *need],
                                 stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                 start_new_session=True, env=dict(os.environ, PYTHONPATH=_tools_dir()))
    BACKGROUND_PID.write_text(f"{child.pid}\n")
    print(f"enotty: installing {' '.join(need)} while the scan runs (log: {BACKGROUND_LOG})", file=log)


def _tools_dir() -> str:
    return str(Path(__file__).resolve().parents[1])


def wait_for_background(log: TextIO = sys.stderr) -> bool:
    """Wait for the background apt run, if one is going; whether one was."""
    try:
        pid = int(BACKGROUND_PID.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return False
    said = False
    while _alive(pid):
        if not said:
            print(f"enotty: waiting for the packages installed in the background (log: {BACKGROUND_LOG})",
                  file=log)
            said = True
        time.sleep(1)
    BACKGROUND_PID.unlink(missing_ok=True)
    return True


def pid_alive(pid: int) -> bool:
    """Whether a process pid exists (another user's too)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _alive(pid: int) -> bool:
    if not pid_alive(pid):
        return False
    # a zombie of ours (the run started by this very process) has ended
    try:
        return os.waitpid(pid, os.WNOHANG) == (0, 0)
    except ChildProcessError:
        return True


def main(argv: list[str]) -> int:
    if len(argv) >= 3 and argv[0] == "--install":
        # the background run of start_background()
        try:
            ensure_packages(argv[2:], argv[1], sys.stdout, wait=False)
        except (UsageError, subprocess.CalledProcessError) as err:
            print(f"enotty: {err}")
            return 1
        finally:
            BACKGROUND_PID.unlink(missing_ok=True)
        return 0
    if len(argv) != 1:
        print("usage: python3 -m enotty.packages TARGET", file=sys.stderr)
        return 2
    try:
        ensure(argv[0])
    except UsageError as err:
        print(f"enotty: {err}", file=sys.stderr)
        return 2
    except subprocess.CalledProcessError as err:
        print(f"enotty: package installation failed: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
