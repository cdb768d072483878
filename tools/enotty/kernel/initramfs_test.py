"""The test boots' initramfs: libraries found, the same content packed to the same bytes."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from enotty.kernel import initramfs


def test_shared_libs_lists_loader_and_libc() -> None:
    libs = [p.name for p in initramfs.shared_libs(Path("/usr/bin/stdbuf"))]
    assert any(n.startswith("libc.so") for n in libs)
    assert any(n.startswith("ld-linux") for n in libs)


@pytest.mark.skipif(shutil.which("cpio") is None, reason="cpio is installed by make check")
def test_same_content_same_archive(tmp_path: Path) -> None:
    init = tmp_path / "init.sh"
    init.write_text("#!/bin/sh\nexec poweroff -f\n")
    archives = []
    for n in (1, 2):
        root = tmp_path / f"root{n}"
        root.mkdir()
        initramfs.start(root, Path("/bin/true"), init)      # any file stands in for busybox
        initramfs.copy_program(root, Path("/usr/bin/stdbuf"), "/usr/bin/stdbuf")
        archives.append(initramfs.pack(root, tmp_path / f"out{n}.cpio").read_bytes())
    assert archives[0] == archives[1]
    listing = subprocess.run(["cpio", "-t", "--quiet"], input=archives[0], capture_output=True,
                             check=True).stdout.decode().split()
    assert {"init", "bin/busybox", "bin/sh", "usr/bin/stdbuf"} <= set(listing)
    assert any("libc.so" in name for name in listing)
