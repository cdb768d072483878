"""The series split: subsystems from MAINTAINERS, drivers, media, path fallback."""
from __future__ import annotations

from pathlib import Path

from enotty.maintainers import Maintainers
from enotty.sites import Site
from enotty.split import FileChange, label_sites, plan

FIXTURE = Path(__file__).parent / "testdata" / "series" / "kernel"


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
    from enotty.maintainers import parse
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
