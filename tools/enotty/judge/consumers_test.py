"""consumers.py on two fixture trees that stand for 6.12.118 and 7.2.13:
the same consumers.tsv row holds on one tree and not on the other, and the
handler model follows the tree it is given."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from . import consumers, effects, handlers
from ..errors import UsageError
from ..find.sites import Site

DATA = Path(__file__).parents[1] / "testdata" / "consumers"
OLD, NEW = DATA / "old", DATA / "new"      # VERSION 6.12.118 and 7.2.13

HIDRAW = consumers.Consumer("drivers/hid/hidraw.c", "tools/testing/selftests/hid/hidraw.c (ioctl_invalid_type)",
                            "EINVAL for a foreign type", "-", True, "mainline",
                            "tools/testing/selftests/hid/hidraw.c", "7.2")
DBC = consumers.Consumer("drivers/crypto/ccp/dbc.c", "tools/crypto/ccp/test_dbc.py (TestInvalidIoctls)",
                         "errno 22", "-", True, "in-tree", "tools/crypto/ccp/test_dbc.py")
KVM_OLD = consumers.Consumer("KVM_GET_DEVICE_ATTR", "KVM selftests (x86_64)", "EINVAL skips", "-", True,
                             "in-tree", "tools/testing/selftests/kvm/lib/x86_64/processor.c")
KVM_NEW = dataclasses.replace(KVM_OLD, consumer="KVM selftests (x86)",
                              test="tools/testing/selftests/kvm/lib/x86/processor.c")
HDPARM = consumers.Consumer("drivers/block/mtip32xx/mtip32xx.c", "hdparm", "EINVAL: falls back", "-")
SYSTEMD = consumers.Consumer("WDIOC_SETTIMEOUT", "systemd", "ENOTTY: not supported", "-", keep=False)


def held(row: consumers.Consumer, root: Path, version: str) -> str | None:
    kept, _why = consumers.decide(row, root, version)
    return kept.consumer if kept else None


def test_a_mainline_test_holds_as_mainline_on_the_older_tree_and_as_its_own_on_the_newer():
    # 6.12.118's hidraw selftest expects no EINVAL; mainline's (7.2.13's) does
    assert not consumers.expects_einval(OLD, HIDRAW.test, HIDRAW.command)
    assert held(HIDRAW, OLD, "6.12.118") == "mainline " + HIDRAW.consumer
    assert consumers.expects_einval(NEW, HIDRAW.test, HIDRAW.command)
    assert held(HIDRAW, NEW, "7.2.13") == HIDRAW.consumer


def test_a_mainline_row_at_its_version_is_decided_by_the_tree_own_copy():
    # the older tree's copy, read as if it were 7.2: no EINVAL, nothing kept out
    kept, why = consumers.decide(HIDRAW, OLD, "7.2.13")
    assert kept is None and why == "tools/testing/selftests/hid/hidraw.c expects no EINVAL in this tree"


def test_an_in_tree_test_keeps_nothing_out_where_the_tree_lacks_it():
    assert held(DBC, OLD, "6.12.118") == DBC.consumer
    kept, why = consumers.decide(DBC, NEW, "7.2.13")
    assert kept is None and why == "tools/crypto/ccp/test_dbc.py is not in this tree"


def test_a_moved_test_holds_at_its_path_of_each_tree():
    # KVM's selftest library moved from lib/x86_64 to lib/x86
    assert [held(r, OLD, "6.12.118") is not None for r in (KVM_OLD, KVM_NEW)] == [True, False]
    assert [held(r, NEW, "7.2.13") is not None for r in (KVM_OLD, KVM_NEW)] == [False, True]


def test_a_command_row_needs_the_einval_check_near_its_command():
    assert consumers.expects_einval(OLD, KVM_OLD.test, "KVM_GET_DEVICE_ATTR")
    assert not consumers.expects_einval(OLD, KVM_OLD.test, "KVM_SET_DEVICE_ATTR")


def test_programs_hold_everywhere_and_keep_no_rows_nowhere():
    for root, version in ((OLD, "6.12.118"), (NEW, "7.2.13")):
        assert held(HDPARM, root, version) == "hdparm"
        assert held(SYSTEMD, root, version) is None


def test_holding_groups_the_rows_that_hold_by_command():
    rows = [HIDRAW, DBC, KVM_OLD, KVM_NEW, HDPARM, SYSTEMD]
    assert sorted(consumers.holding(OLD, "6.12.118", rows)) == [
        "KVM_GET_DEVICE_ATTR", "drivers/block/mtip32xx/mtip32xx.c", "drivers/crypto/ccp/dbc.c",
        "drivers/hid/hidraw.c"]
    assert sorted(consumers.holding(NEW, "7.2.13", rows)) == [
        "KVM_GET_DEVICE_ATTR", "drivers/block/mtip32xx/mtip32xx.c", "drivers/hid/hidraw.c"]


def model(root: Path, file: str, function: str) -> handlers.Handler:
    """The handler model of the fixture tree with the committed consumers.tsv,
    decided on that tree as `make patches` decides it."""
    site = Site(file, 7, function, "file_operations.unlocked_ioctl", "EINVAL", "ENOTTY", "ioctl_default_return")
    found = effects.analyse_sites([site], root)
    (h,) = handlers.model([dataclasses.replace(site, effects=found[site])], root)
    return h


def test_the_committed_table_decides_dbc_differently_on_the_two_trees():
    assert model(OLD, "drivers/crypto/ccp/dbc.c", "dbc_ioctl").left == (
        "tools/crypto/ccp/test_dbc.py expects EINVAL for an unknown command",)
    assert model(NEW, "drivers/crypto/ccp/dbc.c", "dbc_ioctl").complete


def test_the_committed_table_names_whose_hidraw_test_on_each_tree():
    assert model(OLD, "drivers/hid/hidraw.c", "hidraw_ioctl").left == (
        "mainline tools/testing/selftests/hid/hidraw.c expects EINVAL for an unknown command",)
    assert model(NEW, "drivers/hid/hidraw.c", "hidraw_ioctl").left == (
        "tools/testing/selftests/hid/hidraw.c expects EINVAL for an unknown command",)


def test_the_committed_table_reads():
    rows = consumers.read()
    assert {r.evidence for r in rows} == set(consumers.EVIDENCE)
    assert all(r.test != "-" for r in rows if r.evidence != "program")


def test_a_row_without_its_test_path_is_one_clear_error(tmp_path: Path):
    table = tmp_path / "consumers.tsv"
    table.write_text("\t".join(consumers.COLUMNS) + "\n"
                     "a.c\tsome test\terrno 22\tsrc\tyes\tin-tree\t-\t-\n")
    with pytest.raises(UsageError, match=r"row 2 \(a.c\): evidence must be one of program, in-tree, mainline"):
        consumers.read(table)
