"""series_claims: selecting series and reading their claims per file."""
from __future__ import annotations

import pytest

from enotty.audit import series_claims
from enotty.errors import UsageError
from enotty.measure import generated

PATCH = """From x
Subject: [PATCH] x

---
 {f} | 2 +-
--- a/{f}
+++ b/{f}
@@ -1 +1 @@
-a
+b
"""
SITES = ("file\tline\tfunction\tinterface\tfrom\tto\n"
         "drivers/block/floppy.c\t1\tfd_locked_ioctl\tb.ioctl\tEINVAL\tENOTTY\n"
         "fs/pipe.c\t1\tpipe_ioctl\tf.unlocked_ioctl\tENOIOCTLCMD\tENOTTY\n")


@pytest.fixture
def root(tmp_path):
    (tmp_path / "block").mkdir()
    (tmp_path / "block" / "0000-cover-letter.patch").write_text("cover")
    (tmp_path / "block" / "0001-floppy.patch").write_text(PATCH.format(f="drivers/block/floppy.c"))
    (tmp_path / "vfs").mkdir()
    (tmp_path / "vfs" / "0001-pipe.patch").write_text(
        PATCH.format(f="fs/pipe.c") + PATCH.format(f="include/linux/fs.h"))
    (tmp_path / "empty").mkdir()
    (tmp_path / "sites.tsv").write_text(SITES)
    return tmp_path


def test_discover_and_select(root):
    assert sorted(series_claims.discover(root)) == ["block", "vfs"]
    assert [p.name for p in series_claims.select(root, "block")["block"]] == ["0001-floppy.patch"]
    assert sorted(series_claims.select(root, "all")) == ["block", "vfs"]


@pytest.mark.parametrize("name,message", [
    ("nosuch", "unknown series 'nosuch'.*2 series there"),
    ("empty", "holds no NNNN-"),
    ("../x", "a series is a folder name"),
])
def test_bad_series_is_one_clear_error(root, name, message):
    with pytest.raises(UsageError, match=message):
        series_claims.select(root, name)


def test_claims_per_c_file(root):
    claims = series_claims.claims(root, series_claims.discover(root))
    assert sorted(claims) == ["drivers/block/floppy.c", "fs/pipe.c"]
    fd = claims["drivers/block/floppy.c"]
    assert fd.visible and fd.old == ("EINVAL",) and fd.patch == "block/0001-floppy.patch"
    assert fd.functions == ("fd_locked_ioctl",)
    assert not claims["fs/pipe.c"].visible


@pytest.mark.parametrize("root", generated.committed_outputs(), ids=lambda p: p.name)
def test_committed_series_have_claims_for_every_patched_c_file(root):
    if not (root / "sites.tsv").is_file():
        pytest.skip(f"{root.name} has no sites.tsv")
    claims = series_claims.claims(root, series_claims.discover(root))
    sites = series_claims.read_sites(root)
    # sites.tsv also lists sites left out (SUMMARY.md says why): no patch, no claim.
    assert claims and set(claims) <= set(sites)


def test_effect_column_decides_the_claim_where_present(root):
    (root / "sites.tsv").write_text(
        "file\tline\tfunction\tinterface\tfrom\tto\tvisible\n"
        "drivers/block/floppy.c\t1\tfd_locked_ioctl\tb.ioctl\tEINVAL\tENOTTY\tunreachable\n"
        "fs/pipe.c\t1\tpipe_ioctl\tf.unlocked_ioctl\tENOIOCTLCMD\tENOTTY\tinvisible\n")
    claims = series_claims.claims(root, series_claims.discover(root))
    assert not claims["drivers/block/floppy.c"].visible
    assert not claims["fs/pipe.c"].visible
    (root / "sites.tsv").write_text(
        "file\tline\tfunction\tinterface\tfrom\tto\tvisible\n"
        "drivers/block/floppy.c\t1\tfd_locked_ioctl\tb.ioctl\tEINVAL\tENOTTY\tyes\n")
    assert series_claims.claims(root, series_claims.discover(root))["drivers/block/floppy.c"].visible


def test_a_site_left_out_is_no_part_of_the_claim(root):
    # fd_compat_ioctl() left out by the judge (series '-'), fd_locked_ioctl()
    # converted and reached through fd_ioctl(): the claim names those two
    (root / "sites.tsv").write_text(
        "file\tline\tfunction\tinterface\tfrom\tto\tseries\tvisible\tentry\n"
        "drivers/block/floppy.c\t1\tfd_locked_ioctl\tb.ioctl\tEINVAL\tENOTTY\tblock\tyes\tfd_ioctl\n"
        "drivers/block/floppy.c\t9\tfd_compat_ioctl\tb.compat_ioctl\tEINVAL\tENOTTY\t-\tyes\t-\n")
    fd = series_claims.claims(root, series_claims.discover(root))["drivers/block/floppy.c"]
    assert fd.functions == ("fd_locked_ioctl", "fd_ioctl")


def test_a_file_another_series_converts_is_unapplied_whatever_its_first_row(tmp_path):
    # serport: converted by the input series; a left-out row of the same
    # file may come first
    (tmp_path / "sites.tsv").write_text(
        "file\tline\tfunction\tinterface\tfrom\tto\tseries\n"
        "drivers/input/serio/serport.c\t1\tx\tt.ioctl\tEINVAL\tENOTTY\t-\n"
        "drivers/input/serio/serport.c\t2\tserport_ldisc_ioctl\tt.ioctl\tEINVAL\tENOTTY\tinput\n"
        "drivers/char/random.c\t1\trandom_ioctl\tf.unlocked_ioctl\tEINVAL\tENOTTY\trandom\n"
        "fs/eventpoll.c\t1\tep_eventpoll_ioctl\tf.unlocked_ioctl\tEINVAL\tENOTTY\t-\n")
    applied = {"drivers/char/random.c": None}
    assert series_claims.unapplied(tmp_path, applied) == {"drivers/input/serio/serport.c": "input"}
