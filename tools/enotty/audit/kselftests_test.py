"""kselftests: the committed table, the selection and the gcc lines."""
from pathlib import Path

import pytest

from enotty.audit import kselftests

TREE = Path.home() / ".cache" / "enotty" / "src" / "linux-source-6.12"
ROW = ("x\trun\tfs/a.c\tFOO\tdir/x.c\tdir/x.c -lcap\tx -v\t30\twhy\n")


def test_the_committed_table_loads_and_every_run_row_builds_from_tree_files():
    rows = kselftests.load()
    assert {r.how for r in rows} == {"run", "control", "skip"}
    if not TREE.is_dir():
        pytest.skip("the default tree is not unpacked (python3 -m enotty.kernel.tree)")
    for row in rows:
        if row.how == "skip":
            continue
        files = row.needed_files
        assert files, row.name
        for f in files:
            assert (TREE / kselftests.SELFTESTS / f).is_file(), (row.name, f)
        for source in row.sources:
            assert (TREE / source).is_file(), (row.name, source)


def test_select_runs_touched_and_control_rows_and_says_why_not():
    rows = kselftests.parse(
        ROW
        + "ctl\tcontrol\tfs/untouched.c\t-\tc/*\tc/c.c\tc\t10\tcontrol\n"
        + "sk\tskip\tfs/a.c,net/gone.c\t-\tk/*\t-\t-\t-\tneeds /dev/kvm\n"
        + "other\trun\tfs/b.c\t-\to/o.c\to/o.c\to\t10\tnot touched\n")
    sel = kselftests.select(rows, {"fs/a.c"}, {"FOO": "y"})
    assert [r.name for r in sel.run] == ["x", "ctl"]
    assert [(r.name, why) for r, why in sel.not_run] == [("sk", "needs /dev/kvm")]
    # a row names the files of every tree; AUDIT.md only those the series touch
    assert sel.not_run[0][0].sources == ("fs/a.c",)
    # Without FOO the kernel cannot run it: listed, not run to fail.
    sel = kselftests.select(rows, {"fs/a.c"}, {"FOO": "n"})
    assert [r.name for r in sel.run] == ["ctl"]
    assert ("x", "the audit kernel lacks CONFIG_FOO") in [(r.name, w) for r, w in sel.not_run]


@pytest.mark.parametrize("text, message", [
    ("x\trun\tfs/a.c\t-\td/x.c\n", "5 columns, want 9"),
    (ROW.replace("\trun\t", "\tmaybe\t"), "how is 'maybe'"),
    (ROW + ROW, "x named twice"),
    (ROW.replace("\t30\t", "\t-\t"), "lacks build, argv or timeout"),
    (ROW + ROW.replace("x\t", "y\t", 1).replace("dir/x.c -lcap", "dir/x.c"), "x is built two ways"),
])
def test_malformed_rows_are_one_line_errors(text, message):
    with pytest.raises(kselftests.TableError, match=message):
        kselftests.parse(text)


def test_gcc_line_is_static_out_of_tree_with_the_libraries_last(tmp_path):
    (row,) = kselftests.parse(ROW)
    argv = kselftests.compile_argv(row, Path("/t"), Path("/h/usr/include"), tmp_path)
    assert argv[:2] == ["gcc", "-static"]
    assert "/t/tools/testing/selftests/dir/x.c" in argv
    assert argv[argv.index("-isystem") + 1] == "/h/usr/include"
    assert argv[argv.index("-o") + 1] == str(tmp_path / "x")
    assert argv[-1] == "-lcap"


def test_a_row_that_places_the_headers_itself_gets_no_isystem(tmp_path):
    (row,) = kselftests.parse(ROW.replace("dir/x.c -lcap", "dir/x.c -I@HDR -I@TREE/include"))
    argv = kselftests.compile_argv(row, Path("/t"), Path("/h"), tmp_path)
    # gcc drops an -I of a directory that is also -isystem: the order
    # usr/include before include/ would be lost.
    assert "-isystem" not in argv
    assert argv.index("-I/h") < argv.index("-I/t/include")


def test_guest_list_is_name_timeout_argv():
    (row,) = kselftests.parse(ROW)
    assert kselftests.guest_list([row]) == "x\t30\tx -v\n"


def test_a_question_marked_file_joins_only_where_the_tree_has_it(tmp_path: Path) -> None:
    # 7.2's gup_test.c calls into mm/hugepage_settings.c, which 6.12 lacks
    (row,) = kselftests.parse(ROW.replace("dir/x.c -lcap", "dir/x.c ?dir/extra.c -lcap"))
    (tmp_path / kselftests.SELFTESTS / "dir").mkdir(parents=True)
    without = kselftests.compile_argv(row, tmp_path, tmp_path / "hdr", tmp_path)
    (tmp_path / kselftests.SELFTESTS / "dir/extra.c").write_text("")
    with_it = kselftests.compile_argv(row, tmp_path, tmp_path / "hdr", tmp_path)
    assert not any("extra.c" in a for a in without)
    assert str(tmp_path / kselftests.SELFTESTS / "dir/extra.c") in with_it


def test_a_row_whose_test_file_the_tree_lacks_is_not_run(tmp_path: Path) -> None:
    # 7.2 has no tools/testing/selftests/dma/dma_map_benchmark.c
    rows = kselftests.parse(ROW)
    sel = kselftests.select(rows, set(rows[0].sources), {s: "y" for s in rows[0].config}, tmp_path)
    assert not sel.run and "this tree has no tools/testing/selftests/" in sel.not_run[0][1]
