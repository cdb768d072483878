"""The runner's names for enotty.kernel.worktree: the work tree it keeps in
cache/qemu/tree with its state file cache/qemu/touched.txt.  The work tree's
behaviour itself is tested in tools/enotty/kernel/worktree_test.py."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import qemu_tree  # noqa: E402
from enotty.errors import UsageError  # noqa: E402

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
    assert qemu_tree.ensure_work_tree(source, work)
    assert not qemu_tree.ensure_work_tree(source, work)
    assert qemu_tree.apply_patch_set(source, work, patches, state) == ["drv/a.c"]
    assert state.read_text() == "drv/a.c\n"          # the runner's state file is the manifest
    assert b"ENOTTY" in (work / "drv" / "a.c").read_bytes()
    assert (source / "drv" / "a.c").read_bytes() == A
    assert qemu_tree.apply_patch_set(source, work, [], state) == ["drv/a.c"]
    assert (work / "drv" / "a.c").read_bytes() == A and state.read_text() == ""


def test_wanted_contents_of_the_files_asked(trees) -> None:
    source, _, _, patches = trees
    assert qemu_tree.wanted_contents(source, ["drv/a.c", "drv/gone.c"], patches) == {
        "drv/a.c": A.replace(b"EINVAL", b"ENOTTY"), "drv/gone.c": None}


def test_series_patches_missing_folder_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="does not exist"):
        qemu_tree.series_patches(tmp_path / "media")
