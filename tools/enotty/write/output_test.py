"""Atomic output: a crash mid-write keeps the previous output; a run replaces it whole."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from . import output


def test_first_run_creates_and_second_run_replaces_whole(tmp_path: Path) -> None:
    dest = tmp_path / "linux-6.12.0"
    with output.staged(dest) as stage:
        (stage / "old-series").mkdir()
        (stage / "old-series" / "0001-a.patch").write_text("first\n")
        (stage / "SUMMARY.md").write_text("first\n")
    assert (dest / "SUMMARY.md").read_text() == "first\n"
    with output.staged(dest) as stage:
        (stage / "SUMMARY.md").write_text("second\n")
    assert sorted(p.name for p in dest.iterdir()) == ["SUMMARY.md"], "nothing of the first run is left"
    assert (dest / "SUMMARY.md").read_text() == "second\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["linux-6.12.0"], "no temporary folder left"


def test_an_exception_mid_write_keeps_the_previous_output(tmp_path: Path) -> None:
    dest = tmp_path / "out"
    with output.staged(dest) as stage:
        (stage / "SUMMARY.md").write_text("good\n")
    with pytest.raises(KeyboardInterrupt):
        with output.staged(dest) as stage:
            (stage / "SUMMARY.md").write_text("half\n")
            raise KeyboardInterrupt
    assert (dest / "SUMMARY.md").read_text() == "good\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_a_killed_process_keeps_the_previous_output_and_the_next_run_cleans_up(tmp_path: Path) -> None:
    dest = tmp_path / "out"
    with output.staged(dest) as stage:
        (stage / "SUMMARY.md").write_text("good\n")
    script = textwrap.dedent(f"""
        import os, signal
        from pathlib import Path
        from enotty.write import output
        with output.staged(Path({str(dest)!r})) as stage:
            (stage / "SUMMARY.md").write_text("half")
            os.kill(os.getpid(), signal.SIGKILL)
    """)
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    res = subprocess.run([sys.executable, "-c", script], env=env, check=False)
    assert res.returncode == -9
    assert (dest / "SUMMARY.md").read_text() == "good\n"
    leftovers = [p.name for p in tmp_path.iterdir() if p.name != "out"]
    assert len(leftovers) == 1 and leftovers[0].startswith(".out.tmp-")
    with output.staged(dest) as stage:
        (stage / "SUMMARY.md").write_text("new\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    assert (dest / "SUMMARY.md").read_text() == "new\n"


def test_swap_cut_short_without_renameat2_is_repaired(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dest = tmp_path / "out"
    dest.mkdir()
    (dest / "SUMMARY.md").write_text("good\n")
    # what a run killed between its two renames leaves (pid 999999 is not alive)
    os.rename(dest, tmp_path / ".out.old-999999")
    output.clean_stale(dest)
    assert (dest / "SUMMARY.md").read_text() == "good\n"
    monkeypatch.setattr(output, "exchange", lambda a, b: False)
    with output.staged(dest) as stage:
        (stage / "SUMMARY.md").write_text("new\n")
    assert (dest / "SUMMARY.md").read_text() == "new\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_exchange_swaps(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "x").write_text("a")
    (b / "x").write_text("b")
    if not output.exchange(a, b):
        pytest.skip("renameat2(RENAME_EXCHANGE) not supported here")
    assert (a / "x").read_text() == "b" and (b / "x").read_text() == "a"


def test_destination_checks(tmp_path: Path) -> None:
    from ..errors import UsageError
    output.check_destination(tmp_path / "new" / "out")          # nothing there yet: fine
    (tmp_path / "empty").mkdir()
    output.check_destination(tmp_path / "empty")
    (tmp_path / "earlier").mkdir()
    (tmp_path / "earlier" / "SUMMARY.md").write_text("x")
    output.check_destination(tmp_path / "earlier")
    (tmp_path / "file").write_text("mine")
    with pytest.raises(UsageError, match="not a folder"):
        output.check_destination(tmp_path / "file")
    (tmp_path / "link").symlink_to(tmp_path / "earlier")
    with pytest.raises(UsageError, match="not a folder"):
        output.check_destination(tmp_path / "link")
    (tmp_path / "users").mkdir()
    (tmp_path / "users" / "a.txt").write_text("mine")
    with pytest.raises(UsageError, match="did not write"):
        output.check_destination(tmp_path / "users")
    with pytest.raises(UsageError, match="did not write"):
        with output.staged(tmp_path / "users"):
            pass
    assert (tmp_path / "users" / "a.txt").read_text() == "mine"
