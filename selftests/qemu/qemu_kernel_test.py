"""Config fragment checks, kernel command line and QEMU argv, ldd parsing."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import qemu_kernel  # noqa: E402


def test_parse_config():
    cfg = qemu_kernel.parse_config(
        'CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C="x y"\n# comment\nCONFIG_D=0x10\n')
    assert cfg == {"CONFIG_A": "y", "CONFIG_B": "n", "CONFIG_C": '"x y"', "CONFIG_D": "0x10"}


def test_config_mismatches_names_dropped_options():
    fragment = "CONFIG_A=y\nCONFIG_B=y\nCONFIG_C=m\n"
    config = "CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C=y\n"
    assert qemu_kernel.config_mismatches(fragment, config) == [
        "CONFIG_B=y requested, .config has CONFIG_B=n",
        "CONFIG_C=m requested, .config has CONFIG_C=y"]
    assert qemu_kernel.config_mismatches(fragment, "CONFIG_A=y\nCONFIG_B=y\nCONFIG_C=m\n") == []


def test_fragment_has_what_the_run_needs():
    cfg = qemu_kernel.parse_config(qemu_kernel.FRAGMENT.read_text())
    for opt in ("64BIT", "IA32_EMULATION", "SERIAL_8250_CONSOLE", "BLK_DEV_INITRD",
                "DEVTMPFS", "BINFMT_SCRIPT", "DEVPORT", "FB_DEVICE", "VIDEO_VIVID",
                "VIDEO_VIVID_CEC", "VIDEO_VIMC", "FUTEX", "EPOLL", "SHMEM", "POSIX_TIMERS"):
        assert cfg.get(f"CONFIG_{opt}") == "y", opt


def test_kernel_cmdline_enables_vivid_framebuffer():
    line = qemu_kernel.kernel_cmdline()
    assert "console=ttyS0" in line and "rdinit=/init" in line
    value = int(line.split("vivid.node_types=")[1].split()[0], 16)
    assert value & (1 << 16)                  # framebuffer
    assert value & 0xE1D3D == 0xE1D3D         # and vivid's default nodes


def test_qemu_argv(tmp_path: Path):
    bios = tmp_path / "qboot.rom"
    bios.write_bytes(b"")
    argv = qemu_kernel.qemu_argv(Path("/k/bzImage"), Path("/i.cpio"), Path("/log"), bios=bios)
    assert argv[0] == "qemu-system-x86_64"
    joined = " ".join(argv)
    assert "-no-reboot" in argv and "-nographic" in argv
    assert "isa-debug-exit,iobase=0xf4,iosize=0x04" in argv
    assert "-serial file:/log" in joined and "-accel tcg" in joined
    assert f"-bios {bios}" in joined
    assert argv[argv.index("-append") + 1] == qemu_kernel.kernel_cmdline()
    kvm = qemu_kernel.qemu_argv(Path("/k"), Path("/i"), Path("/l"), kvm=True,
                                bios=tmp_path / "missing.rom")
    assert "kvm" in kvm and "-bios" not in kvm


def test_make_argv_uses_our_cpus_unless_told(tmp_path: Path):
    from enotty.requests import default_jobs
    argv = qemu_kernel.make_argv(tmp_path / "tree", tmp_path / "b", "bzImage")
    assert argv[:4] == ["make", "-s", "-C", str(tmp_path / "tree")]
    assert f"-j{default_jobs()}" in argv and argv[-1] == "bzImage"
    assert "-j7" in qemu_kernel.make_argv(tmp_path, tmp_path, "headers", jobs=7)
    assert "CC=ccache gcc" in argv and "ARCH=x86_64" in argv


def test_builds_run_without_the_calling_make_and_with_our_ccache(tmp_path: Path, monkeypatch):
    # `make qemu-test KDIR=...` hands its variables down in MAKEFLAGS.
    monkeypatch.setenv("MAKEFLAGS", " -- KDIR=/k SERIES=media")
    seen = []
    monkeypatch.setattr(qemu_kernel, "configure", lambda tree, build, log, env: seen.append(env))
    monkeypatch.setattr(qemu_kernel, "_run_logged",
                        lambda argv, log, env=None, cwd=None: seen.append(env))
    qemu_kernel.build_kernel(tmp_path, tmp_path / "b", tmp_path / "ccache", tmp_path / "log")
    assert len(seen) == 2
    for env in seen:
        assert env["CCACHE_DIR"] == str(tmp_path / "ccache") and "MAKEFLAGS" not in env


def test_the_selftest_patch_is_added_once(tmp_path: Path):
    """Every run builds the kselftest from the tree: a patch set without it
    gets the media series' kselftest diff; one that adds it is left as is."""
    from enotty.kernel import tree
    source = tree.resolve(None, need_kernel=True)
    conversion = tmp_path / "0001-conversion.patch"
    conversion.write_text("--- a/drivers/x.c\n+++ b/drivers/x.c\n")
    scratch = tmp_path / "selftest.patch"
    got = qemu_kernel.with_selftest(source, [conversion], scratch)
    assert got == [conversion, scratch]
    assert qemu_kernel.adds_selftest(scratch) and not qemu_kernel.adds_selftest(conversion)
    assert "+TARGETS += drivers/media\n" in scratch.read_text()
    assert qemu_kernel.with_selftest(source, [conversion, scratch], tmp_path / "other") == [conversion, scratch]
    assert not (tmp_path / "other").exists()
