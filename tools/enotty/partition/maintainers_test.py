"""MAINTAINERS parsing and most-specific-section matching (get_maintainer.pl rules)."""
from __future__ import annotations

from pathlib import Path

import pytest

from . import maintainers
from ..kernel import tree
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


def test_get_maintainer_on_the_fixture_tree(tmp_path: Path) -> None:
    found = tree.script(FIXTURE, "get_maintainer.pl")
    if found is None:
        pytest.skip("no get_maintainer.pl: the default tree is not unpacked")
    patch = tmp_path / "p.patch"
    patch.write_text("--- a/drivers/watchdog/bar_wdt.c\n+++ b/drivers/watchdog/bar_wdt.c\n"
                     "@@ -15,1 +15,1 @@\n-\t\treturn -EINVAL;\n+\t\treturn -ENOTTY;\n")
    to = maintainers.get_maintainer(tree.at(FIXTURE), [patch], "to")
    cc = maintainers.get_maintainer(tree.at(FIXTURE), [patch], "cc")
    assert "Wim Watchdog <wim@example.org>" in to
    assert "linux-watchdog@vger.kernel.org" not in to
    assert "linux-watchdog@vger.kernel.org" in cc and "Guenter Review <guenter@example.org>" in cc
    # a mail's To: and Cc:, nobody twice
    got_to, got_cc = maintainers.recipients(tree.at(FIXTURE), [patch])
    assert list(got_to) == to and set(got_cc) == set(cc) - set(to) and len(set(got_cc)) == len(got_cc)


def test_literal_start_breaks_depth_ties() -> None:
    text = ("Maintainers List\n----\n\nXEN HYPERVISOR\nM:\tX <x@example.org>\nF:\tdrivers/*/xen-*front.c\n\n"
            "XEN BLOCK\nM:\tB <b@example.org>\nF:\tdrivers/block/xen*\n")
    m = Maintainers(parse(text))
    assert titles(m, "drivers/block/xen-blkfront.c") == ["XEN BLOCK", "XEN HYPERVISOR"]


def test_get_maintainer_order_is_the_same_on_every_run(tmp_path: Path) -> None:
    default = tree.script(FIXTURE, "get_maintainer.pl")
    if default is None:
        pytest.skip("no get_maintainer.pl: the default tree is not unpacked")
    root = default.path.parents[1]
    patch = tmp_path / "p.patch"
    # XEN HYPERVISOR INTERFACE and XEN BLOCK SUBSYSTEM match at the same depth:
    # Perl's randomised hash order used to swap them between runs.
    patch.write_text("--- a/drivers/block/xen-blkfront.c\n+++ b/drivers/block/xen-blkfront.c\n"
                     "@@ -1 +1 @@\n-a\n+b\n")
    answers = {tuple(maintainers.get_maintainer(tree.at(root, use_cache=False), [patch], "to")) for _ in range(6)}
    assert len(answers) == 1 and len(next(iter(answers))) >= 2


def test_get_maintainer_answers_are_kept_by_content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if tree.script(FIXTURE, "get_maintainer.pl") is None:
        pytest.skip("no get_maintainer.pl: the default tree is not unpacked")
    real = tree.cache_dir() / "src"
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "src").symlink_to(real)     # the default tree's get_maintainer.pl
    monkeypatch.setenv("ENOTTY_CACHE", str(tmp_path / "cache"))
    patch = tmp_path / "p.patch"
    patch.write_text("--- a/drivers/watchdog/bar_wdt.c\n+++ b/drivers/watchdog/bar_wdt.c\n"
                     "@@ -15,1 +15,1 @@\n-\t\treturn -EINVAL;\n+\t\treturn -ENOTTY;\n")
    first = maintainers.get_maintainer(tree.at(FIXTURE), [patch], "to")
    assert "Wim Watchdog <wim@example.org>" in first
    monkeypatch.setenv("PATH", str(tmp_path))          # no perl: only the cache can answer
    assert maintainers.get_maintainer(tree.at(FIXTURE), [patch], "to") == first
    patch.write_text(patch.read_text().replace("bar_wdt", "foo_wdt"))
    with pytest.raises(FileNotFoundError):           # new content: perl is asked again
        maintainers.get_maintainer(tree.at(FIXTURE), [patch], "to")
