"""The verify stage: checkpatch verdicts, the build's commands and file handling."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ..kernel import tree
from . import crossbuild, verify
from ..kernel import build as kbuild
from ..requests import default_jobs
from ..find.sites import Site

FIXTURE = Path(__file__).parents[1] / "testdata" / "series" / "kernel"
DEFAULT = tree.cache_dir() / "src" / tree.PINNED_PACKAGE

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
    tree.script(FIXTURE, "checkpatch.pl") is None,
    reason="needs the default tree's scripts/checkpatch.pl (make patches unpacks it)")


@needs_checkpatch
def test_checkpatch_passes_a_clean_patch(tmp_path: Path) -> None:
    patch = tmp_path / "good.patch"
    patch.write_text(PATCH.replace("{tail}", ""))
    assert verify.checkpatch(tree.at(FIXTURE), patch) == verify.Check(verify.OK)


@needs_checkpatch
def test_checkpatch_error_fails_the_patch(tmp_path: Path) -> None:
    patch = tmp_path / "bad.patch"
    patch.write_text(PATCH.replace("{tail}", "   ").replace("Signed-off-by: Test Author <author@example.org>\n", ""))
    chk = verify.checkpatch(tree.at(FIXTURE), patch)
    assert chk.status == verify.FAILED
    assert "TRAILING_WHITESPACE" in chk.detail or "MISSING_SIGN_OFF" in chk.detail


def test_checkpatch_command_uses_the_tree_root_or_no_tree(tmp_path: Path) -> None:
    cmd = verify.checkpatch_command(tree.at(FIXTURE), tmp_path / "x.patch")
    if cmd is None:
        pytest.skip("no checkpatch.pl available")
    # the fixture has no scripts/: the default tree's script runs with --no-tree
    assert "--no-tree" in cmd and cmd[-1].endswith("x.patch") and "--terse" in cmd
    if (DEFAULT / "scripts" / "checkpatch.pl").is_file():
        cmd = verify.checkpatch_command(tree.at(DEFAULT), tmp_path / "x.patch")
        assert cmd is not None and f"--root={DEFAULT}" in cmd and "--no-tree" not in cmd


def test_make_command_construction(tmp_path: Path) -> None:
    bt = kbuild.BuildTree(tmp_path / "linux", tmp_path / "b.src", tmp_path / "b")
    # the host programs through ccache
    assert kbuild.make_command(bt, ["drivers/x/y.o"], jobs=8) == [
        "make", "-C", str(tmp_path / "b.src"), f"O={tmp_path / 'b'}", *kbuild.WIDE_HOST_ARGS, "-j8", "-k",
        "drivers/x/y.o"]
    assert kbuild.WIDE_HOST_ARGS == ("HOSTCC=ccache gcc", "RUSTC=false")
    assert f"-j{default_jobs()}" in kbuild.make_command(bt, ["drivers/x/y.o"])
    assert "-n" in kbuild.make_command(bt, ["drivers/x/"], dry_run=True)


def test_build_folder_is_per_version_outside_the_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENOTTY_CACHE", str(tmp_path / "cache"))
    bt = kbuild.build_tree(FIXTURE)
    assert bt.obj.parent == tmp_path / "cache" / "build"
    assert bt.obj.name.startswith("allmodconfig-6.12.0-") and bt.src.name == bt.obj.name + ".src"


def test_kbuild_dir_is_the_nearest_folder_with_a_makefile(tmp_path: Path) -> None:
    (tmp_path / "drivers" / "atomisp" / "pci" / "deep").mkdir(parents=True)
    (tmp_path / "drivers" / "atomisp" / "Makefile").write_text("obj-m += pci/deep/x.o\n")
    assert kbuild.kbuild_dir(tmp_path, "drivers/atomisp/pci/deep/x.c") == "drivers/atomisp"
    assert kbuild.kbuild_dir(tmp_path, "top.c") == ""


def test_install_never_writes_the_pristine_inodes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENOTTY_CACHE", str(tmp_path / "cache"))
    root = tmp_path / "linux"
    (root / "d").mkdir(parents=True)
    (root / "d" / "a.c").write_text("pristine a\n")
    (root / "d" / "b.c").write_text("pristine b\n")
    bt = kbuild.build_tree(root)
    bt.work.ensure()
    kbuild.install(bt, {"d/a.c": b"patched a\n"})
    assert (root / "d" / "a.c").read_text() == "pristine a\n"
    assert (bt.src / "d" / "a.c").read_text() == "patched a\n"
    kbuild.install(bt, {"d/b.c": b"patched b\n"})   # the next run puts a.c back
    assert (bt.src / "d" / "a.c").read_text() == "pristine a\n"
    assert (root / "d" / "b.c").read_text() == "pristine b\n"
    assert (bt.src / "d" / "b.c").read_text() == "patched b\n"
    assert bt.work.differing() == ["d/b.c"]


def test_build_without_a_kernel_tree_is_skipped_not_failed() -> None:
    got = crossbuild.build(tree.at(FIXTURE), {"drivers/watchdog/bar_wdt.c": b"x"}, {}, _store(FIXTURE))
    assert got["drivers/watchdog/bar_wdt.c"].status == verify.SKIPPED


FAKE_CHECKPATCH = """\
#!/usr/bin/perl
# Counts its runs; a patch naming BAD gets an error.
open(my $f, '>>', $ENV{ENOTTY_TEST_RUNS}); print $f "run\\n"; close($f);
my $text = do { local $/; open(my $p, '<', $ARGV[-1]); <$p> };
if ($text =~ /BAD/) { print "$ARGV[-1]:1: ERROR:FAKE: bad line\\n"; exit 1; }
print "total: 0 errors, 0 warnings, 1 lines checked\\n";
exit 0;
"""


def _store(root: Path) -> verify.ResultCache:
    return verify.ResultCache(tree_id=tree.at(root).cache_key)


def fake_kernel(tmp_path: Path, script: str = FAKE_CHECKPATCH) -> Path:
    root = tmp_path / "linux"
    (root / "scripts").mkdir(parents=True)
    (root / "MAINTAINERS").write_text("")
    (root / "Makefile").write_text("VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 1\n")
    (root / "scripts" / "checkpatch.pl").write_text(script)
    return root


def test_checkpatch_verdicts_are_cached_by_patch_and_script(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENOTTY_CACHE", str(tmp_path / "cache"))
    runs = tmp_path / "runs"
    monkeypatch.setenv("ENOTTY_TEST_RUNS", str(runs))
    root = fake_kernel(tmp_path)
    good, bad = tmp_path / "good.patch", tmp_path / "bad.patch"
    good.write_text("+ok\n")
    bad.write_text("+BAD\n")
    count = lambda: len(runs.read_text().splitlines()) if runs.exists() else 0  # noqa: E731
    assert verify.checkpatch(tree.at(root), good) == verify.Check(verify.OK)
    assert verify.checkpatch(tree.at(root), bad) == verify.Check(verify.FAILED, "ERROR:FAKE: bad line")
    assert count() == 2
    assert verify.checkpatch(tree.at(root), good) == verify.Check(verify.OK)
    assert verify.checkpatch(tree.at(root), bad).status == verify.FAILED
    assert count() == 2, "the second look ran checkpatch.pl again"
    assert any((tmp_path / "cache" / "verify" / "checkpatch").rglob("*.json"))
    # Another name, same content: the same verdict, from the cache.
    renamed = tmp_path / "0001-other-name.patch"
    renamed.write_bytes(bad.read_bytes())
    assert verify.checkpatch(tree.at(root), renamed).status == verify.FAILED and count() == 2
    # A changed patch, a changed checkpatch.pl, or no cache: run again.
    good.write_text("+ok, changed\n")
    assert verify.checkpatch(tree.at(root), good).status == verify.OK and count() == 3
    (root / "scripts" / "checkpatch.pl").write_text(FAKE_CHECKPATCH + "# v2\n")
    assert verify.checkpatch(tree.at(root), good).status == verify.OK and count() == 4
    assert verify.checkpatch(tree.at(root, use_cache=False), good).status == verify.OK and count() == 5


def test_a_checkpatch_killed_by_a_signal_is_an_interruption_not_a_verdict(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # checkpatch runs in a worker thread, which sees ^C only as its child's death;
    # the default handler first: a shell runs a background job with SIGINT ignored
    monkeypatch.setenv("ENOTTY_CACHE", str(tmp_path / "cache"))
    root = fake_kernel(tmp_path, "#!/usr/bin/perl\n$SIG{INT} = 'DEFAULT';\nkill 'INT', $$;\nsleep 5;\n")
    patch = tmp_path / "a.patch"
    patch.write_text("+ok\n")
    with pytest.raises(KeyboardInterrupt):
        verify.checkpatch(tree.at(root), patch)
    assert not any((tmp_path / "cache" / "verify").rglob("*.json"))


def test_result_cache_survives_garbage_and_an_unwritable_folder(tmp_path: Path) -> None:
    cache = verify.ResultCache(tmp_path / "c")
    key = verify.ResultCache.key("a", "b")
    assert key != verify.ResultCache.key("ab") and cache.get("build", key) is None
    cache.put("build", key, verify.Check(verify.NOT_BUILT, "why"))
    assert cache.get("build", key) == verify.Check(verify.NOT_BUILT, "why")
    # a verdict stored under NOT_BUILT's old name reads as NOT_BUILT (it is then cross-built)
    cache.put("build", key, verify.Check("not built on x86_64", "why"))
    assert cache.get("build", key) == verify.Check(verify.NOT_BUILT, "why")
    path = next((tmp_path / "c" / "build").rglob("*.json"))
    path.write_text("{half")
    assert cache.get("build", key) is None
    (tmp_path / "ro").write_text("a file where the folder should be")
    verify.ResultCache(tmp_path / "ro").put("build", key, verify.Check(verify.OK))   # no error


def test_build_verdicts_are_cached_by_content_config_and_headers(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache around the build; the build itself is the REAL BUILD test's."""
    monkeypatch.setenv("ENOTTY_CACHE", str(tmp_path / "cache"))
    root = fake_kernel(tmp_path)
    (root / "arch" / "x86").mkdir(parents=True)
    (root / "d").mkdir()
    (root / "d" / "a.c").write_text("int a;\n")
    (root / "d" / "b.c").write_text("int b;\n")
    (root / "d" / "x.h").write_text("#define X 1\n")
    if kbuild.can_build(root):
        pytest.skip(kbuild.can_build(root))
    built: list[list[str]] = []

    def fake_configure(bt: kbuild.BuildTree, platform: kbuild.Platform, jobs: object = None) -> dict[str, str]:
        assert platform == kbuild.ALLMODCONFIG and bt.work.path.is_dir()
        bt.obj.mkdir(parents=True, exist_ok=True)
        if not (bt.obj / ".config").exists():
            (bt.obj / ".config").write_text("CONFIG_A=y\n")
        return kbuild.read_config(bt.obj / ".config")

    def fake_build(bt: kbuild.BuildTree, patched: dict[str, bytes], sources: list[str],
                   jobs: object, arch: str, srcarch: str = "x86") -> dict[str, verify.Check]:
        built.append(sorted(sources))
        return {rel: verify.Check(verify.FAILED, "d/b.c:1: error: x", arch) if rel == "d/b.c"
                else verify.Check(verify.OK, "", arch) for rel in sources}

    monkeypatch.setattr(kbuild, "configure_platform", fake_configure)
    monkeypatch.setattr(kbuild, "prepare_platform", lambda *a, **k: None)
    monkeypatch.setattr(kbuild, "build_on", fake_build)
    patched = {"d/a.c": b"int a = 1;\n", "d/b.c": b"int b = 1;\n", "d/x.h": b"#define X 2\n"}
    first = crossbuild.build(tree.at(root), patched, {}, _store(root))
    assert first["d/x.h"].status == verify.SKIPPED and first["d/b.c"].status == verify.FAILED
    assert crossbuild.build(tree.at(root), patched, {}, _store(root)) == first and built == [["d/a.c", "d/b.c"]]
    # a.c changed: only a.c again
    crossbuild.build(tree.at(root), {**patched, "d/a.c": b"int a = 2;\n"}, {}, _store(root))
    assert built[-1] == ["d/a.c"]
    # a patched header may change every .c file's build
    crossbuild.build(tree.at(root), {**patched, "d/x.h": b"#define X 3\n"}, {}, _store(root))
    assert built[-1] == ["d/a.c", "d/b.c"]
    # another configuration
    bt = kbuild.build_tree(root)
    (bt.obj / ".config").write_text("CONFIG_A=m\n")
    crossbuild.build(tree.at(root), patched, {}, _store(root))
    assert built[-1] == ["d/a.c", "d/b.c"]
    n = len(built)
    crossbuild.build(tree.at(root), patched, {}, _store(root))
    assert len(built) == n
    crossbuild.build(tree.at(root, use_cache=False), patched, {}, _store(root))
    assert len(built) == n + 1


def test_fixpoint_reports_sites_left_and_files_that_do_not_parse() -> None:
    left = Site("d/a.c", 7, "a_ioctl", "file_operations.unlocked_ioctl", "EINVAL", "ENOTTY", "r")
    got = verify.fixpoint(["d/a.c", "d/b.c", "d/c.c"], [left], {"d/c.c": "3 lines not parsed from line 9"})
    assert got["d/a.c"].status == verify.FAILED and "line 7" in got["d/a.c"].detail
    assert got["d/b.c"] == verify.Check(verify.OK)
    assert got["d/c.c"] == verify.Check(verify.FAILED, "patched file does not parse: 3 lines not parsed from line 9")


@pytest.mark.skipif(not (DEFAULT / "MAINTAINERS").is_file(),
                    reason="REAL BUILD NOT RUN: the default tree is not unpacked (make check unpacks it)")
def test_REAL_BUILD_compiles_a_touched_file_of_the_default_tree() -> None:
    # The first build prepares the allmodconfig folder (about two minutes).
    rel = "drivers/media/mc/mc-request.c"
    arm = "arch/arm/mach-omap1/board-ams-delta.c"
    good = (DEFAULT / rel).read_bytes().replace(b"return -EINVAL;", b"return -ENOTTY;", 1)
    broken = (DEFAULT / rel).read_bytes() + b"\nint enotty_broken(void) { return undeclared_thing; }\n"
    # cross=False: x86_64 alone (crossbuild_test builds on other platforms)
    got = crossbuild.build(tree.at(DEFAULT, use_cache=False), {rel: good, arm: (DEFAULT / arm).read_bytes()}, {}, _store(DEFAULT),
                           cross=False)
    assert got[rel] == verify.Check(verify.OK, "", crossbuild.X86_64)
    assert got[arm].status == verify.NOT_BUILT
    got = crossbuild.build(tree.at(DEFAULT, use_cache=False), {rel: broken}, {}, _store(DEFAULT), cross=False)
    assert got[rel].status == verify.FAILED and "undeclared_thing" in got[rel].detail
    assert (DEFAULT / rel).read_bytes() != broken
    # The same set again: the verdicts from the cache, nothing compiled.
    obj = kbuild.build_tree(DEFAULT).obj / (rel[:-2] + ".o")
    obj.unlink(missing_ok=True)
    again = crossbuild.build(tree.at(DEFAULT), {rel: good}, {}, _store(DEFAULT), cross=False)
    assert again[rel] == verify.Check(verify.OK, "", crossbuild.X86_64)
    assert not obj.exists(), "a cached verdict compiled the file again"


def test_includer_dirs_finds_the_arch_folder_that_builds_a_make_fragment(tmp_path: Path) -> None:
    root = tmp_path / "linux"
    for rel, text in {"virt/kvm/Makefile.kvm": "kvm-y := $(KVM)/kvm_main.o\n",
                      "virt/kvm/kvm_main.c": "int k;\n",
                      "arch/x86/kvm/Makefile": "include $(srctree)/virt/kvm/Makefile.kvm\n",
                      "arch/x86/boot/Makefile": "obj-y += a.o\n",
                      "drivers/d/Makefile": "obj-y += d.o\n",
                      "drivers/d/Makefile.extra": "x\n"}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    assert kbuild.includer_dirs(root, "virt/kvm/kvm_main.c") == ["arch/x86/kvm"]
    assert kbuild.includer_dirs(root, "virt/kvm/kvm_main.c", "powerpc") == []
    # a folder with its own Makefile is built there
    assert kbuild.includer_dirs(root, "drivers/d/d.c") == []
