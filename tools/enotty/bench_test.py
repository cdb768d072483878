"""bench: the coccicheck command line and the table."""
from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from enotty import bench


def test_coccicheck_command(tmp_path: Path) -> None:
    cmd = bench.coccicheck_command(tmp_path / "tree", tmp_path / "r.cocci", "drivers/watchdog")
    assert cmd == ["make", "-C", str(tmp_path / "tree"), "coccicheck", "MODE=patch", "J=2",
                   f"COCCI={tmp_path / 'r.cocci'}", "M=drivers/watchdog"]
    assert "M=" not in " ".join(bench.coccicheck_command(tmp_path, tmp_path / "r.cocci", None))


def test_table_ratios() -> None:
    text = bench.table([bench.Row("cold", 10.0, "100"), bench.Row("warm", 1.0, "0"),
                        bench.Row("coccicheck", 50.0, "<=900", "exit 0")])
    lines = text.splitlines()
    assert lines[0].split()[:2] == ["run", "wall"]
    assert lines[1].split()[:4] == ["cold", "10.0", "100", "1.00"]
    assert lines[2].split()[3] == "0.10" and lines[3].split()[3] == "5.00"


@pytest.mark.skipif(shutil.which("spatch") is None, reason="needs spatch")
def test_bench_on_the_fixture_tree(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("ENOTTY_CACHE", str(tmp_path))
    kernel = Path(__file__).parent / "testdata" / "series" / "kernel"
    rows = bench.run(str(kernel), None)
    assert [r.name for r in rows] == ["cold", "warm", "coccicheck"]
    assert rows[0].files == "7" and rows[1].files == "0"        # warm: all from the cache
    assert "no scripts/coccicheck" in rows[2].note


def test_run_limited_kills_the_whole_group_on_timeout(tmp_path: Path) -> None:
    marker = tmp_path / "child-still-ran"
    # A parent that starts a child and waits, like make and its spatch workers.
    cmd = ["sh", "-c", f"(sleep 2; touch {marker}) & wait"]
    code, _ = bench.run_limited(cmd, 0.5)
    assert code is None
    time.sleep(2.5)
    assert not marker.exists(), "the child outlived the timeout"
    code, out = bench.run_limited(["sh", "-c", "echo '+++ b/x.c'; exit 3"], 10)
    assert code == 3 and "+++ b/x.c" in out
