"""The kbuild driver: .config text, make command lines, tinyconfig+fragment
configuration, the wide configurations' relaxed .config."""
from __future__ import annotations

from pathlib import Path

import pytest

from enotty.kernel import build
from enotty.requests import default_jobs


def test_parse_config():
    cfg = build.parse_config(
        'CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C="x y"\n# comment\nCONFIG_D=0x10\n')
    assert cfg == {"CONFIG_A": "y", "CONFIG_B": "n", "CONFIG_C": '"x y"', "CONFIG_D": "0x10"}


def test_read_config_keeps_values_and_reads_unset_options(tmp_path: Path) -> None:
    cfg = tmp_path / ".config"
    cfg.write_text('CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C="x=y"\nCONFIG_D=m\n')
    assert build.read_config(cfg) == {"CONFIG_A": "y", "CONFIG_B": "n", "CONFIG_C": '"x=y"', "CONFIG_D": "m"}


def test_config_mismatches_names_dropped_options():
    fragment = "CONFIG_A=y\nCONFIG_B=y\nCONFIG_C=m\n"
    config = "CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C=y\n"
    assert build.config_mismatches(fragment, config) == [
        "CONFIG_B=y requested, .config has CONFIG_B=n",
        "CONFIG_C=m requested, .config has CONFIG_C=y"]
    assert build.config_mismatches(fragment, "CONFIG_A=y\nCONFIG_B=y\nCONFIG_C=m\n") == []


def test_make_argv_uses_our_cpus_unless_told(tmp_path: Path):
    argv = build.make_argv(tmp_path / "tree", tmp_path / "b", "bzImage", make_args=build.X86_64, quiet=True)
    assert argv[:4] == ["make", "-s", "-C", str(tmp_path / "tree")]
    assert f"-j{default_jobs()}" in argv and argv[-1] == "bzImage"
    assert "-j7" in build.make_argv(tmp_path, tmp_path, "headers", jobs=7)
    assert "CC=ccache gcc" in argv and "ARCH=x86_64" in argv
    assert build.make_argv(Path("/s"), Path("/o"), "-k", "d/", make_args=("ARCH=m68k",), jobs=3) == [
        "make", "-C", "/s", "O=/o", "ARCH=m68k", "-j3", "-k", "d/"]


def test_relaxed_turns_werror_debug_info_and_sanitizers_off_and_applies_settings():
    text = ("CONFIG_WERROR=y\nCONFIG_DRM_WERROR=y\nCONFIG_DEBUG_INFO_DWARF5=y\nCONFIG_HEADERS_INSTALL=y\n"
            "CONFIG_KASAN=y\nCONFIG_KASAN_INLINE=y\nCONFIG_UBSAN=y\nCONFIG_KCOV=y\n"
            "CONFIG_FB=m\n# CONFIG_X is not set\n")
    got = build.parse_config(build.relaxed(text, ("FB=y", "X=m", "Y=n")))
    assert got["CONFIG_WERROR"] == got["CONFIG_DRM_WERROR"] == got["CONFIG_DEBUG_INFO_DWARF5"] == "n"
    assert got.get("CONFIG_HEADERS_INSTALL", "n") == "n"
    assert (got["CONFIG_KASAN"], got["CONFIG_UBSAN"], got["CONFIG_KCOV"]) == ("n", "n", "n")
    assert got["CONFIG_DEBUG_INFO_NONE"] == "y"
    assert (got["CONFIG_FB"], got["CONFIG_X"], got["CONFIG_Y"]) == ("y", "m", "n")
    assert build.relaxed("CONFIG_A=y\n") == "CONFIG_A=y\nCONFIG_DEBUG_INFO_NONE=y\n"


def test_run_logged_raises_one_line_with_the_log_and_keeps_its_tail(tmp_path: Path):
    log = tmp_path / "build.log"
    build.run_logged(["true"], log)
    with pytest.raises(build.BuildError) as err:
        build.run_logged(["sh", "-c", "echo first; echo last; exit 3"], log)
    assert str(err.value) == f"`sh -c echo first; echo last; exit 3 ...` failed (exit 3); log: {log}"
    assert err.value.tail[-2:] == ["first", "last"]
    assert log.read_text().startswith("$ true\n$ sh -c 'echo first; echo last; exit 3'\n")
    with pytest.raises(build.BuildError, match=r"^kselftest x did not build \(exit 1\); log: "):
        build.run_logged(["false"], log, what="kselftest x")


def fake_make(kernel: build.TinyKernel, seen: list[tuple[str, ...]]):
    """tinyconfig sets TINY; olddefconfig drops B (a missing dependency)."""
    def make(*targets: str) -> None:
        seen.append(targets)
        config = kernel.build / ".config"
        if targets == ("tinyconfig",):
            config.write_text("CONFIG_TINY=y\n")
        elif targets == ("olddefconfig",):
            config.write_text(config.read_text().replace("CONFIG_B=y", "# CONFIG_B is not set"))
    return make


def test_tiny_kernel_configures_once_per_fragment_and_checks_it(tmp_path: Path, monkeypatch):
    kernel = build.TinyKernel(source=tmp_path / "src", build=tmp_path / "b", log=tmp_path / "log",
                              ccache=tmp_path / "ccache")
    seen: list[tuple[str, ...]] = []
    monkeypatch.setattr(build.TinyKernel, "make", lambda self, *t: fake_make(kernel, seen)(*t))
    text = kernel.configure("CONFIG_A=y\n")
    assert seen == [("tinyconfig",), ("olddefconfig",)]
    assert text == "CONFIG_TINY=y\n\nCONFIG_A=y\n"
    assert (kernel.build / ".enotty-fragment").read_text() == "CONFIG_A=y\n"
    kernel.configure("CONFIG_A=y\n")
    assert len(seen) == 2                     # unchanged fragment: nothing rerun
    # An option olddefconfig drops is one line naming where it was asked for.
    with pytest.raises(build.BuildError, match="base.cfg: options olddefconfig dropped .*CONFIG_B=y requested"):
        kernel.configure("CONFIG_B=y\n", required_from="base.cfg")
    assert not (kernel.build / ".enotty-fragment").exists()
    # required: only those options must survive
    text = kernel.configure("CONFIG_B=y\nCONFIG_C=y\n", required="CONFIG_C=y\n")
    assert "CONFIG_C=y" in text and "# CONFIG_B is not set" in text


def test_builds_run_without_the_calling_make_and_with_our_ccache(tmp_path: Path, monkeypatch):
    # `make qemu-test KDIR=...` hands its variables down in MAKEFLAGS.
    monkeypatch.setenv("MAKEFLAGS", " -- KDIR=/k SERIES=media")
    seen = []
    monkeypatch.setattr(build, "run_logged", lambda argv, log, env=None: seen.append((argv, env)))
    kernel = build.TinyKernel(source=tmp_path, build=tmp_path / "b", log=tmp_path / "log",
                              ccache=tmp_path / "ccache", jobs=3)
    kernel.make("bzImage", "headers")
    (argv, env), = seen
    assert argv == ["make", "-s", "-C", str(tmp_path), f"O={tmp_path / 'b'}", "ARCH=x86_64",
                    "CC=ccache gcc", "-j3", "bzImage", "headers"]
    assert env["CCACHE_DIR"] == str(tmp_path / "ccache") and "MAKEFLAGS" not in env


def test_wide_build_folders_are_per_version_and_tree(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("ENOTTY_CACHE", str(tmp_path / "cache"))
    kdir = tmp_path / "linux"
    kdir.mkdir()
    (kdir / "Makefile").write_text("VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 2\n")
    folder = build.build_folder(kdir, "allmodconfig")
    assert folder.parent == tmp_path / "cache" / "build"
    assert folder.name.startswith("allmodconfig-6.1.2-") and len(folder.name) == len("allmodconfig-6.1.2-") + 8


def test_configure_platform_configures_once_and_again_after_a_recipe_change(tmp_path: Path, monkeypatch) -> None:
    made: list[str] = []

    def fake_configure_wide(src, obj, base, settings=(), make_args=(), jobs=None):
        made.append(base)
        (obj / ".config").write_text("CONFIG_A=y\n")
        return {"CONFIG_A": "y"}

    monkeypatch.setattr(build, "configure_wide", fake_configure_wide)
    obj = tmp_path / "obj"
    obj.mkdir()
    bt = build.BuildTree(tmp_path, tmp_path, obj)
    platform = build.Platform("m68k", "m68k", "m68k", "m68k-linux-gnu-", "gcc-m68k-linux-gnu", "allmodconfig")
    assert build.configure_platform(bt, platform) == {"CONFIG_A": "y"}
    assert build.configure_platform(bt, platform) == {"CONFIG_A": "y"}
    assert made == ["allmodconfig"]
    # a folder configured and prepared before HEADERS_INSTALL was turned off
    (obj / build.CONFIGURED).write_text(platform.label + "\n")
    (obj / build.PREPARED).write_text(platform.label + "\n")
    build.configure_platform(bt, platform)
    assert made == ["allmodconfig", "allmodconfig"]
    assert not (obj / build.PREPARED).exists()
    assert "HEADERS_INSTALL" in (obj / build.CONFIGURED).read_text()


def test_a_kbuild_run_killed_from_outside_is_no_answer(tmp_path: Path, monkeypatch):
    """A make killed by a signal (the OOM killer, kill -9) has printed and
    built part of its work at most: the membership probe, the dry run and
    the object build raise KeyboardInterrupt instead of answering "not
    built" or "failed", which would be kept as verdicts."""
    src = tmp_path / "src"
    (src / "drivers" / "foo").mkdir(parents=True)
    (src / "drivers" / "foo" / "Makefile").write_text("obj-m += foo.o\n")
    (src / "drivers" / "foo" / "foo.c").write_text("int x;\n")
    bt = build.BuildTree(tmp_path, src, tmp_path / "obj")
    killed = lambda argv, **kw: build.subprocess.CompletedProcess(argv, -9, "", "")
    exited = lambda argv, **kw: build.subprocess.CompletedProcess(argv, 2, "", "")
    for run, raises in ((killed, True), (exited, False)):
        monkeypatch.setattr(build.subprocess, "run", run)
        for call in (lambda: build._members(bt, ["drivers/foo/foo.c"], 1),
                     lambda: build._dry_run_members(bt, ["drivers/foo/foo.c"], {"drivers/foo/foo.c": []}, 1, None),
                     lambda: build.compile_objects(bt, ["drivers/foo/foo.c"], 1)):
            if raises:
                with pytest.raises(KeyboardInterrupt):
                    call()
            else:
                call()
