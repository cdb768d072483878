"""Where kernel trees come from: Debian's linux-source-6.12 or KDIR.

Only this module knows how the default tree is found and unpacked.  A user's
KDIR is only ever read; the default tree is unpacked once into the cache.
"""
from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Iterator

from .. import packages
from ..errors import UsageError
from ..requests import KernelTree, Script

SOURCE_PACKAGE = "linux-source-6.12"


def cache_dir() -> Path:
    """The folder for everything large: trees, scan cache, kernel builds.

    Resolved in every case: the default tree under it is compared with
    resolved paths (load() checks that --subdir stays inside it), and a
    cache reached through a symbolic link (XDG_CACHE_HOME or $HOME on
    another disk) must compare equal to where the link points."""
    env = os.environ.get("ENOTTY_CACHE")
    if env:
        return Path(env).expanduser().resolve()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return (Path(base).expanduser() / "enotty").resolve()


def source_tarball() -> Path:
    """The tarball that the linux-source package installs (dpkg -L names it)."""
    res = subprocess.run(["dpkg", "-L", SOURCE_PACKAGE], capture_output=True, text=True, check=False)
    for line in res.stdout.splitlines():
        if re.search(r"/linux-source-[\d.]+\.tar\.(xz|bz2|gz)$", line):
            return Path(line)
    raise UsageError(f"{SOURCE_PACKAGE} is not installed: {packages.install_line([SOURCE_PACKAGE])}")


def default_tree() -> Path:
    """Debian's 6.12 source, unpacked once into the cache and reused."""
    dest = cache_dir() / "src" / SOURCE_PACKAGE
    if (dest / "MAINTAINERS").is_file():
        return dest
    if packages.missing([SOURCE_PACKAGE]):
        packages.ensure("patches")
    tarball = source_tarball()
    dest.parent.mkdir(parents=True, exist_ok=True)
    print(f"enotty: unpacking {tarball} into {dest.parent}", file=sys.stderr)
    tmp = Path(tempfile.mkdtemp(prefix=".unpack-", dir=dest.parent))
    try:
        # tar(1) is several times faster than tarfile on a 140 MB xz archive.
        subprocess.run(["tar", "-xf", str(tarball), "-C", str(tmp)], check=True)
        unpacked = [p for p in tmp.iterdir() if p.is_dir()]
        if len(unpacked) != 1:
            raise UsageError(f"{tarball}: expected one top-level folder, found {len(unpacked)}")
        if dest.exists():
            shutil.rmtree(dest)
        unpacked[0].rename(dest)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return dest


def is_kernel_tree(path: Path) -> bool:
    return (path / "MAINTAINERS").is_file() and (path / "Makefile").is_file()


def c_files(root: Path, scope: Path | None = None) -> Iterator[str]:
    """The .c files under scope (default root), relative to root; a kernel
    tree's tools/ (userspace) left out as the scan does."""
    scope = scope or root
    skip = root / "tools" if is_kernel_tree(root) and scope == root else None
    for folder, dirs, names in os.walk(scope):
        if skip is not None and Path(folder) == root:
            dirs[:] = [d for d in dirs if d != "tools"]
        dirs[:] = [d for d in dirs if d != ".git"]
        for name in names:
            if name.endswith(".c"):
                yield os.path.relpath(os.path.join(folder, name), root)


def has_c_files(path: Path) -> bool:
    for _root, _dirs, files in os.walk(path):
        if any(f.endswith((".c", ".h")) for f in files):
            return True
    return False


def resolve(kdir: str | None, subdir: str | None = None, need_kernel: bool = False) -> Path:
    """The tree to work on, checked: KDIR, or the default tree.

    need_kernel: the caller needs MAINTAINERS and the top Makefile (series
    splitting, builds); a plain directory of C files is enough otherwise.
    """
    root = Path(kdir).expanduser().resolve() if kdir else default_tree()
    if not root.is_dir():
        raise UsageError(f"KDIR {root} is not a directory")
    if need_kernel and not is_kernel_tree(root):
        raise UsageError(f"KDIR {root} is not a kernel tree (no MAINTAINERS or Makefile)")
    scope = root / subdir if subdir else root
    if subdir and not scope.is_dir():
        raise UsageError(f"M={subdir} is not a directory under {root}")
    if not has_c_files(scope):
        raise UsageError(f"{scope} holds no C files")
    return root


def kernel_version(root: Path) -> str:
    """VERSION.PATCHLEVEL.SUBLEVEL from the top Makefile, or 'unknown'."""
    try:
        text = (root / "Makefile").read_text(errors="replace")
    except OSError:
        return "unknown"
    fields = {}
    for key in ("VERSION", "PATCHLEVEL", "SUBLEVEL"):
        m = re.search(rf"^{key}\s*=\s*(\d+)", text, re.M)
        if not m:
            return "unknown"
        fields[key] = m.group(1)
    return "{VERSION}.{PATCHLEVEL}.{SUBLEVEL}".format(**fields)


def load(kdir: str | None, subdir: str | None = None, need_kernel: bool = False) -> KernelTree:
    """The tree a request names, resolved and checked once."""
    root = resolve(kdir, subdir, need_kernel)
    if subdir and not (root / subdir).resolve().is_relative_to(root):
        raise UsageError(f"--subdir {subdir} is outside {root}")
    return dataclasses.replace(at(root), kdir=kdir)


def at(root: Path, use_cache: bool = True) -> KernelTree:
    """The tree object of a folder that needs no checking (a scratch copy,
    a test's fixture): its version and kind read, nothing refused."""
    root = Path(root).resolve()
    return KernelTree(root=root, version=kernel_version(root), is_kernel=is_kernel_tree(root),
                      use_cache=use_cache, checkpatch=script(root, "checkpatch.pl"),
                      get_maintainer=script(root, "get_maintainer.pl"))


def script(root: Path, name: str) -> Script | None:
    """scripts/<name> to run on root's patches, and whether root is a kernel tree for it.

    The tree's own script first; for a tree without scripts/ (a fixture, an
    out-of-tree folder) the default tree's copy, run with --no-tree.
    """
    own = root / "scripts" / name
    if own.is_file() and (root / "MAINTAINERS").is_file() and (root / "Makefile").is_file():
        return Script(own, True)
    fallback = cache_dir() / "src" / SOURCE_PACKAGE / "scripts" / name
    if fallback.is_file():
        return Script(fallback, False)
    return None


def main() -> int:
    """`python3 -m enotty.kernel.tree`: unpack the default tree if needed, print its path."""
    try:
        print(default_tree())
    except (UsageError, OSError, subprocess.CalledProcessError) as err:
        print(f"enotty: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
