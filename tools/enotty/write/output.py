"""Atomic output folders: build beside the destination, swap into place.

The new output is written into `.NAME.tmp-PID` next to the destination and
then exchanged with the old one in one renameat2(RENAME_EXCHANGE) call, so at
every instant DEST is either the whole previous output or the whole new one.
A run killed before the swap leaves DEST untouched; its temporary folder is
removed by the next run (the PID in its name is no longer alive).  Where
renameat2 is missing the swap is two renames, and a run killed between them
is repaired on the next start from `.NAME.old-PID`.
"""
from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import re
import shutil
from pathlib import Path
from typing import Iterator, Mapping

from ..errors import UsageError
from ..packages import pid_alive

RENAME_EXCHANGE = 2
_libc = None


def _renameat2() -> object | None:
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    return getattr(_libc, "renameat2", None)


def exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths; False when the system cannot."""
    fn = _renameat2()
    if fn is None:
        return False
    AT_FDCWD = -100
    rc = fn(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE)  # type: ignore[operator]
    if rc != 0:
        err = ctypes.get_errno()
        if err in (22, 38, 95):   # EINVAL, ENOSYS, EOPNOTSUPP: not supported here
            return False
        raise OSError(err, os.strerror(err), str(a))
    return True


def clean_stale(dest: Path) -> None:
    """Remove leftovers of killed runs; restore DEST if a swap was cut short."""
    if not dest.parent.is_dir():
        return
    pattern = re.compile(rf"^\.{re.escape(dest.name)}\.(tmp|old)-(\d+)$")
    for entry in sorted(dest.parent.iterdir()):
        m = pattern.match(entry.name)
        if not m or pid_alive(int(m.group(2))):
            continue
        if m.group(1) == "old" and not dest.exists():
            os.rename(entry, dest)
        else:
            shutil.rmtree(entry, ignore_errors=True)


OWN_MARKERS = ("SUMMARY.md", "AUDIT.md")


def check_destination(dest: Path) -> None:
    """Refuse, before any work, a DEST this tool may not replace.

    DEST must not exist, or be an empty folder, or a folder an earlier run
    wrote (it holds SUMMARY.md or AUDIT.md): replacing anything else would
    move or delete what the user owns.  Its parent must take a new folder.
    """
    dest = dest.absolute()
    if dest.is_symlink() or (dest.exists() and not dest.is_dir()):
        raise UsageError(f"OUT={dest} exists and is not a folder; name a new or an output folder")
    if dest.is_dir():
        try:
            names = {p.name for p in dest.iterdir()}
        except OSError as err:
            raise UsageError(f"OUT={dest} cannot be read: {err.strerror}")
        if names and not names & set(OWN_MARKERS):
            raise UsageError(f"OUT={dest} is a folder this tool did not write (no SUMMARY.md);"
                             " name a new, empty or earlier output folder")
    probe = dest.with_name(f".{dest.name}.probe-{os.getpid()}")
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        probe.mkdir()
        probe.rmdir()
    except OSError as err:
        raise UsageError(f"OUT={dest} cannot be written: {err.strerror}")


@contextlib.contextmanager
def staged(dest: Path) -> Iterator[Path]:
    """Yield an empty folder; on success it becomes DEST, whole."""
    dest = dest.absolute()
    check_destination(dest)
    clean_stale(dest)
    tmp = dest.with_name(f".{dest.name}.tmp-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    try:
        yield tmp
        publish(tmp, dest)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def write_files(folder: Path, files: Mapping[str, str]) -> None:
    """Each file (path relative to folder -> text), its folders made."""
    for rel, text in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def publish(tmp: Path, dest: Path) -> None:
    """Put tmp in DEST's place; the previous DEST is removed afterwards."""
    if dest.is_symlink() or (dest.exists() and not dest.is_dir()):
        raise UsageError(f"OUT={dest} became something other than a folder; nothing was replaced")
    if not dest.exists():
        os.rename(tmp, dest)
        return
    if exchange(tmp, dest):
        shutil.rmtree(tmp)          # now the previous output
        return
    old = dest.with_name(f".{dest.name}.old-{os.getpid()}")
    os.rename(dest, old)
    os.rename(tmp, dest)
    shutil.rmtree(old)
