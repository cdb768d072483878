"""`python3 -m enotty qemu-test`: labels, patch sets, the default series, usage errors."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from enotty import cli
from enotty.errors import UsageError
from enotty.qemutest import run as qemu_run

TOOLS = Path(__file__).resolve().parents[2]


def test_run_label():
    assert qemu_run.run_label("none", None) == "none"
    assert qemu_run.run_label("media", "einval") == "media+einval"


def test_patch_set_order(tmp_path: Path):
    (tmp_path / "0000-cover-letter.patch").write_text("")
    (tmp_path / "0001-x.patch").write_text("")
    assert qemu_run.patch_set(tmp_path, "none", None) == []
    assert qemu_run.patch_set(tmp_path, "none", "einval") == [qemu_run.MUTANTS["einval"]]
    got = qemu_run.patch_set(tmp_path, "media", "einval", series_dir=tmp_path)
    assert [p.name for p in got] == ["0001-x.patch", "mutant-einval.patch"]


def test_missing_series_is_one_clear_line(tmp_path: Path):
    with pytest.raises(UsageError, match="SERIES=none for the pristine kernel"):
        qemu_run.patch_set(tmp_path, "media", None, series_dir=tmp_path / "media")


def test_default_is_the_media_series():
    # A new user's `make qemu-test` must boot the series that passes, not
    # the pristine kernel that fails by design.
    parser = cli.build_parser()
    assert parser.parse_args(["qemu-test"]).series == "media"
    assert parser.parse_args(["qemu-test", "--series", "none"]).series == "none"
    assert parser.parse_args(["qemu-test"]).timeout == 600


def test_mutant_patch_reverts_the_core_answer():
    text = qemu_run.MUTANTS["einval"].read_text()
    assert "-\t\tret = -ENOTTY;" in text and "+\t\tret = -EINVAL;" in text


def test_bad_usage_exits_2(tmp_path: Path):
    env = {"PYTHONPATH": str(TOOLS), "PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", "/")}
    res = subprocess.run([sys.executable, "-m", "enotty", "qemu-test", "--kdir", str(tmp_path)],
                         capture_output=True, text=True, env=env, check=False)
    assert res.returncode == 2
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("enotty: ")
    res = subprocess.run([sys.executable, "-m", "enotty", "qemu-test", "--series", "bogus"],
                         capture_output=True, text=True, env=env, check=False)
    assert res.returncode == 2 and res.stderr.count("\n") == 1
