"""MAINTAINERS parsing and most-specific-section matching (get_maintainer.pl rules)."""
from __future__ import annotations

from pathlib import Path

import pytest

from .maintainers import Maintainers, parse, slugify

FIXTURE = Path(__file__).parents[1] / "testdata" / "series" / "kernel"

TEXT = """\
Descriptions of section entries

	F: *Files* and directories wildcard patterns.

Maintainers List
----------------

NET DRIVERS
M:	Net Person <net@example.org>
S:	Maintained
T:	git git://example.org/net.git
F:	drivers/net/
X:	drivers/net/wireless/

NET TOP LEVEL ONLY
M:	Top Person <top@example.org>
S:	Maintained
F:	drivers/net/*

BCM PHY
M:	Phy Person <phy@example.org>
S:	Maintained
F:	drivers/net/phy/bcm*.[ch]

ORPHANED COPY
S:	Orphan
F:	drivers/net/phy/bcm*.[ch]

ARCH REGEX
M:	Arch Person <arch@example.org>
S:	Maintained
N:	sunxi

THE REST
M:	Rest <rest@example.org>
S:	Buried alive in reporters
F:	*
F:	*/
"""


@pytest.fixture()
def maint() -> Maintainers:
    return Maintainers(parse(TEXT))


def titles(m: Maintainers, path: str) -> list[str]:
    return [x.section.title for x in m.matches(path)]


def test_header_blocks_are_not_sections(maint: Maintainers) -> None:
    assert [s.title for s in maint.sections] == [
        "NET DRIVERS", "NET TOP LEVEL ONLY", "BCM PHY", "ORPHANED COPY", "ARCH REGEX", "THE REST"]
    assert maint.sections[0].values("T") == ["git git://example.org/net.git"]


def test_trailing_slash_is_recursive_star_is_one_level(maint: Maintainers) -> None:
    # drivers/net/* covers drivers/net/x.c but not drivers/net/phy/y.c
    assert titles(maint, "drivers/net/dummy.c")[:2] == ["NET TOP LEVEL ONLY", "NET DRIVERS"]
    assert "NET TOP LEVEL ONLY" not in titles(maint, "drivers/net/phy/marvell.c")
    assert titles(maint, "drivers/net/phy/marvell.c")[0] == "NET DRIVERS"


def test_most_specific_section_wins_and_maintained_breaks_ties(maint: Maintainers) -> None:
    found = maint.matches("drivers/net/phy/bcm7xxx.c")
    assert [m.section.title for m in found] == ["BCM PHY", "ORPHANED COPY", "NET DRIVERS", "THE REST"]
    assert found[0].depth == 4 and found[2].depth == 2 and found[3].depth == -1
    # the [ch] class: a .o is not covered
    assert titles(maint, "drivers/net/phy/bcm7xxx.o")[0] == "NET DRIVERS"


def test_exclusion_drops_the_section(maint: Maintainers) -> None:
    assert titles(maint, "drivers/net/wireless/ath/x.c") == ["THE REST"]


def test_n_regex_matches_anywhere_at_depth_zero(maint: Maintainers) -> None:
    found = maint.matches("drivers/clk/sunxi/ccu.c")
    assert [(m.section.title, m.depth) for m in found] == [("ARCH REGEX", 0), ("THE REST", -1)]


def test_directory_without_slash_becomes_recursive_with_the_tree(tmp_path: Path) -> None:
    (tmp_path / "drivers" / "watchdog" / "sub").mkdir(parents=True)
    text = "Maintainers List\n----\n\nWD\nM:\tW <w@example.org>\nF:\tdrivers/watchdog\n"
    with_tree = Maintainers(parse(text, tmp_path))
    without = Maintainers(parse(text))
    assert titles(with_tree, "drivers/watchdog/sub/x.c") == ["WD"]
    assert titles(without, "drivers/watchdog/sub/x.c") == []


def test_fixture_tree(tmp_path: Path) -> None:
    m = Maintainers.load(FIXTURE)
    assert m is not None

    maint: Maintainers = m

    def best_title(path: str) -> str:
        found = maint.best(path)
        assert found is not None, path
        return found.section.title
    assert best_title("drivers/staging/media/atomisp/pci/atomisp_ioctl.c") == "STAGING - ATOMISP DRIVER"
    assert best_title("drivers/watchdog/foo_wdt.c") == "FOO WATCHDOG DRIVER"
    assert best_title("drivers/watchdog/bar_wdt.c") == "WATCHDOG DEVICE DRIVERS"
    assert best_title("drivers/char/lonely.c") == "THE REST"
    assert Maintainers.load(tmp_path) is None


def test_slugify() -> None:
    assert slugify("WATCHDOG DEVICE DRIVERS") == "watchdog-device-drivers"
    assert slugify("MEDIA INPUT INFRASTRUCTURE (V4L/DVB)") == "media-input-infrastructure-v4l-dvb"
    assert slugify("***") == "unnamed"


def test_literal_start_breaks_depth_ties() -> None:
    text = ("Maintainers List\n----\n\nXEN HYPERVISOR\nM:\tX <x@example.org>\nF:\tdrivers/*/xen-*front.c\n\n"
            "XEN BLOCK\nM:\tB <b@example.org>\nF:\tdrivers/block/xen*\n")
    m = Maintainers(parse(text))
    assert titles(m, "drivers/block/xen-blkfront.c") == ["XEN BLOCK", "XEN HYPERVISOR"]
