"""Tests for enotty.find.interfaces: the typed reader of cocci/interfaces.tsv."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from . import interfaces
from enotty.errors import UsageError
from .interfaces import CoreFilter, Interface

HEADER = "\t".join(interfaces.HEADER) + "\n"


def row(**cells: str) -> str:
    """One line of the table for demo_ops.ioctl; cells override columns."""
    demo = dict(struct="demo_ops", field="ioctl", cmd_arg="1", to="ENOTTY",
                dispatch="drivers/demo/core.c:demo_core_ioctl")
    return interfaces.format_row(**{**demo, **cells})


def test_format_row_writes_what_parse_reads() -> None:
    line = interfaces.format_row(struct="a_ops", field="ioctl", cmd_arg="2", to="ENOIOCTLCMD",
                                 dispatch="a.c:a_core", kept_hooks="h1 h2")
    assert line.count("\t") == len(interfaces.HEADER) - 1 and line.endswith("-\n")
    (parsed,) = interfaces.parse(HEADER + line)
    assert parsed == Interface("a_ops", "ioctl", 2, "ENOIOCTLCMD", False, "a.c:a_core",
                               kept_hooks=("h1", "h2"))
    with pytest.raises(ValueError, match="no such column: colour"):
        interfaces.format_row(colour="red")


def test_a_row_with_every_column_empty_reads_as_defaults() -> None:
    (only,) = interfaces.parse(HEADER + row())
    assert only == Interface("demo_ops", "ioctl", 1, "ENOTTY", False, "drivers/demo/core.c:demo_core_ioctl")
    assert only.name == "demo_ops.ioctl" and not only.is_compat


def test_list_and_structured_cells_are_typed() -> None:
    text = HEADER + row(
        embedded_in="demo_dev.ops", kept_hooks="hook_a hook_b", compat_field="compat_ioctl",
        compat_pass="compat_ptr_ioctl demo_pass", compat_beside="unlocked_ioctl=demo_generic_ioctl",
        compat_by_core="SIOC", compat_callers="Native callers",
        core_filters=r"fs/ioctl.c:do_vfs_ioctl:\bvfs_ioctl\s*\(|\bbreak\s*; net/atm/ioctl.c:do_vcc_ioctl",
        subcommand="yes", einval_without="compat_ioctl", enotty_by="the ioctl system call",
        forward="demo_core() passes it on", dispatch_sentence="demo_core() calls {handler} last.",
        reached_only="on a file opened for writing", also_from="ENOTSUPP EFAULT"
    ) + row(field="compat_ioctl", embedded_in="demo_dev.ops")
    native, compat = interfaces.parse(text)
    assert native.embedded_in == "demo_dev.ops"
    assert native.kept_hooks == ("hook_a", "hook_b")
    assert native.compat_pass == ("compat_ptr_ioctl", "demo_pass")
    assert native.compat_beside == ("unlocked_ioctl", "demo_generic_ioctl")
    assert native.core_filters == (
        CoreFilter("fs/ioctl.c", "do_vfs_ioctl", r"\bvfs_ioctl\s*\(|\bbreak\s*;"),
        CoreFilter("net/atm/ioctl.c", "do_vcc_ioctl", None))
    assert native.subcommand and native.compat_by_core == "SIOC"
    assert native.compat_callers == "Native callers"
    assert native.enotty_by == "the ioctl system call"
    assert native.dispatch_sentence == "demo_core() calls {handler} last."
    assert native.also_from == ("ENOTSUPP", "EFAULT")
    assert compat.is_compat and compat.compat_field == "" and compat.core_filters == ()
    assert compat.also_from == ()


def test_comments_and_blank_lines_are_skipped() -> None:
    rows = interfaces.parse(HEADER + "# a note\n\n" + row())
    assert [r.name for r in rows] == ["demo_ops.ioctl"]


@pytest.mark.parametrize("cells, message", [
    ({"cmd_arg": "x"}, "demo.tsv:2: cmd_arg must be a 0-based index, got 'x'"),
    ({"to": "EINVAL"}, "demo.tsv:2: to must be one of ENOTTY, ENOIOCTLCMD, EOPNOTSUPP, got 'EINVAL'"),
    ({"keep_enoioctlcmd": "maybe"}, "demo.tsv:2: keep_enoioctlcmd must be yes or no, got 'maybe'"),
    ({"struct": "demo ops"}, "demo.tsv:2: struct must be a C identifier, got 'demo ops'"),
    ({"dispatch": "drivers/demo/core.c"}, "demo.tsv:2: dispatch must be file.c:function"),
    ({"embedded_in": "demo_dev"}, "demo.tsv:2: embedded_in must be struct.member, got 'demo_dev'"),
    ({"kept_hooks": "a,b"}, "demo.tsv:2: kept_hooks must be C identifiers separated by single spaces"),
    ({"kept_hooks": "a  b"}, "demo.tsv:2: kept_hooks must be C identifiers separated by single spaces"),
    ({"compat_beside": "unlocked_ioctl"}, "demo.tsv:2: compat_beside must be member=function"),
    ({"compat_by_core": "some"}, "demo.tsv:2: compat_by_core must be all or a class of commands"),
    ({"compat_by_core": "SIOC"}, "demo.tsv:2: compat_callers must say who sees the change exactly when"),
    ({"compat_callers": "Native callers"}, "demo.tsv:2: compat_callers must say who sees the change"),
    ({"core_filters": "fs/ioctl.c"}, "demo.tsv:2: core_filters must be file.c:function"),
    ({"core_filters": "fs/ioctl.c:do_vfs_ioctl:(("}, "demo.tsv:2: core_filters has a bad regex"),
    ({"subcommand": "-"}, "demo.tsv:2: subcommand must be yes or no, got '-'"),
    ({"forward": ""}, "demo.tsv:2: forward is empty (write - for none)"),
    ({"dispatch_sentence": "calls {driver}"}, "demo.tsv:2: dispatch_sentence may hold no placeholder"),
    ({"einval_without": "compat_ioctl"}, "demo.tsv:2: einval_without names demo_ops.compat_ioctl, "
                                         "which is no row"),
    ({"also_from": "EIO"}, "demo.tsv:2: also_from may name only ENOTSUPP, EOPNOTSUPP, EFAULT, got 'EIO'"),
    ({"also_from": "ENOTSUPP,EFAULT"}, "demo.tsv:2: also_from must be C identifiers separated by single"),
    ({"reported_cores": "net/atm/resources.c:atm_dev_ioctl"},
     "demo.tsv:2: reported_cores must be file.c:function:cmd_arg items, got"),
])
def test_a_malformed_cell_is_one_line_naming_file_line_and_column(cells: dict[str, str],
                                                                  message: str) -> None:
    with pytest.raises(UsageError) as err:
        interfaces.parse(HEADER + row(**cells), "demo.tsv")
    assert str(err.value).startswith(message)
    assert "\n" not in str(err.value)


def test_a_short_row_a_bad_header_and_a_duplicate_are_refused() -> None:
    with pytest.raises(UsageError, match=r"^demo.tsv:3: expected 22 tab-separated fields, got 6$"):
        interfaces.parse(HEADER + row() + "a\tb\t1\tENOTTY\tno\td.c:f\n", "demo.tsv")
    with pytest.raises(UsageError, match=r"^demo.tsv:1: header must be"):
        interfaces.parse("struct\tfield\tcmd_arg\tto\tkeep_enoioctlcmd\tdispatch\n" + row(), "demo.tsv")
    with pytest.raises(UsageError, match=r"^demo.tsv:3: demo_ops.ioctl listed twice$"):
        interfaces.parse(HEADER + row() + row(), "demo.tsv")
    with pytest.raises(UsageError, match=r"^demo.tsv:3: embedded_in of demo_ops.compat_ioctl differs"):
        interfaces.parse(HEADER + row(embedded_in="demo_dev.ops") + row(field="compat_ioctl"), "demo.tsv")


def test_read_names_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"interfaces.tsv: No such file or directory$"):
        interfaces.read(tmp_path / "interfaces.tsv")


def test_the_committed_table_is_read_once_and_indexed() -> None:
    assert interfaces.table() is interfaces.table()
    assert len(interfaces.table()) == len(interfaces.by_name()) == 55
    assert interfaces.row("file_operations.unlocked_ioctl") is interfaces.by_name()["file_operations.unlocked_ioctl"]
    assert interfaces.row("hdlc_proto.ioctl") is None


def test_derived_tables_of_the_rule() -> None:
    rows = interfaces.table()
    assert interfaces.embedded_ops(rows) == {("snd_hwdep", "ops"): "snd_hwdep_ops",
                                             ("video_device", "ioctl_ops"): "v4l2_ioctl_ops"}
    assert interfaces.kept_hooks(rows) == ("kvm_arch_vm_ioctl", "kvm_arch_vcpu_ioctl", "kvm_arch_dev_ioctl")
    assert {(r.name, c) for r in rows for c in r.reported_cores} == {
        ("file_operations.unlocked_ioctl", interfaces.ReportedCore("drivers/gpu/drm/drm_ioctl.c", "drm_ioctl", 1)),
        ("atmdev_ops.ioctl", interfaces.ReportedCore("net/atm/resources.c", "atm_dev_ioctl", 0))}


def test_committed_words_and_columns_hang_together() -> None:
    """Each sentence of the table is said of a row it fits."""
    for r in interfaces.table():
        if r.compat_field or r.compat_pass or r.compat_beside:
            assert not r.is_compat and r.compat_field, r.name
        if r.einval_without:
            assert interfaces.row(f"{r.struct}.{r.einval_without}") is not None, r.name
        if r.forward:
            # said when the site answers the try-next value
            assert r.to == "ENOIOCTLCMD", r.name
        for f in r.core_filters:
            assert re.fullmatch(r"[\w/.-]+\.c", f.file), r.name
    assert {r.enotty_by for r in interfaces.table()} == {"the ioctl system call", "video_usercopy()",
                                                         "the core"}
