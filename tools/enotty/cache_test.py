"""The content-keyed JSON cache: keys, round trips, damage and no space."""
from __future__ import annotations

from pathlib import Path

from . import cache


def test_keys_separate_their_parts() -> None:
    assert cache.key("ab", "c") != cache.key("a", "bc") != cache.key("abc")
    assert cache.key("a", "b") == cache.key("a", "b") and len(cache.key()) == 64
    assert cache.digest(b"x") == cache.digest(b"x") != cache.digest(b"y")


def test_round_trip_and_atomic_files(tmp_path: Path) -> None:
    store = cache.JsonCache(tmp_path / "c")
    k = cache.key("x")
    assert store.get(k) is None
    assert store.put(k, {"status": "ok", "to": ["a <a@b>"]})
    assert store.get(k) == {"status": "ok", "to": ["a <a@b>"]}
    assert store.path(k).parent.name == k[:2]
    assert [p.name for p in store.path(k).parent.iterdir()] == [f"{k}.json"]   # no temporary left


def test_damaged_record_is_a_miss(tmp_path: Path) -> None:
    store = cache.JsonCache(tmp_path)
    k = cache.key("x")
    store.put(k, [1])
    store.path(k).write_text('{"half')
    assert store.get(k) is None


def test_unwritable_cache_costs_nothing_but_time(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("a file where the folder should be")
    assert not cache.JsonCache(tmp_path / "file").put(cache.key("x"), 1)
