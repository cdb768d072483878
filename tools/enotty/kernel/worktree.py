"""Scratch kernel trees: the one module that copies a kernel tree and patches the copy.

A work tree is a hard-link copy (`cp -al`) of a read-only source tree, so
it costs seconds and no space.  A file of the copy is only ever changed by
writing a new file and renaming it over the old name: the rename breaks
the hard link, so the source tree's inodes are never written.

The copy is brought to a state by content: set_files() (or apply(), which
computes the contents from patch files) makes the copy equal the source
plus the given files, rewriting only the files whose content differs.  A
rewritten file gets a fresh mtime, so Kbuild recompiles exactly those,
reverts included (a revert is written as a copy of the pristine file, not
linked back to it: the old inode's old mtime would hide the change from
make).  The manifest lists every file that may differ from the source; it
is written before anything changes, so a run interrupted half-way is
repaired by the next one.

Typical use (verify's build, the QEMU runner, bench, the audit):

    wt = WorkTree(source=kernel.root, path=tree.cache_dir() / "x" / "tree")
    with wt.locked():               # one run at a time uses a copy
        wt.ensure()                 # the copy, once; True when (re)made
        wt.apply(patch_files)       # == source + patches; the files rewritten
        ...                         # make -C wt.path O=... env=kbuild_env()
        wt.restore()                # == source again (or leave it: the next
                                    # apply/set_files/restore repairs it)
"""
from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Mapping, Sequence

from ..errors import UsageError

# Variables of a calling make (`make patches M=drivers/media` passes M= down
# in MAKEFLAGS) that would turn kbuild into an external-module build, put
# objects elsewhere or pick another compiler.
_CALLER_MAKE_VARIABLES = (
    "MAKEFLAGS", "MAKEOVERRIDES", "MFLAGS", "MAKELEVEL", "MAKE_TERMOUT", "MAKE_TERMERR",
    "M", "O", "KDIR", "OUT", "V", "W", "C", "ARCH", "CROSS_COMPILE", "CC", "LLVM",
    "SERIES", "SERIES_DIR", "MUTANT", "JOBS",
)


def kbuild_env(ccache_dir: Path | None = None) -> dict[str, str]:
    """The environment for a kbuild `make`: ours without the calling make's
    variables; with ccache_dir, ccache's cache folder set to it (our own
    folder: other builds do not evict it, and its absence is exactly the
    cold cost of a fresh machine)."""
    env = {k: v for k, v in os.environ.items() if k not in _CALLER_MAKE_VARIABLES}
    if ccache_dir is not None:
        env["CCACHE_DIR"] = str(ccache_dir)
    return env


# ---------------------------------------------------------------- patch files

_DIFF_PATH = re.compile(r"^(?:---|\+\+\+) (?:[ab]/)?(\S+)")


def touched_files(patch_text: str) -> list[str]:
    """Tree-relative paths a unified diff (git format-patch mbox) touches."""
    out: list[str] = []
    for line in patch_text.splitlines():
        m = _DIFF_PATH.match(line)
        if m and m.group(1) != "/dev/null" and m.group(1) not in out:
            out.append(m.group(1))
    return out


def series_patches(series_dir: Path) -> list[Path]:
    """A series folder's NNNN-*.patch files in order, without the cover letter."""
    if not series_dir.is_dir():
        raise UsageError(f"series folder {series_dir} does not exist "
                         "(run `make patches` first)")
    patches = sorted(p for p in series_dir.glob("[0-9][0-9][0-9][0-9]-*.patch")
                     if not p.name.startswith("0000-"))
    if not patches:
        raise UsageError(f"series folder {series_dir} holds no NNNN-*.patch files")
    return patches


def patched_contents(source: Path, patches: Sequence[Path],
                     files: Sequence[str] = ()) -> dict[str, bytes | None]:
    """Content of every file the patches touch (and of `files`) after
    applying the patches in order to source; None: the file is absent.
    Raises UsageError naming the first patch that does not apply."""
    wanted = list(files)
    for patch in patches:
        for rel in touched_files(patch.read_text(errors="replace")):
            if rel not in wanted:
                wanted.append(rel)
    with tempfile.TemporaryDirectory(prefix="enotty-apply-") as scratch:
        root = Path(scratch)
        for rel in wanted:
            src = source / rel
            if src.is_file():
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, root / rel)
        for patch in patches:
            res = subprocess.run(
                ["patch", "-p1", "-f", "-s", "--no-backup-if-mismatch", "-d", str(root),
                 "-i", str(patch.resolve())],
                capture_output=True, text=True, check=False)
            if res.returncode != 0:
                detail = (res.stdout + res.stderr).strip().splitlines()
                raise UsageError(f"{patch.name} does not apply to {source}: "
                                 f"{detail[0] if detail else 'patch failed'}")
        out: dict[str, bytes | None] = {}
        for rel in wanted:
            path = root / rel
            out[rel] = path.read_bytes() if path.is_file() else None
        return out


def applies(source: Path, patch: Path) -> bool:
    """Whether patch applies to source as it is."""
    try:
        patched_contents(source, [patch])
    except UsageError:
        return False
    return True


# ---------------------------------------------------------------- files

def replace_file(path: Path, content: bytes | None) -> None:
    """Write content as a new file renamed over path (a new inode and a
    fresh mtime; a hard link's other names keep the old content), or remove
    path (None).  The mode of the file replaced is kept."""
    if content is None:
        if path.is_symlink() or path.exists():
            path.unlink()
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".enotty-tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(content)
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _read_list(path: Path) -> list[str]:
    if not path.is_file():
        return []
    return [line for line in path.read_text().splitlines() if line]


def _write_list(path: Path, rels: Sequence[str]) -> None:
    replace_file(path, "".join(f"{rel}\n" for rel in rels).encode())


# ---------------------------------------------------------------- the work tree

@dataclass(frozen=True)
class WorkTree:
    """A hard-link copy at `path` of the read-only `source` tree.

    Beside the copy (never inside it, so kbuild and the scan see only the
    tree): PATH.source names the source it was copied from, PATH.manifest
    (or manifest_path) lists the files that may differ from the source, and
    .PATH.lock serialises the runs that use the copy.
    """
    source: Path
    path: Path
    manifest_path: Path | None = None    # default: PATH.manifest

    def __post_init__(self) -> None:
        # A symlinked source (a cache whose src/ links elsewhere) is copied
        # as the folder it names, never as a link back into it.
        object.__setattr__(self, "source", Path(self.source).resolve())
        object.__setattr__(self, "path", Path(self.path).absolute())

    @property
    def manifest(self) -> Path:
        return self.manifest_path or self._beside("manifest")

    def _beside(self, suffix: str) -> Path:
        return self.path.parent / f"{self.path.name}.{suffix}"

    @contextmanager
    def locked(self) -> Iterator[WorkTree]:
        """Hold the copy's lock (blocking) for the duration of the block."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path.parent / f".{self.path.name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            yield self

    def ensure(self) -> bool:
        """Make the copy unless it exists for this source; True when (re)made.

        A copy of another source, or one without its marker (an older
        layout, a half-made copy), is replaced by a fresh copy; the
        manifest of the old copy goes with it.
        """
        marker = self._beside("source")
        if (not self.path.is_symlink() and self.path.is_dir() and marker.is_file()
                and marker.read_text().strip() == str(self.source)):
            return False
        if self.path.is_symlink():
            self.path.unlink()
        elif self.path.exists():
            shutil.rmtree(self.path)
        tmp = self._beside("tmp")
        if tmp.exists():
            shutil.rmtree(tmp)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        res = subprocess.run(["cp", "-al", str(self.source), str(tmp)],
                             capture_output=True, text=True, check=False)
        if res.returncode != 0:
            shutil.rmtree(tmp, ignore_errors=True)
            why = res.stderr.strip().splitlines()
            raise UsageError(f"cannot copy {self.source} to {tmp} (cp -al): "
                             f"{why[-1] if why else f'exit {res.returncode}'}")
        self.manifest.unlink(missing_ok=True)
        tmp.rename(self.path)
        replace_file(marker, f"{self.source}\n".encode())
        return True

    def differing(self) -> list[str]:
        """The files the manifest says may differ from the source."""
        return _read_list(self.manifest)

    def set_files(self, files: Mapping[str, bytes | None]) -> list[str]:
        """Make the copy equal the source plus `files` (rel -> content, None:
        absent); the files rewritten, in order."""
        if self.path.is_symlink() or self.path.resolve() == self.source:
            raise UsageError(f"work tree {self.path} is (a link to) the source tree; "
                             "refusing to write it")
        everything = sorted(set(self.differing()) | set(files))
        root = self.path.resolve()
        for rel in everything:
            if root not in (self.path / rel).resolve().parents:
                raise UsageError(f"{rel} leaves the work tree {self.path}; refusing to write it")
        # Say what may change before changing it: an interrupted run is
        # undone by the next one.
        _write_list(self.manifest, everything)
        changed = []
        for rel in everything:
            if rel in files:
                wanted = files[rel]
            else:
                pristine = self.source / rel
                wanted = pristine.read_bytes() if pristine.is_file() else None
            path = self.path / rel
            current = path.read_bytes() if path.is_file() else None
            if current != wanted:
                replace_file(path, wanted)
                changed.append(rel)
        _write_list(self.manifest, sorted(files))
        return changed

    def apply(self, patches: Sequence[Path]) -> list[str]:
        """Make the copy equal the source plus the patches (in order) by
        content; the files rewritten.  A patch that does not apply raises
        UsageError and leaves the copy as it was."""
        return self.set_files(patched_contents(self.source, patches))

    def restore(self) -> list[str]:
        """Make the copy equal the source again; the files rewritten."""
        return self.set_files({})
