"""Results kept by content: one small JSON file per key.

A key is the sha256 of everything a result follows from (file contents,
script contents, options, the tree); a changed input is a new key, so
nothing is ever invalidated, only no longer asked for.  Records are written
to a temporary name and renamed, so a reader (another run, an interrupted
one) never sees half a record; a cache that cannot be written costs time,
not results.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import pickle
import tempfile
from pathlib import Path
from typing import Any, Callable, TypeVar

T = TypeVar("T")


def digest(data: bytes) -> str:
    """sha256 of data, hex: a file's content in a key."""
    return hashlib.sha256(data).hexdigest()


def key(*parts: str) -> str:
    """One key from the parts, in order; no two part lists share one."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode()
        h.update(len(data).to_bytes(8, "little") + data)
    return h.hexdigest()


class JsonCache:
    """JSON records by key under folder/KEY[:2]/KEY.json."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path(self, k: str) -> Path:
        return self.folder / k[:2] / f"{k}.json"

    def get(self, k: str) -> Any:
        """The record, or None: absent, unreadable or not JSON."""
        try:
            return json.loads(self.path(k).read_text())
        except (OSError, ValueError):
            return None

    def put(self, k: str, record: Any) -> bool:
        """Store the record; False when the cache could not be written."""
        return _write_atomically(self.path(k), json.dumps(record).encode())


def _write_atomically(path: Path, data: bytes) -> bool:
    """data into path through a temporary name renamed into place, so a
    reader never sees half a record; False when it could not be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        return False
    return True


def code_digest() -> str:
    """The project's code and data (tools/enotty, cocci/) in a key: a stage
    memo (StageMemo) follows from all of it, since following what one stage
    imports would be a list to keep true by hand."""
    return _code_digest()


@functools.cache
def _code_digest() -> str:
    top = Path(__file__).resolve().parents[2]
    h = hashlib.sha256()
    for base in (top / "tools" / "enotty", top / "cocci"):
        for path in sorted(p for p in base.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            h.update(str(path.relative_to(top)).encode() + b"\0" + digest(path.read_bytes()).encode())
    return h.hexdigest()


class StageMemo:
    """A whole stage's result over a tree that never changes (a Debian
    source this tool unpacked into the cache), kept by a key of everything
    it follows from: the project's code (code_digest()), the tree and the
    stage's inputs.  The warm rerun of `make patches` then reads the tree
    once less.  Pickled, to a temporary name renamed into place; an
    unreadable record is recomputed."""

    def __init__(self, folder: Path, k: str) -> None:
        self.path = folder / k[:2] / f"{k}.pickle"

    def get_or_make(self, make: Callable[[], T]) -> T:
        path = self.path
        try:
            with open(path, "rb") as f:
                found: T = pickle.load(f)
            return found
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError):
            pass
        made = make()
        _write_atomically(path, pickle.dumps(made))
        return made
