"""The run's work tree (enotty.kernel.worktree as qemu-test keeps it): a
hard-link copy in cache/qemu/tree with its manifest cache/qemu/touched.txt.
The work tree's behaviour itself is tested in tools/enotty/kernel/worktree_test.py."""
from __future__ import annotations

from pathlib import Path

import pytest

from enotty.errors import UsageError
from ..kernel.worktree import WorkTree, patched_contents, series_patches

# The mutant's shape: one errno in one file.
PATCH_A = "".join(line + "\n" for line in (
    "--- a/drv/a.c", "+++ b/drv/a.c", "@@ -1 +1 @@", "-int f(void) { return -EINVAL; }",
    "+int f(void) { return -ENOTTY; }"))

A = b"int f(void) { return -EINVAL; }\n"


@pytest.fixture
def trees(tmp_path: Path) -> tuple[Path, Path, Path, list[Path]]:
    source = tmp_path / "src"
    (source / "drv").mkdir(parents=True)
    (source / "drv" / "a.c").write_bytes(A)
    patch = tmp_path / "0001-a.patch"
    patch.write_text(PATCH_A)
    return source, tmp_path / "cache" / "tree", tmp_path / "cache" / "touched.txt", [patch]


def test_runner_cycle_pristine_patched_pristine(trees) -> None:
    source, work, state, patches = trees
    wt = WorkTree(source, work, manifest_path=state)
    assert wt.ensure()
    assert not wt.ensure()
    assert wt.apply(patches) == ["drv/a.c"]
    assert state.read_text() == "drv/a.c\n"          # the runner's state file is the manifest
    assert b"ENOTTY" in (work / "drv" / "a.c").read_bytes()
    assert (source / "drv" / "a.c").read_bytes() == A
    assert wt.apply([]) == ["drv/a.c"]
    assert (work / "drv" / "a.c").read_bytes() == A and state.read_text() == ""


def test_wanted_contents_of_the_files_asked(trees) -> None:
    source, _, _, patches = trees
    assert patched_contents(source, patches, ["drv/a.c", "drv/gone.c"]) == {
        "drv/a.c": A.replace(b"EINVAL", b"ENOTTY"), "drv/gone.c": None}


def test_series_patches_missing_folder_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="does not exist"):
        series_patches(tmp_path / "media")
