"""bench: coccicheck gets the scan's rules and options; the table; a real
small coccicheck run."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from . import bench
from ..find import rules, scan
from ..kernel import tree
from ..requests import BenchRequest

DEFAULT = tree.cache_dir() / "src" / tree.PINNED_PACKAGE


def test_coccicheck_gets_exactly_the_scans_options(tmp_path: Path) -> None:
    """MODE=patch (-D patch) + the rule file's // Options: + SPFLAGS is what
    the scan gives spatch, plus its Python, macro file and timeout."""
    macros = tmp_path / "macros.h"
    scan_opts, file_opts = list(scan.spatch_options()), rules.spatch_options()
    flags = bench.coccicheck_flags(scan_opts, file_opts, macros, 120)
    assert sorted(["-D", "patch", *file_opts, *flags]) == sorted(
        [*scan_opts, *scan.PYTHON_OPTIONS, "--macro-file-builtins", str(macros), "--timeout", "120"])
    assert flags[-6:] == [*scan.PYTHON_OPTIONS, "--macro-file-builtins", str(macros), "--timeout", "120"]
    # An option coccicheck does not already give stays, even if it repeats.
    assert bench.coccicheck_flags(["-D", "patch", "-D", "tsv", "--x", "--x"], ["--x"], macros, 5)[:3] == \
        ["-D", "tsv", "--x"]


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
    kernel = Path(__file__).parents[1] / "testdata" / "series" / "kernel"
    rows = bench.run(BenchRequest(tree=tree.load(str(kernel)), jobs=1))
    assert [r.name for r in rows] == ["cold", "warm", "phase 1 warm", "coccicheck"]
    assert rows[0].files == "7" and rows[1].files == "0"        # warm: all from the cache
    assert rows[2].files == "7"                                 # the per-file cache empty again
    assert rows[0].note.split(", ")[-1] == rows[2].note.split(", ")[-1]   # the same sites
    assert "no scripts/coccicheck" in rows[3].note
    assert not list(tmp_path.glob("enotty-bench-*")), "the temporary folder is removed"


@pytest.mark.skipif(shutil.which("spatch") is None or not (DEFAULT / "scripts" / "coccicheck").is_file(),
                    reason="needs spatch and the default tree (make check unpacks it)")
def test_REAL_COCCICHECK_finds_the_scans_sites_with_its_options() -> None:
    # security/loadpin: one .c file, one site; the copy of the tree costs
    # most of the time (seconds).
    kernel = tree.load(None, "security/loadpin", kver="6.12")
    before = (DEFAULT / "security" / "loadpin" / "loadpin.c").stat()
    rows = bench.run(BenchRequest(tree=kernel, subdir="security/loadpin", jobs=1))
    cold, _, _, cocci = rows
    assert cold.note.endswith(", 1 sites")
    # The site line comes from -D tsv, which only SPFLAGS passes: coccicheck's
    # spatch ran with the scan's options, and found what the scan found.
    assert cocci.note == "exit 0, diff for 1 files, 1 sites (the scan's)", cocci.note
    after = (DEFAULT / "security" / "loadpin" / "loadpin.c").stat()
    assert (after.st_mtime_ns, after.st_ino) == (before.st_mtime_ns, before.st_ino)
