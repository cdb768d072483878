"""The verify stage: checkpatch verdicts, the build's commands and file handling."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from enotty import maintainers, tree, verify
from enotty.sites import Site

FIXTURE = Path(__file__).parent / "testdata" / "series" / "kernel"
DEFAULT = tree.cache_dir() / "src" / tree.SOURCE_PACKAGE

PATCH = """\
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Test Author <author@example.org>
Date: Thu, 1 Jan 2026 00:00:00 +0000
Subject: [PATCH] watchdog: bar_wdt: Return -ENOTTY for unknown ioctl commands

bar_wdt_ioctl() answers an unknown command with -EINVAL; make it -ENOTTY.

Signed-off-by: Test Author <author@example.org>
---
 drivers/watchdog/bar_wdt.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/drivers/watchdog/bar_wdt.c b/drivers/watchdog/bar_wdt.c
--- a/drivers/watchdog/bar_wdt.c
+++ b/drivers/watchdog/bar_wdt.c
@@ -12,7 +12,7 @@ static long bar_wdt_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
 	case BAR_WDT_IOCTL_GET:
 		return put_user(1, argp);
 	default:
-		return -EINVAL;
+		return -ENOTTY;{tail}
 	}
 }
 
"""

needs_checkpatch = pytest.mark.skipif(
    maintainers.script(FIXTURE, "checkpatch.pl") is None,
    reason="needs the default tree's scripts/checkpatch.pl (make patches unpacks it)")


@needs_checkpatch
def test_checkpatch_passes_a_clean_patch(tmp_path: Path) -> None:
    patch = tmp_path / "good.patch"
    patch.write_text(PATCH.replace("{tail}", ""))
    assert verify.checkpatch(FIXTURE, patch) == verify.Check(verify.OK)


@needs_checkpatch
def test_checkpatch_error_fails_the_patch(tmp_path: Path) -> None:
    patch = tmp_path / "bad.patch"
    patch.write_text(PATCH.replace("{tail}", "   ").replace("Signed-off-by: Test Author <author@example.org>\n", ""))
    chk = verify.checkpatch(FIXTURE, patch)
    assert chk.status == verify.FAILED
    assert "TRAILING_WHITESPACE" in chk.detail or "MISSING_SIGN_OFF" in chk.detail


def test_checkpatch_command_uses_the_tree_root_or_no_tree(tmp_path: Path) -> None:
    cmd = verify.checkpatch_command(FIXTURE, tmp_path / "x.patch")
    if cmd is None:
        pytest.skip("no checkpatch.pl available")
    # the fixture has no scripts/: the default tree's script runs with --no-tree
    assert "--no-tree" in cmd and cmd[-1].endswith("x.patch") and "--terse" in cmd
    if (DEFAULT / "scripts" / "checkpatch.pl").is_file():
        cmd = verify.checkpatch_command(DEFAULT, tmp_path / "x.patch")
        assert f"--root={DEFAULT}" in cmd and "--no-tree" not in cmd


def test_make_command_construction(tmp_path: Path) -> None:
    bt = verify.BuildTree(tmp_path / "linux", tmp_path / "b.src", tmp_path / "b")
    assert verify.make_command(bt, ["drivers/x/y.o"], jobs=8) == [
        "make", "-C", str(tmp_path / "b.src"), f"O={tmp_path / 'b'}", "-j2", "-k", "drivers/x/y.o"]
    assert "-n" in verify.make_command(bt, ["drivers/x/"], dry_run=True)


def test_build_folder_is_per_version_outside_the_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENOTTY_CACHE", str(tmp_path / "cache"))
    bt = verify.build_tree(FIXTURE)
    assert bt.obj.parent == tmp_path / "cache" / "build"
    assert bt.obj.name.startswith("allmodconfig-6.12.0-") and bt.src.name == bt.obj.name + ".src"


def test_kbuild_env_drops_the_callers_make_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAKEFLAGS", " -- M=drivers/media")
    monkeypatch.setenv("M", "drivers/media")
    env = verify.kbuild_env()
    assert "MAKEFLAGS" not in env and "M" not in env and env["PATH"] == os.environ["PATH"]


def test_kbuild_dir_is_the_nearest_folder_with_a_makefile(tmp_path: Path) -> None:
    (tmp_path / "drivers" / "atomisp" / "pci" / "deep").mkdir(parents=True)
    (tmp_path / "drivers" / "atomisp" / "Makefile").write_text("obj-m += pci/deep/x.o\n")
    assert verify.kbuild_dir(tmp_path, "drivers/atomisp/pci/deep/x.c") == "drivers/atomisp"
    assert verify.kbuild_dir(tmp_path, "top.c") == ""


def test_install_never_writes_the_pristine_inodes(tmp_path: Path) -> None:
    root = tmp_path / "linux"
    (root / "d").mkdir(parents=True)
    (root / "d" / "a.c").write_text("pristine a\n")
    (root / "d" / "b.c").write_text("pristine b\n")
    bt = verify.BuildTree(root, tmp_path / "copy", tmp_path / "obj")
    subprocess.run(["cp", "-al", str(root), str(bt.src)], check=True)
    verify.install(bt, {"d/a.c": b"patched a\n"})
    assert (root / "d" / "a.c").read_text() == "pristine a\n"
    assert (bt.src / "d" / "a.c").read_text() == "patched a\n"
    verify.install(bt, {"d/b.c": b"patched b\n"})   # the next run puts a.c back
    assert (bt.src / "d" / "a.c").stat().st_ino == (root / "d" / "a.c").stat().st_ino
    assert (root / "d" / "b.c").read_text() == "pristine b\n"
    assert (bt.src / "d" / "b.c").read_text() == "patched b\n"


def test_build_without_a_kernel_tree_is_skipped_not_failed() -> None:
    got = verify.build(FIXTURE, {"drivers/watchdog/bar_wdt.c": b"x"})
    assert got["drivers/watchdog/bar_wdt.c"].status == verify.SKIPPED


def test_fixpoint_reports_sites_left(tmp_path: Path) -> None:
    left = Site("d/a.c", 7, "a_ioctl", "file_operations.unlocked_ioctl", "EINVAL", "ENOTTY", "r")
    seen: list[Path] = []

    def fake_scan(folder: Path):
        seen.append(folder)
        assert (folder / "d" / "a.c").read_bytes() == b"A" and (folder / "d" / "b.c").read_bytes() == b"B"
        return [left], []

    got = verify.fixpoint({"d/a.c": b"A", "d/b.c": b"B"}, fake_scan)
    assert got["d/a.c"].status == verify.FAILED and "line 7" in got["d/a.c"].detail
    assert got["d/b.c"] == verify.Check(verify.OK)
    assert not seen[0].exists(), "the temporary folder is removed"


@pytest.mark.skipif(not (DEFAULT / "MAINTAINERS").is_file(),
                    reason="REAL BUILD NOT RUN: the default tree is not unpacked (make check unpacks it)")
def test_REAL_BUILD_compiles_a_touched_file_of_the_default_tree() -> None:
    # The first build prepares the allmodconfig folder (about two minutes).
    rel = "drivers/media/mc/mc-request.c"
    arm = "arch/arm/mach-omap1/board-ams-delta.c"
    good = (DEFAULT / rel).read_bytes().replace(b"return -EINVAL;", b"return -ENOTTY;", 1)
    broken = (DEFAULT / rel).read_bytes() + b"\nint enotty_broken(void) { return undeclared_thing; }\n"
    got = verify.build(DEFAULT, {rel: good, arm: (DEFAULT / arm).read_bytes()})
    assert got[rel] == verify.Check(verify.OK)
    assert got[arm].status == verify.NOT_BUILT
    got = verify.build(DEFAULT, {rel: broken})
    assert got[rel].status == verify.FAILED and "undeclared_thing" in got[rel].detail
    assert (DEFAULT / rel).read_bytes() != broken
