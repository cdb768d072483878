"""The initramfs of a QEMU test boot: busybox, /init, and what runs.

The vivid selftests (enotty.qemutest) and the audit (enotty.audit) boot
the same way: a static busybox as /bin/sh, their own /init script, their
programs, each dynamic program's libraries, packed as an uncompressed newc
cpio with fixed owners and times, so the same content gives the same bytes.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path


def shared_libs(program: Path) -> list[Path]:
    """The libraries and loader ldd names for a dynamic program."""
    res = subprocess.run(["ldd", str(program)], capture_output=True, text=True, check=False)
    return [Path(m.group(1)) for m in re.finditer(r"(/\S+)\s+\(0x", res.stdout)]


def copy_into(root: Path, src: Path, dest: str | None = None) -> None:
    """src at root/dest (default: its own absolute path below root)."""
    target = root / (dest or str(src)).lstrip("/")
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src.resolve(), target)


def copy_program(root: Path, program: Path, dest: str | None = None) -> None:
    """A dynamic program and the libraries it needs."""
    copy_into(root, program, dest)
    for lib in shared_libs(program):
        copy_into(root, lib)


def start(root: Path, busybox: Path, init_script: Path) -> None:
    """busybox as /bin/sh (the interpreter of /init, which installs the
    other applets itself) and /init."""
    copy_into(root, busybox, "/bin/busybox")
    os.symlink("busybox", root / "bin" / "sh")
    copy_into(root, init_script, "/init")
    os.chmod(root / "init", 0o755)


def pack(root: Path, out: Path) -> Path:
    """root as out, a newc cpio; written beside it and renamed into place."""
    files = sorted(str(p.relative_to(root)) for p in root.rglob("*"))
    for rel in files:
        os.utime(root / rel, (0, 0), follow_symlinks=False)
    tmp_out = out.with_suffix(".tmp")
    with open(tmp_out, "wb") as f:
        subprocess.run(["cpio", "--quiet", "--reproducible", "-o", "-H", "newc", "-R", "0:0"],
                       input="\n".join(files).encode(), stdout=f, cwd=root, check=True)
    os.replace(tmp_out, out)
    return out
