"""Work trees: never write the source, bring the copy to a state by content,
recover from interruptions, rewrite only what differs."""
from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from . import worktree
from ..errors import UsageError
from .worktree import WorkTree

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

A = b"int f(void)\n{\n\treturn -EINVAL;\n}\n"


@pytest.fixture
def wt(tmp_path: Path) -> WorkTree:
    source = tmp_path / "src"
    (source / "drv").mkdir(parents=True)
    (source / "drv" / "a.c").write_bytes(A)
    (source / "drv" / "b.c").write_text("int h;\n")
    work = WorkTree(source, tmp_path / "cache" / "tree")
    assert work.ensure()
    return work


def write_patches(tmp_path: Path, *texts: str) -> list[Path]:
    out = []
    for i, text in enumerate(texts, 1):
        p = tmp_path / f"{i:04d}-p.patch"
        p.write_text(text)
        out.append(p)
    return out


def test_kbuild_env_drops_the_callers_make_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAKEFLAGS", " -- M=drivers/media")
    monkeypatch.setenv("M", "drivers/media")
    monkeypatch.setenv("O", "/elsewhere")
    monkeypatch.delenv("CCACHE_DIR", raising=False)
    env = worktree.kbuild_env()
    assert "MAKEFLAGS" not in env and "M" not in env and "O" not in env
    assert env["PATH"] == os.environ["PATH"] and "CCACHE_DIR" not in env
    env = worktree.kbuild_env(Path("/c/ccache"))
    assert env["CCACHE_DIR"] == "/c/ccache" and "MAKEFLAGS" not in env


def test_touched_files() -> None:
    assert worktree.touched_files(PATCH_A) == ["drv/a.c"]
    assert worktree.touched_files(PATCH_NEW) == ["drv/new.c"]


def test_series_patches_sorted_without_cover_letter(tmp_path: Path) -> None:
    for name in ("0002-b.patch", "0000-cover-letter.patch", "0001-a.patch", "notes.txt"):
        (tmp_path / name).write_text("")
    assert [p.name for p in worktree.series_patches(tmp_path)] == ["0001-a.patch", "0002-b.patch"]
    with pytest.raises(UsageError, match="does not exist"):
        worktree.series_patches(tmp_path / "media")
    with pytest.raises(UsageError, match="no NNNN"):
        (tmp_path / "empty").mkdir()
        worktree.series_patches(tmp_path / "empty")


def test_patched_contents_by_content(wt: WorkTree, tmp_path: Path) -> None:
    got = worktree.patched_contents(wt.source, write_patches(tmp_path, PATCH_A, PATCH_NEW), ["drv/b.c"])
    assert got == {"drv/b.c": b"int h;\n", "drv/a.c": A.replace(b"EINVAL", b"ENOTTY"),
                   "drv/new.c": b"int g;\n"}


def test_copy_is_hard_links_and_reused_for_the_same_source(wt: WorkTree) -> None:
    assert not wt.ensure()
    assert (wt.path / "drv" / "b.c").stat().st_ino == (wt.source / "drv" / "b.c").stat().st_ino
    assert (wt.path.parent / "tree.source").read_text() == f"{wt.source}\n"


def test_a_copy_of_another_source_is_made_again(wt: WorkTree, tmp_path: Path) -> None:
    other = tmp_path / "other"
    (other / "drv").mkdir(parents=True)
    (other / "drv" / "c.c").write_text("int c;\n")
    moved = WorkTree(other, wt.path)
    assert moved.ensure()
    assert sorted(p.name for p in (wt.path / "drv").iterdir()) == ["c.c"]


def test_a_copy_without_its_marker_is_made_again(wt: WorkTree) -> None:
    (wt.path.parent / "tree.source").unlink()
    (wt.path / "stale").write_text("half-made copy\n")
    assert wt.ensure()
    assert not (wt.path / "stale").exists()


def test_apply_and_restore_leave_the_source_alone(wt: WorkTree, tmp_path: Path) -> None:
    patches = write_patches(tmp_path, PATCH_A, PATCH_NEW)
    assert wt.apply(patches) == ["drv/a.c", "drv/new.c"]
    assert b"ENOTTY" in (wt.path / "drv" / "a.c").read_bytes()
    assert (wt.path / "drv" / "new.c").read_text() == "int g;\n"
    assert (wt.source / "drv" / "a.c").read_bytes() == A
    assert not (wt.source / "drv" / "new.c").exists()
    assert wt.differing() == ["drv/a.c", "drv/new.c"]
    assert wt.apply(patches) == []          # idempotent
    assert wt.restore() == ["drv/a.c", "drv/new.c"]
    assert (wt.path / "drv" / "a.c").read_bytes() == A
    assert not (wt.path / "drv" / "new.c").exists()
    assert wt.differing() == []


def test_set_files_switches_from_one_set_to_the_next(wt: WorkTree) -> None:
    assert wt.set_files({"drv/a.c": b"patched a\n"}) == ["drv/a.c"]
    assert wt.set_files({"drv/b.c": b"patched b\n"}) == ["drv/a.c", "drv/b.c"]
    assert (wt.path / "drv" / "a.c").read_bytes() == A
    assert (wt.path / "drv" / "b.c").read_text() == "patched b\n"
    assert (wt.source / "drv" / "b.c").read_text() == "int h;\n"
    assert wt.differing() == ["drv/b.c"]


def test_interrupted_run_is_repaired(wt: WorkTree) -> None:
    # A run died after saying what it would touch, half-way through writing.
    wt.manifest.write_text("drv/a.c\n")
    worktree.replace_file(wt.path / "drv" / "a.c", b"garbage\n")
    assert wt.restore() == ["drv/a.c"]
    assert (wt.path / "drv" / "a.c").read_bytes() == A


def test_rewritten_files_are_new_inodes_with_fresh_mtime(wt: WorkTree, tmp_path: Path) -> None:
    old = 1_000_000_000
    pristine = wt.source / "drv" / "a.c"
    os.utime(pristine, (old, old))
    mode = pristine.stat().st_mode
    wt.apply(write_patches(tmp_path, PATCH_A))
    wt.restore()
    st = (wt.path / "drv" / "a.c").stat()
    assert st.st_ino != pristine.stat().st_ino
    assert st.st_mtime > old      # Kbuild must see the revert as a change
    assert st.st_mode == mode
    assert pristine.stat().st_mtime == old and pristine.read_bytes() == A


def test_patch_that_does_not_apply_changes_nothing(wt: WorkTree, tmp_path: Path) -> None:
    bad = write_patches(tmp_path, PATCH_A.replace("-EINVAL", "-EBUSY", 1))
    with pytest.raises(UsageError, match="0001-p.patch does not apply"):
        wt.apply(bad)
    assert (wt.path / "drv" / "a.c").stat().st_ino == (wt.source / "drv" / "a.c").stat().st_ino


def test_refuses_a_work_tree_that_links_to_the_source(wt: WorkTree, tmp_path: Path) -> None:
    link = tmp_path / "link"
    link.symlink_to(wt.source)
    with pytest.raises(UsageError, match="refusing"):
        WorkTree(wt.source, link).apply(write_patches(tmp_path, PATCH_A))
    assert (wt.source / "drv" / "a.c").read_bytes() == A


def test_refuses_a_path_that_leaves_the_copy(wt: WorkTree, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="leaves the work tree"):
        wt.set_files({"../../outside.c": b"x"})
    assert not (tmp_path / "outside.c").exists()


def test_symlinked_source_is_copied_as_a_folder(wt: WorkTree, tmp_path: Path) -> None:
    link = tmp_path / "srclink"
    link.symlink_to(wt.source)
    other = WorkTree(link, tmp_path / "w" / "tree")
    assert other.source == wt.source
    other.ensure()
    assert other.path.is_dir() and not other.path.is_symlink()


def test_locked_serialises_two_users(wt: WorkTree) -> None:
    order: list[str] = []

    def second() -> None:
        with wt.locked():
            order.append("second")

    with wt.locked():
        thread = threading.Thread(target=second)
        thread.start()
        time.sleep(0.3)
        order.append("first done")
    thread.join(5)
    assert order == ["first done", "second"]


def test_cp_failure_is_reported(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="cannot copy .*missing"):
        WorkTree(tmp_path / "missing", tmp_path / "w").ensure()
    assert not (tmp_path / "w").exists()


def test_applies_says_whether_a_patch_fits_the_tree(tmp_path: Path) -> None:
    # the sparc64 guest's fcntl fix fits 6.12 and not 7.2, which dropped the bit it removes
    (tmp_path / "a.c").write_text("int x = 1;\n")
    fits = tmp_path / "fits.patch"
    fits.write_text("--- a/a.c\n+++ b/a.c\n@@ -1 +1 @@\n-int x = 1;\n+int x = 2;\n")
    stale = tmp_path / "stale.patch"
    stale.write_text("--- a/a.c\n+++ b/a.c\n@@ -1 +1 @@\n-int x = 3;\n+int x = 2;\n")
    assert worktree.applies(tmp_path, fits)
    assert not worktree.applies(tmp_path, stale)
