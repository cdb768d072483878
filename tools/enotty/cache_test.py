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


def test_a_stage_memo_makes_its_result_once_and_remakes_a_damaged_one(tmp_path: Path) -> None:
    made: list[int] = []

    def make() -> dict[str, int]:
        made.append(1)
        return {"sites": len(made)}

    memo = cache.StageMemo(tmp_path, cache.key("stage", "tree"))
    assert memo.get_or_make(make) == {"sites": 1}
    assert memo.get_or_make(make) == {"sites": 1} and len(made) == 1     # kept, not made again
    assert cache.StageMemo(tmp_path, cache.key("stage", "other tree")).get_or_make(make) == {"sites": 2}
    memo.path.write_bytes(b"\x80\x04half")
    assert memo.get_or_make(make) == {"sites": 3}
    assert not [p for p in memo.path.parent.iterdir() if p.name.startswith(".tmp-")]


def test_the_code_digest_names_the_projects_files() -> None:
    # the stage memos follow from every file of tools/enotty and cocci/
    assert len(cache.code_digest()) == 64 and cache.code_digest() == cache.code_digest()
