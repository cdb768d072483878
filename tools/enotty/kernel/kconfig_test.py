"""enotty.kernel.kconfig: Makefile and Kconfig readers, on fixtures and on the 6.12 tree."""
from __future__ import annotations

from pathlib import Path

import pytest

from . import kconfig as ks
from . import tree as enotty_tree


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_plain_obj_line(tmp_path):
    write(tmp_path, "drivers/char/Makefile", "obj-$(CONFIG_PRINTER) += lp.o\nobj-y += mem.o\n")
    write(tmp_path, "drivers/Makefile", "obj-y += char/\n")
    assert ks.build_symbols(tmp_path, "drivers/char/lp.c") == ["CONFIG_PRINTER"]
    assert ks.build_symbols(tmp_path, "drivers/char/mem.c") == []


def test_composite_object_and_its_conditional_part(tmp_path):
    write(tmp_path, "drivers/android/Makefile",
          "obj-$(CONFIG_ANDROID_BINDER_IPC) += binder_linux.o\n"
          "binder_linux-y := binder.o binder_alloc.o\n"
          "binder_linux-$(CONFIG_ANDROID_BINDERFS) += binderfs.o\n")
    assert ks.build_symbols(tmp_path, "drivers/android/binder.c") == ["CONFIG_ANDROID_BINDER_IPC"]
    assert ks.build_symbols(tmp_path, "drivers/android/binderfs.c") == [
        "CONFIG_ANDROID_BINDERFS", "CONFIG_ANDROID_BINDER_IPC"]


def test_objs_suffix_continuation_and_folder_chain(tmp_path):
    write(tmp_path, "sound/pci/hda/Makefile",
          "snd-hda-codec-y := hda_codec.o \\\n\thda_jack.o\n"
          "snd-hda-codec-objs += hda_hwdep.o\n"
          "obj-$(CONFIG_SND_HDA) += snd-hda-codec.o\n")
    write(tmp_path, "sound/pci/Makefile", "obj-$(CONFIG_SND_PCI) += hda/\n")
    write(tmp_path, "sound/Makefile", "obj-$(CONFIG_SND) += pci/\n")
    assert ks.build_symbols(tmp_path, "sound/pci/hda/hda_jack.c") == [
        "CONFIG_SND_HDA", "CONFIG_SND_PCI", "CONFIG_SND"]
    assert ks.build_symbols(tmp_path, "sound/pci/hda/hda_hwdep.c")[0] == "CONFIG_SND_HDA"


def test_ifdef_guard_counts_and_else_does_not(tmp_path):
    write(tmp_path, "fs/x/Makefile",
          "ifdef CONFIG_A\nobj-y += a.o\nelse\nobj-y += b.o\nendif\n")
    assert ks.build_symbols(tmp_path, "fs/x/a.c") == ["CONFIG_A"]
    assert ks.build_symbols(tmp_path, "fs/x/b.c") == []


def test_folder_named_by_several_lines_prefers_one_already_needed(tmp_path):
    write(tmp_path, "drivers/Makefile",
          "obj-$(CONFIG_USB_PHY) += usb/\nobj-$(CONFIG_USB) += usb/\n")
    write(tmp_path, "drivers/usb/Makefile", "obj-$(CONFIG_USB) += core/\n")
    write(tmp_path, "drivers/usb/core/Makefile", "usbcore-y := hub.o\nobj-$(CONFIG_USB) += usbcore.o\n")
    assert ks.build_symbols(tmp_path, "drivers/usb/core/hub.c") == ["CONFIG_USB"]


def test_unbuilt_file_is_an_error(tmp_path):
    write(tmp_path, "drivers/x/Makefile", "obj-$(CONFIG_X) += x.o\n")
    with pytest.raises(ks.DerivationError, match="no kbuild line builds y.o"):
        ks.build_symbols(tmp_path, "drivers/x/y.c")
    with pytest.raises(ks.DerivationError):
        ks.build_symbols(tmp_path, "drivers/nowhere/z.c")


def test_expression_evaluation_and_failing_parts():
    node = ks._Expr("NET && (BT_BREDR || FOO) && !BROKEN && DM_VERITY=y").tree
    values = {"NET": "y", "BT_BREDR": "n", "FOO": "y", "DM_VERITY": "y"}
    assert ks.evaluate(node, values)
    values["DM_VERITY"] = "m"
    assert not ks.evaluate(node, values)
    assert ks.failing_atoms(node, values) == ["DM_VERITY=y"]


def test_or_branch_prefers_wanted_symbols_and_skips_other_architectures():
    node = ks._Expr("ARM || FUSION_SPI || FUSION_SAS").tree
    assert ks.wanted_atoms(node)[0] == ["FUSION_SPI"]
    assert ks.wanted_atoms(node, frozenset({"FUSION_SAS"}))[0] == ["FUSION_SAS"]
    assert ks.wanted_atoms(ks._Expr("ARM64 || PPC").tree)[0] == []


def test_kconfig_deps_on_fixture(tmp_path):
    write(tmp_path, "Kconfig", 'source "drivers/Kconfig"\n')
    write(tmp_path, "arch/x86/Kconfig", "config X86\n\tdef_bool y\n")
    write(tmp_path, "drivers/Kconfig",
          'menu "Drivers"\n\tdepends on NET\n\n'
          'config FOO\n\ttristate "foo"\n\tdepends on BAR\n\thelp\n'
          '\t  if this were parsed as Kconfig it would open a block\n\n'
          'config BAR\n\tbool "bar"\n\n'
          'if BAZ\nconfig QUX\n\tbool\nendif\nendmenu\n'
          'config NET\n\tbool "net"\n')
    deps = ks.KconfigDeps(tmp_path)
    assert ks.render(deps.dependency("FOO")) == "NET && BAR"
    assert deps.closure(["CONFIG_FOO"])[0] == ["NET", "BAR", "FOO"]
    assert deps.settable("FOO") and not deps.settable("QUX")
    assert deps.why_unset("FOO", {"NET": "y"}) == "unmet dependency: BAR"
    assert deps.why_unset("QUX", {"NET": "y", "BAZ": "y"}).startswith("no prompt")
    assert deps.why_unset("NOPE", {}).startswith("not defined")


@pytest.fixture(scope="module")
def kernel():
    try:
        return enotty_tree.resolve(None, need_kernel=True, kver="6.12")
    except Exception as err:  # noqa: BLE001 - make check unpacks the tree first
        pytest.skip(f"default kernel tree unavailable: {err}")


@pytest.mark.parametrize("source,symbols", [
    ("drivers/block/floppy.c", ["CONFIG_BLK_DEV_FD"]),
    ("drivers/android/binder.c", ["CONFIG_ANDROID_BINDER_IPC"]),
    ("drivers/isdn/capi/capi.c", ["CONFIG_BT_CMTP", "CONFIG_ISDN"]),
    ("drivers/usb/core/hub.c", ["CONFIG_USB"]),
    # fbdev/Makefile descends into aty/ for FB_ATY, FB_ATY128 and FB_RADEON.
    ("drivers/video/fbdev/aty/aty128fb.c", ["CONFIG_FB_ATY128"]),
    ("sound/pci/hda/hda_hwdep.c", ["CONFIG_SND_HDA_HWDEP", "CONFIG_SND_HDA", "CONFIG_SND"]),
    ("drivers/staging/media/atomisp/pci/atomisp_ioctl.c",
     ["CONFIG_VIDEO_ATOMISP", "CONFIG_INTEL_ATOMISP", "CONFIG_STAGING"]),
    ("drivers/char/random.c", []),
])
def test_real_makefiles(kernel, source, symbols):
    assert ks.build_symbols(kernel, source) == symbols


def test_real_kconfig_reasons(kernel):
    deps = ks.KconfigDeps(kernel)
    assert deps.why_unset("NTSYNC", {}) == "unmet dependency: BROKEN"
    order, _ = deps.closure(["CONFIG_SECURITY_LOADPIN_VERITY"])
    assert {"SECURITY_LOADPIN", "DM_VERITY", "SECURITYFS", "BLK_DEV_DM"} <= set(order)
    assert order.index("DM_VERITY") < order.index("SECURITY_LOADPIN_VERITY")


def test_module_name_is_the_object_or_its_composite(tmp_path):
    write(tmp_path, "drivers/android/Makefile",
          "obj-$(CONFIG_ANDROID_BINDER_IPC) += binder_linux.o\n"
          "binder_linux-y := binder.o binder_alloc.o\n"
          "binder_linux-$(CONFIG_ANDROID_BINDERFS) += binderfs.o\n"
          "obj-$(CONFIG_X) += x.o\n")
    assert ks.module_name(tmp_path, "drivers/android/binderfs.c") == "binder_linux"
    assert ks.module_name(tmp_path, "drivers/android/x.c") == "x"


def test_module_name_follows_composites_of_composites_and_paths(tmp_path):
    write(tmp_path, "drivers/m/Makefile",
          "obj-$(CONFIG_M) += big.o\nbig-objs := part.o\npart-y := sub/a.o\nalways-y += tool.o\n")
    assert ks.module_name(tmp_path, "drivers/m/sub/a.c") == "big"
    # `always-y` builds no composite called always
    assert ks.module_name(tmp_path, "drivers/m/tool.c") == "tool"


def test_module_name_without_a_makefile_line_is_the_file_name(tmp_path):
    write(tmp_path, "drivers/y/Makefile", "obj-$(CONFIG_Y) += y.o\n")
    assert ks.module_name(tmp_path, "drivers/y/z.c") == "z"
    assert ks.module_name(tmp_path, "drivers/net/tun_vnet.h") == "tun_vnet"
    assert ks.module_name(tmp_path, "nowhere/w.c") == "w"


@pytest.mark.parametrize("source,module", [
    ("drivers/input/evdev.c", "evdev"),
    ("drivers/xen/evtchn.c", "xen-evtchn"),
    ("drivers/block/xen-blkfront.c", "xen-blkfront"),
    ("sound/core/oss/pcm_oss.c", "snd-pcm-oss"),
])
def test_real_module_names(kernel, source, module):
    assert ks.module_name(kernel, source) == module


def test_module_name_follows_a_plain_make_variable(tmp_path: Path) -> None:
    # omap1's fbdev Makefile: omapfb-objs := $(objs-yy), objs-yy := omapfb_main.o lcdc.o
    (tmp_path / "drivers/fb").mkdir(parents=True)
    (tmp_path / "drivers/fb/Makefile").write_text(
        "obj-$(CONFIG_FB_OMAP) += omapfb.o\nobjs-yy := omapfb_main.o lcdc.o\nomapfb-objs := $(objs-yy)\n")
    assert ks.module_name(tmp_path, "drivers/fb/omapfb_main.c") == "omapfb"
