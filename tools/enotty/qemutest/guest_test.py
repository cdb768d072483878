"""The vivid guest: its config fragment, kernel command line, QEMU
configuration and kselftest patch."""
from __future__ import annotations

from pathlib import Path

from enotty.kernel import build
from enotty.qemutest import guest
from enotty.render import companions


def test_fragment_has_what_the_run_needs():
    cfg = build.parse_config(guest.FRAGMENT.read_text())
    for opt in ("64BIT", "IA32_EMULATION", "SERIAL_8250_CONSOLE", "BLK_DEV_INITRD",
                "DEVTMPFS", "BINFMT_SCRIPT", "DEVPORT", "FB_DEVICE", "VIDEO_VIVID_CEC",
                "FUTEX", "EPOLL", "SHMEM", "POSIX_TIMERS", "MODULES", "MODULE_UNLOAD"):
        assert cfg.get(f"CONFIG_{opt}") == "y", opt
    # modules, as the kselftest's wrapper expects to load them
    assert cfg["CONFIG_VIDEO_VIVID"] == cfg["CONFIG_VIDEO_VIMC"] == "m"


def _node_types(line: str) -> int:
    return int(line.split("node_types=")[1].split()[0], 16)


def test_vivid_is_loaded_with_its_framebuffer():
    """No module option on the kernel command line: the kselftest's wrapper
    and /init (for v4l2-compliance) load vivid with its default nodes plus
    the framebuffer (bit 16)."""
    line = " ".join(guest.qemu_config(Path("/k"), Path("/i"), Path("/l")).argv()).split("-append ")[1]
    assert "console=ttyS0" in line and "rdinit=/init" in line and "vivid." not in line
    wrapper = (companions.SELFTEST_SOURCE / guest.WRAPPER).read_text()
    init = guest.INIT_SCRIPT.read_text()
    loads = [ln for ln in init.splitlines() if ln.startswith("modprobe vivid ")]
    assert len(loads) == 1
    for value in (_node_types(wrapper), _node_types(loads[0])):
        assert value & (1 << 16) and value & 0xE1D3D == 0xE1D3D
    assert "/kselftest/run_kselftest.sh" in init


def test_qemu_config_is_a_small_tcg_guest_with_qboot_when_there(tmp_path: Path):
    bios = tmp_path / "qboot.rom"
    bios.write_bytes(b"")
    argv = guest.qemu_config(Path("/k/bzImage"), Path("/i.cpio"), Path("/log"), bios=bios).argv()
    joined = " ".join(argv)
    assert "-m 512M" in joined and "-accel tcg" in joined and f"-bios {bios}" in joined
    assert "-kernel /k/bzImage -initrd /i.cpio" in joined and "-serial file:/log" in joined
    assert "-accel kvm" in " ".join(guest.qemu_config(Path("/k"), Path("/i"), Path("/l"), kvm=True).argv())


def test_build_kernel_configures_the_fragment_then_builds_image_and_headers(tmp_path: Path, monkeypatch):
    seen: list[object] = []
    monkeypatch.setattr(build.TinyKernel, "configure",
                        lambda self, fragment, required=None, required_from="": seen.append((fragment, required_from)))
    monkeypatch.setattr(build.TinyKernel, "make", lambda self, *targets: seen.append(targets))
    image = guest.build_kernel(tmp_path / "tree", tmp_path / "b", tmp_path / "ccache", tmp_path / "log")
    assert seen == [(guest.FRAGMENT.read_text(), guest.FRAGMENT), ("bzImage", "modules", "headers")]
    assert image == tmp_path / "b" / "arch" / "x86" / "boot" / "bzImage"


def test_the_selftest_patch_is_added_once(tmp_path: Path):
    """Every run builds the kselftest from the tree: a patch set without it
    gets the media series' kselftest diff; one that adds it is left as is."""
    from ..kernel import tree
    source = tree.resolve(None, need_kernel=True, kver="6.12")
    conversion = tmp_path / "0001-conversion.patch"
    conversion.write_text("--- a/drivers/x.c\n+++ b/drivers/x.c\n")
    scratch = tmp_path / "selftest.patch"
    got = guest.with_selftest(source, [conversion], scratch)
    assert got == [conversion, scratch]
    assert guest.adds_selftest(scratch) and not guest.adds_selftest(conversion)
    assert "+TARGETS += drivers/media\n" in scratch.read_text()
    assert guest.with_selftest(source, [conversion, scratch], tmp_path / "other") == [conversion, scratch]
    assert not (tmp_path / "other").exists()


def test_set_executables_marks_what_the_patch_creates_executable(tmp_path: Path):
    patch = tmp_path / "p.patch"
    patch.write_text("diff --git a/t/run.sh b/t/run.sh\nnew file mode 100755\n--- /dev/null\n"
                     "diff --git a/t/data b/t/data\nnew file mode 100644\n--- /dev/null\n")
    (tmp_path / "t").mkdir()
    for name in ("run.sh", "data"):
        (tmp_path / "t" / name).write_text("x")
        (tmp_path / "t" / name).chmod(0o644)
    assert guest.set_executables(tmp_path, [patch]) == ["t/run.sh"]
    assert (tmp_path / "t" / "run.sh").stat().st_mode & 0o777 == 0o755
    assert (tmp_path / "t" / "data").stat().st_mode & 0o777 == 0o644
