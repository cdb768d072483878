"""Where kernel trees come from: the newest linux-source Debian publishes,
Debian 12's linux-source-6.12 (KVER=6.12), or KDIR.

Only this module knows how the default tree is found and unpacked.  A user's
KDIR is only ever read; a Debian tree is unpacked once into the cache.
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
from . import debian

# Debian 12's own source: KVER=6.12, and the tree make check builds and
# boots, because its version never moves (unstable's does).
PINNED_PACKAGE = "linux-source-6.12"
KVERS = ("newest", "6.12")


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
    """The tarball that linux-source-6.12 installs (dpkg -L names it)."""
    res = subprocess.run(["dpkg", "-L", PINNED_PACKAGE], capture_output=True, text=True, check=False)
    for line in res.stdout.splitlines():
        if re.search(r"/linux-source-[\d.]+\.tar\.(xz|bz2|gz)$", line):
            return Path(line)
    raise UsageError(f"{PINNED_PACKAGE} is not installed: {packages.install_line([PINNED_PACKAGE])}")


def pinned_tree() -> Path:
    """Debian 12's 6.12 source, unpacked once into the cache and reused."""
    dest = cache_dir() / "src" / PINNED_PACKAGE
    if (dest / "MAINTAINERS").is_file():
        return dest
    packages.ensure_packages([PINNED_PACKAGE, "xz-utils"], "KVER=6.12")
    tarball = source_tarball()
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".unpack-", dir=dest.parent) as tmp:
        _unpack(tarball, dest, Path(tmp))
    return dest


def newest_tree() -> Path:
    """The newest linux-source Debian publishes (unstable's), fetched by
    apt into the cache once per Debian version and reused.  Without the
    network, the newest one already in the cache answers."""
    src = cache_dir() / "src"
    state = cache_dir() / "apt"
    try:
        debian.refresh_index(state)
        package = debian.newest(state)
    except debian.FetchError as err:
        cached = cached_newest()
        if cached is None:
            raise UsageError(f"cannot fetch the newest linux-source from Debian {debian.SUITE} ({err});"
                             " KVER=6.12 uses Debian 12's linux-source-6.12, KDIR=DIR any other tree")
        print(f"enotty: cannot ask Debian {debian.SUITE} ({err}); using {cached.name} from the cache",
              file=sys.stderr)
        return cached
    dest = src / package.folder
    if (dest / "MAINTAINERS").is_file():
        return dest
    packages.ensure_packages(["xz-utils"], "unpacking the kernel source")
    src.mkdir(parents=True, exist_ok=True)
    print(f"enotty: fetching {package.name} {package.version} from Debian {debian.SUITE}", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix=".unpack-", dir=src) as tmp:
        _unpack(debian.download(package, state, Path(tmp)), dest, Path(tmp))
    return dest


def cached_newest() -> Path | None:
    """The newest tree newest_tree() unpacked before, by kernel version."""
    trees = [p for p in (cache_dir() / "src").glob("linux-source-*_*") if (p / "MAINTAINERS").is_file()]
    if not trees:
        return None
    return max(trees, key=lambda p: _version_key(kernel_version(p)))


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(x) for x in version.split(".")) if re.fullmatch(r"[\d.]+", version) else ()


def _unpack(tarball: Path, dest: Path, tmp: Path) -> None:
    """tarball's one top-level folder renamed into dest (whole, or not at all)."""
    print(f"enotty: unpacking {tarball.name} into {dest.parent}", file=sys.stderr)
    into = tmp / "tree"
    into.mkdir()
    # tar(1) is several times faster than tarfile on a 140 MB xz archive.
    subprocess.run(["tar", "-xf", str(tarball), "-C", str(into)], check=True)
    unpacked = [p for p in into.iterdir() if p.is_dir()]
    if len(unpacked) != 1:
        raise UsageError(f"{tarball}: expected one top-level folder, found {len(unpacked)}")
    if dest.exists():
        shutil.rmtree(dest)
    unpacked[0].rename(dest)


def default_tree(kver: str | None = None) -> Path:
    """The Debian tree KVER names: the newest (default) or 6.12."""
    kver = kver or "newest"
    if kver not in KVERS:
        raise UsageError(f"KVER={kver}: the Debian trees are {' and '.join(KVERS)}"
                         " (KDIR=DIR for any other tree)")
    return pinned_tree() if kver == "6.12" else newest_tree()


def for_version(version: str) -> Path:
    """The Debian tree of this kernel version: one in the cache, else the
    one KVER would fetch, refused when Debian no longer serves it."""
    for folder in sorted((cache_dir() / "src").glob("linux-source-*")):
        if (folder / "MAINTAINERS").is_file() and kernel_version(folder) == version:
            return folder
    root = default_tree("6.12" if version.startswith("6.12.") else None)
    if kernel_version(root) != version:
        raise UsageError(f"the output is for Linux {version}, and Debian now serves"
                         f" {kernel_version(root)}: KDIR= a {version} tree to check it")
    return root


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


def resolve(kdir: str | None, subdir: str | None = None, need_kernel: bool = False,
            kver: str | None = None) -> Path:
    """The tree to work on, checked: KDIR, or the Debian tree KVER names.

    need_kernel: the caller needs MAINTAINERS and the top Makefile (series
    splitting, builds); a plain directory of C files is enough otherwise.
    """
    if kdir and kver:
        raise UsageError("KDIR= and KVER= both name a tree: give one")
    root = Path(kdir).expanduser().resolve() if kdir else default_tree(kver)
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


def load(kdir: str | None, subdir: str | None = None, need_kernel: bool = False,
         kver: str | None = None) -> KernelTree:
    """The tree a request names, resolved and checked once."""
    root = resolve(kdir, subdir, need_kernel, kver)
    if subdir and not (root / subdir).resolve().is_relative_to(root):
        raise UsageError(f"--subdir {subdir} is outside {root}")
    return dataclasses.replace(at(root), kdir=kdir, kver=None if kdir else (kver or "newest"))


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
    out-of-tree folder) the copy of a Debian tree in the cache (6.12's
    first, whose version does not move), run with --no-tree.
    """
    own = root / "scripts" / name
    if own.is_file() and (root / "MAINTAINERS").is_file() and (root / "Makefile").is_file():
        return Script(own, True)
    newest = cached_newest()
    for debian_tree in (cache_dir() / "src" / PINNED_PACKAGE, newest):
        if debian_tree is not None and (debian_tree / "scripts" / name).is_file():
            return Script(debian_tree / "scripts" / name, False)
    return None


def main(argv: list[str]) -> int:
    """`python3 -m enotty.kernel.tree [KVER]`: fetch and unpack that Debian
    tree if needed (default: the newest), print its path."""
    try:
        print(default_tree(argv[0] if argv else None))
    except (UsageError, OSError, subprocess.CalledProcessError) as err:
        print(f"enotty: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
