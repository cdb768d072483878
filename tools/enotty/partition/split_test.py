"""The series split: subsystems from MAINTAINERS, drivers, media, path fallback."""
from __future__ import annotations

from pathlib import Path

from .maintainers import Maintainers
from ..find.sites import Site
from . import split
from .split import FileChange, label_sites, plan

FIXTURE = Path(__file__).parents[1] / "testdata" / "series" / "kernel"


def change(path: str, function: str = "f_ioctl") -> FileChange:
    site = Site(path, 10, function, "file_operations.unlocked_ioctl", "EINVAL", "ENOTTY",
                "ioctl_default_return")
    return FileChange(path, f"--- a/{path}\n+++ b/{path}\n", (site,))


def layout(plans) -> dict[str, list[tuple[str, list[str]]]]:
    return {s.name: [(p.driver, p.paths) for p in s.patches] for s in plans}


def test_split_by_maintainers() -> None:
    m = Maintainers.load(FIXTURE)
    plans = plan([
        change("drivers/watchdog/bar_wdt.c"), change("drivers/watchdog/baz_wdt.c"),
        change("drivers/watchdog/foo_wdt.c"), change("drivers/watchdog/foo_wdt_core.c"),
        change("drivers/misc/genwqe/card_dev.c"), change("drivers/misc/genwqe/card_base.c"),
        change("drivers/misc/other.c"), change("drivers/char/lonely.c"),
    ], m)
    assert layout(plans) == {
        # a file in the subsystem's own folder is its own driver ...
        "watchdog-device-drivers": [
            ("bar_wdt", ["drivers/watchdog/bar_wdt.c"]),
            ("baz_wdt", ["drivers/watchdog/baz_wdt.c"]),
            # ... unless a finer section covers it: that section is one patch
            ("foo_wdt", ["drivers/watchdog/foo_wdt.c", "drivers/watchdog/foo_wdt_core.c"]),
        ],
        "char-and-misc-drivers": [
            ("genwqe", ["drivers/misc/genwqe/card_base.c", "drivers/misc/genwqe/card_dev.c"]),
            ("other", ["drivers/misc/other.c"]),
        ],
        # X: drivers/char/lonely.c leaves only THE REST
        "the-rest": [("char", ["drivers/char/lonely.c"])],
    }
    assert list(layout(plans)) == sorted(layout(plans)), "series in name order"


def test_media_folders_form_one_series() -> None:
    m = Maintainers.load(FIXTURE)
    plans = plan([
        change("drivers/media/usb/uvc/uvc_v4l2.c"), change("drivers/media/usb/uvc/uvc_ctrl.c"),
        change("drivers/media/pci/cx18/cx18-ioctl.c"), change("drivers/media/pci/cx18/cx18-fileops.c"),
        change("drivers/staging/media/atomisp/pci/atomisp_ioctl.c"),
        change("drivers/staging/other/x.c"),
        change("include/media/v4l2-foo.h"),
    ], m)
    got = layout(plans)
    assert got["media"] == [
        ("cx18", ["drivers/media/pci/cx18/cx18-fileops.c", "drivers/media/pci/cx18/cx18-ioctl.c"]),
        ("uvc", ["drivers/media/usb/uvc/uvc_ctrl.c", "drivers/media/usb/uvc/uvc_v4l2.c"]),
        ("atomisp", ["drivers/staging/media/atomisp/pci/atomisp_ioctl.c"]),
        ("v4l2-foo", ["include/media/v4l2-foo.h"]),
    ]
    # staging outside media stays with the staging tree
    assert got["staging-subsystem"] == [("other", ["drivers/staging/other/x.c"])]
    assert set(got) == {"media", "staging-subsystem"}


def test_path_fallback_without_maintainers() -> None:
    plans = plan([change("drivers/foo/a.c"), change("drivers/foo/b.c"), change("drivers/foo/sub/c.c"),
                  change("drivers/foo/sub/d.c"), change("top.c"), change("drivers/media/x/y.c")], None)
    assert layout(plans) == {
        "drivers-foo": [("a", ["drivers/foo/a.c"]), ("b", ["drivers/foo/b.c"]),
                        ("sub", ["drivers/foo/sub/c.c", "drivers/foo/sub/d.c"])],
        "media": [("x", ["drivers/media/x/y.c"])],
        "top": [("top", ["top.c"])],
    }


def test_sites_are_labelled_with_series_and_subsystem() -> None:
    m = Maintainers.load(FIXTURE)
    labelled = label_sites(plan([change("drivers/watchdog/bar_wdt.c"), change("drivers/media/a/b.c")], m))
    assert {(s.file, s.series, s.subsystem) for s in labelled} == {
        ("drivers/watchdog/bar_wdt.c", "watchdog-device-drivers", "WATCHDOG DEVICE DRIVERS"),
        ("drivers/media/a/b.c", "media", "MEDIA INPUT INFRASTRUCTURE (V4L/DVB)"),
    }


def test_a_folder_of_drivers_splits_per_file(tmp_path: Path) -> None:
    root = tmp_path / "linux"
    for folder in ("drivers/video/fbdev/core", "drivers/media/v4l2-core"):
        (root / folder).mkdir(parents=True)
    text = ("Maintainers List\n----\n\nFB\nM:\tF <f@example.org>\nT:\tgit x\nF:\tdrivers/video/\n\n"
            "MEDIA\nM:\tM <m@example.org>\nT:\tgit y\nF:\tdrivers/media/\n")
    from .maintainers import parse
    m = Maintainers(parse(text, root))
    plans = plan([change("drivers/video/fbdev/a_fb.c"), change("drivers/video/fbdev/b_fb.c"),
                  change("drivers/video/fbdev/core/fb_chrdev.c"),
                  change("drivers/media/v4l2-core/v4l2-ioctl.c"), change("drivers/media/v4l2-core/v4l2-dev.c")],
                 m, root)
    assert layout(plans) == {
        "fb": [("a_fb", ["drivers/video/fbdev/a_fb.c"]), ("b_fb", ["drivers/video/fbdev/b_fb.c"]),
               ("core", ["drivers/video/fbdev/core/fb_chrdev.c"])],
        "media": [("v4l2-core", ["drivers/media/v4l2-core/v4l2-dev.c", "drivers/media/v4l2-core/v4l2-ioctl.c"])],
    }


SOUND_AND_NET = """Maintainers List
----

ATM
M:\tChas <chas@example.org>
L:\tlinux-atm-general@lists.sourceforge.net (moderated for non-subscribers)
L:\tnetdev@vger.kernel.org
F:\tdrivers/atm/

BPF [NETWORKING]
M:	Alexei <ast@example.org>
L:	netdev@vger.kernel.org
L:	bpf@vger.kernel.org
T:	git git://git.kernel.org/pub/scm/linux/kernel/git/bpf/bpf-next.git
F:	kernel/bpf/
F:	net/core/filter.c

FOCUSRITE SCARLETT2 MIXER DRIVER
M:\tGeoffrey <g@example.org>
L:\tlinux-sound@vger.kernel.org
T:\tgit https://github.com/geoffreybennett/scarlett-gen2.git
F:\tinclude/uapi/sound/scarlett2.h
F:\tsound/usb/mixer_scarlett2.c

IOMMU SUBSYSTEM
M:\tJoerg <j@example.org>
L:\tiommu@lists.linux.dev
T:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/iommu/linux.git
F:\tdrivers/iommu/

IOMMUFD
M:\tJason <jgg@example.org>
L:\tiommu@lists.linux.dev
T:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/jgg/iommufd.git
F:\tdrivers/iommu/iommufd/

NETWORKING DRIVERS
M:\tDave <davem@example.org>
L:\tnetdev@vger.kernel.org
T:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/netdev/net.git
T:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/netdev/net-next.git
F:\tdrivers/net/

NETWORKING [GENERAL]
M:\tDave <davem@example.org>
L:\tnetdev@vger.kernel.org
T:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/netdev/net.git
T:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/netdev/net-next.git
F:\tnet/

SOUND
M:\tTakashi <tiwai@example.org>
L:\tlinux-sound@vger.kernel.org
T:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/tiwai/sound.git
F:\tsound/

THE REST
M:\tLinus <torvalds@example.org>
L:\tlinux-kernel@vger.kernel.org
T:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git
F:\t*
F:\t*/
"""


def leaf(path: str, line: int = 20, function: str = "g_ioctl") -> Site:
    return Site(path, line, function, "snd_hwdep_ops.ioctl", "ENOIOCTLCMD", "ENOTTY",
                "ioctl_leaf_enoioctlcmd")


def test_one_series_per_tree_and_list() -> None:
    from .maintainers import parse
    m = Maintainers(parse(SOUND_AND_NET))
    plans = plan([change("sound/pci/hda/hda_hwdep.c"), change("sound/usb/mixer_scarlett2.c"),
                  change("drivers/atm/he.c"), change("drivers/net/tun.c"), change("net/mctp/af_mctp.c"),
                  change("drivers/iommu/iommufd/main.c"), change("drivers/iommu/intel/iommu.c"),
                  change("net/core/filter.c")], m)
    got = {s.name: (s.subject_prefix, sorted(p for pp in s.patches for p in pp.paths)) for s in plans}
    assert got == {
        # a single-file driver section with a development tree joins its list's tree
        "sound": ("PATCH", ["sound/pci/hda/hda_hwdep.c", "sound/usb/mixer_scarlett2.c"]),
        # netdev applies ATM (no tree) and both networking sections (same trees), each
        # driver section after its own maintainers' review: one net-next series each,
        # so no driver's maintainers get the others' patches
        "atm": ("PATCH net-next", ["drivers/atm/he.c"]),
        "networking-drivers": ("PATCH net-next", ["drivers/net/tun.c"]),
        "networking-general": ("PATCH net-next", ["net/mctp/af_mctp.c"]),
        # a folder section with its own tree stays apart although it shares the list
        "iommufd": ("PATCH", ["drivers/iommu/iommufd/main.c"]),
        "iommu-subsystem": ("PATCH", ["drivers/iommu/intel/iommu.c"]),
        # netdev is on the list, but BPF has its own tree: its own -next tag
        "bpf-networking": ("PATCH bpf-next", ["net/core/filter.c"]),
    }
    net = next(s for s in plans if s.name == "networking-general")
    assert net.subsystem == "NETWORKING [GENERAL]" and net.tree_tag == "net-next"
    assert net.lists[0] == "netdev@vger.kernel.org" and "linux-kernel@vger.kernel.org" not in net.lists
    atm = next(s for s in plans if s.name == "atm")
    assert atm.subsystem == "ATM" and atm.tree_tag == "net-next" and "netdev@vger.kernel.org" in atm.lists


def test_cleanups_close_their_series_or_stay_out() -> None:
    from .maintainers import parse
    m = Maintainers(parse(SOUND_AND_NET))
    hwdep = FileChange("sound/pci/hda/hda_hwdep.c", "x", (leaf("sound/pci/hda/hda_hwdep.c"),))
    motu = FileChange("sound/firewire/motu/motu-hwdep.c", "y", (leaf("sound/firewire/motu/motu-hwdep.c"),))
    changes = [hwdep, change("sound/drivers/opl3/opl3_oss.c"), motu, change("sound/pci/rme9652/hdsp.c")]
    (ser,) = plan(changes, m)
    assert [(p.cleanup, p.paths) for p in ser.patches] == [
        (False, ["sound/drivers/opl3/opl3_oss.c"]), (False, ["sound/pci/rme9652/hdsp.c"]),
        (True, ["sound/firewire/motu/motu-hwdep.c", "sound/pci/hda/hda_hwdep.c"])]
    assert ser.patches[-1].section == "SOUND" and [p.driver for p in ser.behavioural] == ["opl3", "rme9652"]
    (without,) = plan(changes, m, cleanups=False)
    assert not any(p.cleanup for p in without.patches) and len(without.patches) == 2
    assert split.cleanup_changes(changes) == [hwdep, motu]
    # a series of cleanups only disappears without them
    assert plan([hwdep], m, cleanups=False) == []
    assert split.is_cleanup(leaf("a.c")) and not split.is_cleanup(change("a.c").sites[0])


OLD = [f"line {n}\n" for n in range(1, 41)]


def unified(old: list[str], new: list[str], path: str = "drivers/x.c") -> str:
    import difflib
    return "".join(difflib.unified_diff(old, new, f"a/{path}", f"b/{path}", n=3))


def apply(text: list[str], diff: str, tmp: Path) -> list[str]:
    import subprocess
    (tmp / "drivers").mkdir(exist_ok=True)
    (tmp / "drivers/x.c").write_text("".join(text))
    subprocess.run(["git", "apply", "--unidiff-zero", "-"], cwd=tmp, input=diff.encode(), check=True,
                   capture_output=True)
    return (tmp / "drivers/x.c").read_text().splitlines(True)


def test_a_file_with_both_kinds_is_split_by_hunk(tmp_path: Path) -> None:
    new = list(OLD)
    new[4] = "behaviour EINVAL -> ENOTTY\n"            # line 5
    new[34] = "behaviour 2\n"                         # line 35
    new[19:20] = ["cleanup 1\n", "cleanup 2\n"]      # line 20, one line more
    diff = unified(OLD, new)
    first, then = split.split_hunks(diff, {20})
    assert first.count("@@ -") == 2 and then.count("@@ -") == 1
    assert first.startswith("--- a/drivers/x.c\n+++ b/drivers/x.c\n")
    # behaviour first, then the cleanup on top: the same file as the whole diff
    middle = apply(OLD, first, tmp_path)
    assert "cleanup 1\n" not in middle and middle[34] == "behaviour 2\n" and len(middle) == 40
    assert apply(middle, then, tmp_path) == new
    keep = Site("drivers/x.c", 5, "f", "file_operations.unlocked_ioctl", "EINVAL", "ENOTTY", "ioctl_default_return")
    mixed = FileChange("drivers/x.c", diff, (keep, leaf("drivers/x.c", 20)))
    (ser,) = plan([mixed], None)
    assert [(p.cleanup, [s.line for s in p.sites]) for p in ser.patches] == [(False, [5]), (True, [20])]
    assert ser.patches[0].files[0].diff == first and ser.patches[1].files[0].diff == then


def test_a_hunk_holding_a_cleanup_and_a_change_splits_by_line() -> None:
    """sis_main.c: the #ifdef twin -ENOIOCTLCMD (cleanup) and the #else twin
    -EINVAL (behaviour) two lines apart, in one hunk."""
    diff = ("--- a/s.c\n+++ b/s.c\n@@ -9,7 +9,7 @@ static int s_ioctl(\n"
            " \tdefault:\n #ifdef NEW_COMPAT\n-\t\treturn -ENOIOCTLCMD;\n+\t\treturn -ENOTTY;\n"
            " #else\n-\t\treturn -EINVAL;\n+\t\treturn -ENOTTY;\n #endif\n \t}\n")
    got = split.split_lines(diff, {11})
    assert got is not None
    first, then = got
    assert "-\t\treturn -EINVAL;\n+\t\treturn -ENOTTY;\n" in first
    assert " \t\treturn -ENOIOCTLCMD;\n" in first
    assert "-\t\treturn -ENOIOCTLCMD;\n+\t\treturn -ENOTTY;\n" in then
    assert " \t\treturn -ENOTTY;\n #endif" in then
    # hunks that do not mix: split_hunks decides, as before
    assert split.split_lines(diff, {99}) is None


def test_a_netdev_section_with_its_own_trees_is_tagged_with_its_next_tree() -> None:
    """NETWORKING [IPSEC] (L: netdev, T: ipsec.git and ipsec-next.git): a
    reviewer asked for "[PATCH ipsec-next]", the tag netdev's rules ask of it."""
    trees = ("git git://git.kernel.org/pub/scm/linux/kernel/git/klassert/ipsec.git",
             "git git://git.kernel.org/pub/scm/linux/kernel/git/klassert/ipsec-next.git")
    assert split.tree_tag(("netdev@vger.kernel.org",), trees) == "ipsec-next"
    assert split.tree_tag(("netdev@vger.kernel.org",), ()) == "net-next"
    assert split.tree_tag(("linux-usb@vger.kernel.org",), trees) == ""


def test_the_function_a_left_out_valid_first_site_adds_goes_with_it() -> None:
    """ioctl_valid_first adds NAME_valid() before its handler, in a hunk far
    from its site: a file whose other handler converts keeps that hunk only
    while the site stays."""
    diff = ("--- a/f.c\n+++ b/f.c\n"
            "@@ -9,3 +9,8 @@\n"
            "+static bool a_ioctl_valid(unsigned int cmd)\n+{\n+\treturn false;\n+}\n+\n"
            " static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)\n {\n \tint r;\n"
            "@@ -12,3 +17,5 @@\n"
            "+\tif (!a_ioctl_valid(cmd))\n+\t\treturn -ENOTTY;\n \tif (!ready)\n \t\treturn -EINVAL;\n \n"
            "@@ -40,3 +47,3 @@\n \tdefault:\n-\t\treturn -EINVAL;\n+\t\treturn -ENOTTY;\n \t}\n")
    valid = Site("f.c", 13, "a_ioctl", "file_operations.unlocked_ioctl", "EINVAL", "ENOTTY", "ioctl_valid_first")
    other = Site("f.c", 41, "b_ioctl", "file_operations.unlocked_ioctl", "EINVAL", "ENOTTY",
                 "ioctl_default_return")
    (kept,) = split.kept_changes({"f.c": diff}, [valid, other], {valid: "a consumer"})
    assert "_valid" not in kept.diff and kept.sites == (other,)
    assert "return -ENOTTY" in kept.diff
    (whole,) = split.kept_changes({"f.c": diff}, [valid, other], {})
    assert whole.diff.count("a_ioctl_valid") == 2
