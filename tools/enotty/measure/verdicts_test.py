"""Tests of the census verdicts: each rule on a fixture driver, the rows left
to reading, the read table, and the carry-over to another tree."""
from __future__ import annotations

from pathlib import Path

import pytest

from . import verdicts
from ..judge import recall
from ..find.ctext import tokenize
from ..kernel import tree
from ..errors import UsageError
from .census import CENSUS_COLUMNS, write_tsv

DRIVER = """\
static int bar_helper(struct foo *f, unsigned int cmd)
{
\tswitch (cmd) {
\tcase BAR_A:
\t\treturn 0;
\tdefault:
\t\treturn -EINVAL;
\t}
}

static long foo_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
\tstruct foo *f = file->private_data;

\tif (!f->ready)
\t\treturn -EIO;
\tif (copy_from_user(&f->x, (void __user *)arg, sizeof(f->x)))
\t\treturn -EFAULT;
\tif (cmd == FOO_B) {
\t\tif (arg > 3)
\t\t\treturn -EINVAL;
\t}
\tswitch (cmd) {
\tcase FOO_A:
\t\treturn bar_helper(f, cmd);
\tdefault:
\t\treturn -EINVAL;
\t}
}

static long baz_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
\tif (cmd != BAZ_X)
\t\treturn -EINVAL;
\tif (arg == 0)
\t\treturn -EINVAL;
\treturn -ENOIOCTLCMD;
}

static long qux_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
\tint err = md_valid(cmd);

\tif (err)
\t\treturn err;
\tswitch (cmd) {
\tcase QUX_A:
\t\treturn 0;
\tdefault:
\t\treturn -EINVAL;
\t}
}
"""

# (line, function, role, entry, kind, errno, arm) as the census writes them
ROWS = [
    (7, "bar_helper", "helper", "foo_ioctl", "return", "EINVAL", "default"),
    (16, "foo_ioctl", "handler", "unlocked_ioctl", "return", "EIO", "outside"),
    (18, "foo_ioctl", "handler", "unlocked_ioctl", "return", "EFAULT", "outside"),
    (21, "foo_ioctl", "handler", "unlocked_ioctl", "return", "EINVAL", "outside"),
    (27, "foo_ioctl", "handler", "unlocked_ioctl", "return", "EINVAL", "default"),
    (34, "baz_ioctl", "handler", "unlocked_ioctl", "return", "EINVAL", "outside"),
    (36, "baz_ioctl", "handler", "unlocked_ioctl", "return", "EINVAL", "outside"),
    (37, "baz_ioctl", "handler", "unlocked_ioctl", "return", "ENOIOCTLCMD", "outside"),
    (49, "qux_ioctl", "handler", "unlocked_ioctl", "return", "EINVAL", "default"),
]


def make_tree(root: Path, text: str = DRIVER) -> Path:
    (root / "drivers").mkdir(parents=True, exist_ok=True)
    (root / "drivers/foo.c").write_text(text)
    return root


def write_census(path: Path, rows=ROWS) -> Path:
    path.write_text(write_tsv(CENSUS_COLUMNS, (("drivers/foo.c",) + r for r in rows)))
    return path


def decided(tmp_path: Path) -> dict[int, tuple[str, str, str]]:
    tree = verdicts.Tree(make_tree(tmp_path / "k"))
    census = verdicts.load(write_census(tmp_path / "census.tsv"), CENSUS_COLUMNS)
    out, todo = verdicts.apply(tree, census, {})
    return {int(r[1]): (r[3], r[4], r[6]) for r in out} | {int(r["line"]): ("?", "?", "todo") for r in todo}


def test_each_rule_on_its_shape(tmp_path):
    got = decided(tmp_path)
    assert got[7] == ("STAYS", "known-only", "rule:known-only-helper")
    assert got[16] == ("STAYS", "state-check", "rule:state-guard")
    assert got[18] == ("MIXED", "guard-before-dispatch", "rule:user-copy")
    assert got[21] == ("STAYS", "argument-check", "rule:known-command-branch")
    assert got[27] == ("REAL", "plain-default", "rule:plain-default")
    assert got[36] == ("STAYS", "argument-check", "rule:after-command-filter")
    assert got[37] == ("STAYS", "try-next", "rule:try-next")


def test_the_filter_itself_and_a_filtered_default_are_left_to_reading(tmp_path):
    got = decided(tmp_path)
    # `if (cmd != BAZ_X) return -EINVAL;` answers every other command: no rule may call it STAYS
    assert got[34][2] == "todo"
    # a default behind `if (err) return err;` on md_valid(cmd) may see known commands only
    assert got[49][2] == "todo"


def test_apply_fails_in_one_line_until_every_row_is_read(tmp_path, capsys):
    make_tree(tmp_path / "k")
    census = write_census(tmp_path / "census.tsv")
    assert verdicts.main(["apply", "--kdir", str(tmp_path / "k"), str(census)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("enotty.measure.verdicts: 2 census rows have no verdict")
    read = tmp_path / "read.tsv"
    read.write_text("file\tline\tfunction\tverdict\tclass\treason\n"
                    "drivers/foo.c\t34\tbaz_ioctl\tREAL\tcommand-guard\t`cmd != BAZ_X`\n"
                    "drivers/foo.c\t49\tqux_ioctl\tSTAYS\tdead\tmd_valid() filtered\n")
    assert verdicts.main(["apply", "--kdir", str(tmp_path / "k"), str(census), str(read)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split("\t") == list(verdicts.VERDICT_COLUMNS)
    assert "drivers/foo.c\t34\tbaz_ioctl\tREAL\tcommand-guard\t`cmd != BAZ_X`\tread" in out
    assert len(out) == 1 + len(ROWS)


def test_a_bad_verdict_in_the_read_table_is_one_line(tmp_path, capsys):
    make_tree(tmp_path / "k")
    census = write_census(tmp_path / "census.tsv")
    read = tmp_path / "read.tsv"
    read.write_text("file\tline\tfunction\tverdict\tclass\treason\ndrivers/foo.c\t34\tbaz_ioctl\tMAYBE\tx\ty\n")
    assert verdicts.main(["apply", "--kdir", str(tmp_path / "k"), str(census), str(read)]) == 2
    assert "verdict 'MAYBE' not one of REAL, MIXED, STAYS" in capsys.readouterr().err


def test_carry_moves_lines_of_unchanged_functions_only(tmp_path, capsys):
    new = make_tree(tmp_path / "new")
    # the old tree: two lines more above everything, and qux_ioctl's default differs
    head, sep, tail = DRIVER.rpartition("\t\treturn -EINVAL;")
    old_text = "/* a */\n/* b */\n" + head + "\t\treturn -ENOSYS;" + tail
    old = make_tree(tmp_path / "old", old_text)
    census = write_census(tmp_path / "census.tsv")
    read = tmp_path / "read.tsv"
    read.write_text("file\tline\tfunction\tverdict\tclass\treason\n"
                    "drivers/foo.c\t34\tbaz_ioctl\tREAL\tcommand-guard\tfilter\n"
                    "drivers/foo.c\t49\tqux_ioctl\tSTAYS\tdead\tfiltered\n")
    assert verdicts.main(["apply", "--kdir", str(new), str(census), str(read)]) == 0
    (tmp_path / "v.tsv").write_text(capsys.readouterr().out)
    old_rows = [(r[0] + 2,) + r[1:] for r in ROWS]
    old_census = write_census(tmp_path / "old-census.tsv", old_rows)
    assert verdicts.main(["carry", "--kdir", str(new), "--to-kdir", str(old), str(tmp_path / "v.tsv"),
                          str(old_census)]) == 0
    cap = capsys.readouterr()
    lines = cap.out.splitlines()[1:]
    assert "drivers/foo.c\t36\tbaz_ioctl\tREAL\tcommand-guard\tfilter\tread" in lines
    # bar_helper and foo_ioctl are unchanged too; qux_ioctl is not
    assert not any("\tqux_ioctl\t" in x for x in lines)
    assert "8 rows carried over, 1 not" in cap.err


def test_count(tmp_path, capsys):
    p = tmp_path / "v.tsv"
    p.write_text(write_tsv(verdicts.VERDICT_COLUMNS, [
        ("a.c", "1", "f", "REAL", "plain-default", "r", "rule:plain-default"),
        ("a.c", "2", "f", "STAYS", "dead", "r", "read"),
        ("a.c", "3", "f", "STAYS", "dead", "r", "read")]))
    assert verdicts.main(["count", str(p)]) == 0
    assert capsys.readouterr().out.strip() == "REAL 1\tMIXED 0\tSTAYS 2\ttotal 3\tread 2\trule 1"


@pytest.mark.parametrize("argv", [[], ["frobnicate"]])
def test_usage_is_one_line(argv, capsys):
    assert verdicts.main(argv) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_missed_lists_real_rows_the_output_leaves(tmp_path, capsys):
    census = write_census(tmp_path / "census.tsv")
    v = tmp_path / "v.tsv"
    v.write_text(write_tsv(verdicts.VERDICT_COLUMNS, [
        ("drivers/foo.c", "27", "foo_ioctl", "REAL", "plain-default", "default", "rule:plain-default"),
        ("drivers/foo.c", "34", "baz_ioctl", "REAL", "command-guard", "filter", "read"),
        ("drivers/foo.c", "49", "qux_ioctl", "REAL", "plain-default", "default", "read"),
        ("drivers/foo.c", "16", "foo_ioctl", "STAYS", "state-check", "state", "rule:state-guard")]))
    sites = tmp_path / "sites.tsv"
    sites.write_text("file\tline\tfunction\tseries\n"
                     "drivers/foo.c\t27\tfoo_ioctl\tmisc\n"
                     "drivers/foo.c\t49\tqux_ioctl\t-\n")
    assert verdicts.main(["missed", str(census), str(v), str(sites)]) == 0
    cap = capsys.readouterr()
    assert cap.out.splitlines()[1:] == [
        "drivers/foo.c\t34\tbaz_ioctl\tEINVAL\tcommand-guard; not found; filter",
        "drivers/foo.c\t49\tqux_ioctl\tEINVAL\tplain-default; found, in no series; default"]
    assert "REAL 3, MIXED 0, STAYS 1; REAL found 2, converted 1, not converted 2" in cap.err
    assert verdicts.main(["missed", str(census), str(sites)]) == 2


@pytest.mark.parametrize("before, falls", [
    ("case 1: x = 1; break;", False),
    ("case 1: return 0;", False),
    ("case 1: { x = 1; break; }", False),
    ("case 1:\n#ifdef A\n x = 1; break;\n#endif\n", False),
    ("case 1: x = 1; fallthrough;\n#endif\n", True),        # pci's proc_bus_pci_ioctl()
    ("case 1: if (a) { x = 1; break; }", True),
    ("case 1: x = 1;", True),
    ("", False),
])
def test_a_default_that_a_known_command_falls_into_is_not_plain(before: str, falls: bool) -> None:
    body = tokenize(f"switch (cmd) {{ {before}\ndefault: return -EINVAL; }}")
    start = [i for i, t in enumerate(body) if t.text == "return"][-1]
    assert verdicts.falls_into_labels(body, start) is falls


def test_committed_misses_are_the_real_rows_the_output_does_not_hold(tmp_path: Path) -> None:
    census = [{"file": "a.c", "line": "10", "errno": "EINVAL"}, {"file": "b.c", "line": "20", "errno": "ENOSYS"},
              {"file": "c.c", "line": "30", "errno": "EINVAL"}, {"file": "d.c", "line": "40", "errno": "EINVAL"}]
    rows = [("a.c", "10", "a_ioctl", "REAL", "plain-default", "default answers -EINVAL", "rule:plain-default"),
            ("b.c", "20", "b_ioctl", "REAL", "try-next-leak", "-ENOSYS after the switch", "read"),
            ("c.c", "30", "c_ioctl", "REAL", "plain-default", "default answers -EINVAL", "rule:plain-default"),
            ("d.c", "40", "d_ioctl", "STAYS", "argument-check", "a bad argument", "read")]
    (tmp_path / "census-7.2.1.tsv").write_text(
        "file\tline\terrno\n" + "".join(f"{r['file']}\t{r['line']}\t{r['errno']}\n" for r in census))
    (tmp_path / "verdicts-7.2.1.tsv").write_text(
        "\t".join(verdicts.VERDICT_COLUMNS) + "\n" + "".join("\t".join(r) + "\n" for r in rows))
    sites = [{"file": "a.c", "line": "10", "series": "x"},       # converted
             {"file": "c.c", "line": "30", "series": "-"}]       # found, its reason is in SUMMARY.md already
    misses, read = recall.committed_misses("7.2.1", sites, tmp_path)
    assert [(m.file, m.function, m.errno) for m in misses] == [("b.c", "b_ioctl", "ENOSYS")]
    assert misses[0].why == "try-next-leak: -ENOSYS after the switch"
    assert read == ["census-7.2.1.tsv", "verdicts-7.2.1.tsv"]
    # no census of that version: nothing to say
    assert recall.committed_misses("6.1.1", sites, tmp_path) == ([], [])


def test_a_real_exit_kept_tsv_names_carries_its_keeper_and_is_no_miss(tmp_path: Path) -> None:
    census = [{"file": "b.c", "line": "20", "errno": "ENOSYS"}, {"file": "e.c", "line": "50", "errno": "EINVAL"}]
    rows = [("b.c", "20", "b_ioctl", "REAL", "try-next-leak", "-ENOSYS after the switch", "read"),
            ("e.c", "50", "e_ioctl", "REAL", "final-return", "after the switch", "read")]
    (tmp_path / "census-7.2.1.tsv").write_text(
        "file\tline\terrno\n" + "".join(f"{r['file']}\t{r['line']}\t{r['errno']}\n" for r in census))
    (tmp_path / "verdicts-7.2.1.tsv").write_text(
        "\t".join(verdicts.VERDICT_COLUMNS) + "\n" + "".join("\t".join(r) + "\n" for r in rows))
    kept = tmp_path / "kept.tsv"
    kept.write_text("file\tfunction\terrno\tkeeper\treason\n"
                    "b.c\tb_ioctl\tENOSYS\tcore\tthe core's documented answer\n"
                    "e.c\te_ioctl\tEFAULT\tconsumer\ta row for another errno keeps nothing\n")
    misses, _ = recall.committed_misses("7.2.1", [], tmp_path)
    assert [(m.function, m.keeper, m.why) for m in misses] == [
        ("b_ioctl", "core", "the core's documented answer"), ("e_ioctl", "", "final-return: after the switch")]
    pairs = [(recall._rows(tmp_path / "census-7.2.1.tsv"), recall._rows(tmp_path / "verdicts-7.2.1.tsv"))]
    out, counts = recall.missed(pairs, [], recall.read_kept(kept))
    assert counts["kept"] == 1 and [o[4].split("; ")[1] for o in out] == ["kept by a core", "not found"]


@pytest.mark.parametrize("row, said", [
    ("b.c\tb_ioctl\tENOSYS\tmaintainer\twhy", "keeper 'maintainer' is none of consumer, state, core"),
    ("b.c\tb_ioctl\tENOSYS\tcore", "a row needs file, function, errno, keeper, reason"),
])
def test_a_bad_kept_row_is_one_line_naming_it(tmp_path: Path, row: str, said: str) -> None:
    kept = tmp_path / "kept.tsv"
    kept.write_text("file\tfunction\terrno\tkeeper\treason\n" + row + "\n")
    with pytest.raises(UsageError, match=f"kept.tsv:2: {said}"):
        recall.read_kept(kept)


def test_every_committed_kept_row_names_a_real_exit_no_rule_reports() -> None:
    """A kept row that matches no REAL exit of the census is stale."""
    folder = recall.RECALL
    real = set()
    for census, verdict_file in (("census-7.2.13.tsv", "verdicts-7.2.13.tsv"),
                                 ("census2-7.2.13.tsv", "verdicts2-7.2.13.tsv")):
        errno = {(c["file"], c["line"]): c["errno"] for c in recall._rows(folder / census)}
        real |= {(v["function"], v["file"], errno[v["file"], v["line"]])
                 for v in recall._rows(folder / verdict_file) if v["verdict"] == "REAL"}
    kept = recall.read_kept(folder / "kept.tsv")
    assert kept and all((k.function, k.file, k.errno) in real for k in kept.values())


def test_the_committed_612_verdicts_are_a_fresh_carry_of_the_72_ones() -> None:
    """verdicts-6.12.118.tsv is derived, not read: after a reading of the
    7.2.13 census changes, it must be carried again (it once kept uacce's
    and mixer_oss's old REAL verdicts after 7.2.13's reading corrected them)."""
    folder = recall.RECALL
    new = verdicts.Tree(tree.for_version("7.2.13"))
    old = verdicts.Tree(tree.for_version("6.12.118"))
    assert new.root != old.root
    out, _ = verdicts.carry(new, old, verdicts.load(folder / "verdicts-7.2.13.tsv", verdicts.VERDICT_COLUMNS),
                            verdicts.load(folder / "census-6.12.118.tsv", CENSUS_COLUMNS))
    fresh = write_tsv(verdicts.VERDICT_COLUMNS, out)
    assert (folder / "verdicts-6.12.118.tsv").read_text(encoding="utf-8") == fresh
