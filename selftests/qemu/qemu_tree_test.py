"""Work tree and patch sets by content: never write the source, recover from
interruptions, rewrite only what differs."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import qemu_tree  # noqa: E402
from enotty.errors import UsageError  # noqa: E402

PATCH_A = """\
From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001
From: A U Thor <a@example.org>
Subject: [PATCH 1/2] drv: answer unknown ioctls with -ENOTTY

---
 drv/a.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/drv/a.c b/drv/a.c
index 1111111..2222222 100644
--- a/drv/a.c
+++ b/drv/a.c
@@ -1,3 +1,3 @@
 int f(void)
 {
-\treturn -EINVAL;
+\treturn -ENOTTY;
--
2.39.5
"""

PATCH_NEW = """\
diff --git a/drv/new.c b/drv/new.c
new file mode 100644
--- /dev/null
+++ b/drv/new.c
@@ -0,0 +1 @@
+int g;
"""


@pytest.fixture
def trees(tmp_path: Path) -> tuple[Path, Path, Path]:
    source = tmp_path / "src"
    (source / "drv").mkdir(parents=True)
    (source / "drv" / "a.c").write_text("int f(void)\n{\n\treturn -EINVAL;\n}\n")
    (source / "drv" / "b.c").write_text("int h;\n")
    work = tmp_path / "cache" / "tree"
    assert qemu_tree.ensure_work_tree(source, work)
    return source, work, tmp_path / "cache" / "touched.txt"


def write_patches(tmp_path: Path, *texts: str) -> list[Path]:
    out = []
    for i, text in enumerate(texts, 1):
        p = tmp_path / f"{i:04d}-p.patch"
        p.write_text(text)
        out.append(p)
    return out


def test_touched_files():
    assert qemu_tree.touched_files(PATCH_A) == ["drv/a.c"]
    assert qemu_tree.touched_files(PATCH_NEW) == ["drv/new.c"]


def test_series_patches_sorted_without_cover_letter(tmp_path: Path):
    for name in ("0002-b.patch", "0000-cover-letter.patch", "0001-a.patch", "notes.txt"):
        (tmp_path / name).write_text("")
    assert [p.name for p in qemu_tree.series_patches(tmp_path)] == ["0001-a.patch", "0002-b.patch"]


def test_series_patches_missing_folder_is_a_usage_error(tmp_path: Path):
    with pytest.raises(UsageError, match="does not exist"):
        qemu_tree.series_patches(tmp_path / "media")
    with pytest.raises(UsageError, match="no NNNN"):
        qemu_tree.series_patches(tmp_path)


def test_work_tree_is_reused_for_the_same_source(trees):
    source, work, _ = trees
    assert not qemu_tree.ensure_work_tree(source, work)
    assert (work / "drv" / "b.c").stat().st_ino == (source / "drv" / "b.c").stat().st_ino


def test_apply_and_revert_leave_the_source_alone(trees, tmp_path: Path):
    source, work, state = trees
    before = (source / "drv" / "a.c").read_bytes()
    patches = write_patches(tmp_path, PATCH_A, PATCH_NEW)
    changed = qemu_tree.apply_patch_set(source, work, patches, state)
    assert changed == ["drv/a.c", "drv/new.c"]
    assert "ENOTTY" in (work / "drv" / "a.c").read_text()
    assert (work / "drv" / "new.c").read_text() == "int g;\n"
    assert (source / "drv" / "a.c").read_bytes() == before
    assert not (source / "drv" / "new.c").exists()
    # Applying the same set again changes nothing: idempotent.
    assert qemu_tree.apply_patch_set(source, work, patches, state) == []
    # Back to pristine: the patched file restored, the new file gone.
    assert qemu_tree.apply_patch_set(source, work, [], state) == ["drv/a.c", "drv/new.c"]
    assert (work / "drv" / "a.c").read_bytes() == before
    assert not (work / "drv" / "new.c").exists()
    assert state.read_text() == ""


def test_interrupted_run_is_repaired(trees, tmp_path: Path):
    source, work, state = trees
    # A run died after saying what it would touch, half-way through writing.
    state.write_text("drv/a.c\n")
    qemu_tree.replace_file(work / "drv" / "a.c", b"garbage\n")
    qemu_tree.apply_patch_set(source, work, [], state)
    assert (work / "drv" / "a.c").read_bytes() == (source / "drv" / "a.c").read_bytes()


def test_rewritten_files_are_new_inodes_with_fresh_mtime(trees, tmp_path: Path):
    source, work, state = trees
    old = 1_000_000_000
    os.utime(source / "drv" / "a.c", (old, old))
    qemu_tree.apply_patch_set(source, work, write_patches(tmp_path, PATCH_A), state)
    qemu_tree.apply_patch_set(source, work, [], state)
    st = (work / "drv" / "a.c").stat()
    assert st.st_ino != (source / "drv" / "a.c").stat().st_ino
    assert st.st_mtime > old      # Kbuild must see the revert as a change
    assert (source / "drv" / "a.c").stat().st_mtime == old


def test_patch_that_does_not_apply(trees, tmp_path: Path):
    source, work, state = trees
    bad = write_patches(tmp_path, PATCH_A.replace("-EINVAL", "-EBUSY", 1))
    with pytest.raises(UsageError, match="does not apply"):
        qemu_tree.apply_patch_set(source, work, bad, state)
    assert (work / "drv" / "a.c").read_bytes() == (source / "drv" / "a.c").read_bytes()


def test_refuses_a_work_tree_that_links_to_the_source(trees, tmp_path: Path):
    source, _, state = trees
    link = tmp_path / "link"
    link.symlink_to(source)
    with pytest.raises(UsageError, match="refusing"):
        qemu_tree.apply_patch_set(source, link, write_patches(tmp_path, PATCH_A), state)
    assert "EINVAL" in (source / "drv" / "a.c").read_text()


def test_symlinked_source_is_copied_as_a_folder(trees, tmp_path: Path):
    source, _, _ = trees
    link = tmp_path / "srclink"
    link.symlink_to(source)
    work = tmp_path / "w" / "tree"
    qemu_tree.ensure_work_tree(link, work)
    assert work.is_dir() and not work.is_symlink()
