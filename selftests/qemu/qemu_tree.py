"""One work copy of the kernel tree, with a patch set applied by content.

The work tree is a hard-link copy (cp -al) of the user's tree, so it costs
seconds and no space.  A file is only ever changed by writing a new file
and renaming it over the old name, which breaks the hard link: the user's
tree is never written to.

Switching patch sets (pristine, patched, mutant) computes the wanted
content of every file any patch set touched, from the source tree plus the
patches, and replaces only the files whose content differs.  Replaced
files get a fresh mtime, so Kbuild recompiles exactly those.  The list of
files that may differ from the source is written before anything changes,
so a run interrupted half-way is repaired by the next one.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from enotty.errors import UsageError

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
    """A series' patch files in order, without the cover letter."""
    if not series_dir.is_dir():
        raise UsageError(f"series folder {series_dir} does not exist "
                         "(run `make patches` first)")
    patches = sorted(p for p in series_dir.glob("[0-9][0-9][0-9][0-9]-*.patch")
                     if not p.name.startswith("0000-"))
    if not patches:
        raise UsageError(f"series folder {series_dir} holds no NNNN-*.patch files")
    return patches


def ensure_work_tree(source: Path, work: Path) -> bool:
    """Hard-link copy of source at work; True when it was (re)created.

    A marker file names the source; a different source means a new copy.
    """
    # A symlinked source (e.g. a cache whose src/ links elsewhere) must be
    # copied as the folder it names, never as a link back into it.
    source = source.resolve()
    marker = work.parent / (work.name + ".source")
    if not work.is_symlink() and work.is_dir() and marker.is_file() and marker.read_text().strip() == str(source):
        return False
    if work.is_symlink():
        work.unlink()
    elif work.exists():
        shutil.rmtree(work)
    tmp = work.parent / (work.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    work.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cp", "-al", str(source), str(tmp)], check=True)
    tmp.rename(work)
    marker.write_text(f"{source}\n")
    return True


def wanted_contents(source: Path, files: list[str], patches: list[Path]) -> dict[str, bytes | None]:
    """Content of each file after applying patches to source (None: absent)."""
    with tempfile.TemporaryDirectory(prefix="enotty-qemu-apply-") as scratch:
        root = Path(scratch)
        for rel in files:
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
        for rel in files:
            path = root / rel
            out[rel] = path.read_bytes() if path.is_file() else None
        return out


def replace_file(path: Path, content: bytes | None) -> None:
    """Write content by rename (new inode, fresh mtime), or remove the file."""
    if content is None:
        if path.exists():
            path.unlink()
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".enotty-", dir=path.parent)
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


def apply_patch_set(source: Path, work: Path, patches: list[Path], state: Path) -> list[str]:
    """Make work == source + patches by content; the files rewritten.

    state: the file listing paths that may differ from source.
    """
    if work.is_symlink() or work.resolve() == source.resolve():
        raise UsageError(f"work tree {work} is (a link to) the source tree; refusing to patch it")
    touched: list[str] = []
    for patch in patches:
        for rel in touched_files(patch.read_text(errors="replace")):
            if rel not in touched:
                touched.append(rel)
    previous = _read_list(state)
    everything = sorted(set(previous) | set(touched))
    wanted = wanted_contents(source, everything, patches)
    # Say what may change before changing it: an interrupted run is undone
    # by the next one.
    replace_file(state, "".join(f"{rel}\n" for rel in everything).encode())
    changed = []
    root = work.resolve()
    for rel in everything:
        path = work / rel
        if root not in path.resolve().parents:
            raise UsageError(f"{rel} leaves the work tree {work}; refusing to write it")
        current = path.read_bytes() if path.is_file() else None
        if current != wanted[rel]:
            replace_file(path, wanted[rel])
            changed.append(rel)
    replace_file(state, "".join(f"{rel}\n" for rel in sorted(touched)).encode())
    return changed
