"""analyse_tree(): the judge stage's result kept for a tree nobody edits."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from . import analysis
from ..find.scan import ScanResult
from ..find.sites import Site
from ..kernel import tree


def _scanned(root: Path, *functions: str) -> ScanResult:
    sites = [Site("drivers/x.c", 10, f, "file_operations.unlocked_ioctl", "EINVAL", "ENOTTY", "r")
             for f in functions]
    return ScanResult(root, root, sites, {}, [], [], 1, 1, 0, 0, 0, 0.0, 0.0)


@pytest.mark.parametrize("kver, use_cache, kept", [("newest", True, True), (None, True, False),
                                                    ("6.12", False, False)])
def test_the_judge_stage_is_kept_only_for_a_debian_tree_with_the_cache_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kver: str | None, use_cache: bool, kept: bool) -> None:
    calls: list[int] = []

    def fake(root: Path, scanned: ScanResult) -> analysis.Analysed:
        calls.append(1)
        return analysis.Analysed(scanned, tuple(scanned.sites), {})

    monkeypatch.setattr(analysis, "analyse", fake)
    kernel = dataclasses.replace(tree.at(tmp_path), kver=kver, use_cache=use_cache, caches=tmp_path / "cache")
    first = analysis.analyse_tree(kernel, _scanned(tmp_path, "a_ioctl"))
    again = _scanned(tmp_path, "a_ioctl")
    second = analysis.analyse_tree(kernel, again)
    assert len(calls) == (1 if kept else 2)
    # the kept result carries this run's scan, not the first run's
    assert second.scanned is again and second.labelled == first.labelled
    # other sites are another key
    analysis.analyse_tree(kernel, _scanned(tmp_path, "b_ioctl"))
    assert len(calls) == (2 if kept else 3)
