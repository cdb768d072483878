"""Tests of the independent census on a tiny fixture tree, and of compare."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from . import census

ERRNO_BASE = """\
#define EFAULT 14
#define EINVAL 22
#define ENOTTY 25
"""
ERRNO_LINUX = "#define ENOIOCTLCMD 515\n"

DRIVER = """\
#include <linux/fs.h>
static int helper_default(struct foo *f, unsigned int cmd)
{
\tswitch (cmd) {
\tcase FOO_A:
\t\treturn -EFAULT;
\tdefault:
\t\treturn -EINVAL;
\t}
}

static long foo_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
\tint ret = -EINVAL;
\tif (_IOC_TYPE(cmd) != 'f')
\t\treturn -ENOTTY;
\tswitch (cmd) {
\tcase FOO_B: {
\t\tif (arg)
\t\t\treturn -EFAULT;
\t\tbreak;
\t}
\tcase FOO_C:
\t\tret = helper_default(file->private_data, cmd);
\t\tbreak;
\tdefault:
\t\tif (arg)
\t\t\tret = -ENOIOCTLCMD;
\t\telse
\t\t\tret = -EINVAL;
\t}
\treturn ret;
}

static long not_called(unsigned int cmd)
{
\treturn -EINVAL;
}

static const struct file_operations foo_fops = {
\t.owner = THIS_MODULE,
\t.unlocked_ioctl = foo_ioctl,
};
"""

OTHER = """\
static int bar_do_ioctl(struct bar *b, int request)
{
\treturn -EINVAL;
}

void bar_setup(struct bar_ops *ops)
{
\tops->dev_ioctl = bar_do_ioctl;
\tops->read = not_an_ioctl;
}
"""


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "linux"
    (root / "include/uapi/asm-generic").mkdir(parents=True)
    (root / "include/linux").mkdir(parents=True)
    (root / "include/uapi/asm-generic/errno-base.h").write_text(ERRNO_BASE)
    (root / "include/linux/errno.h").write_text(ERRNO_LINUX)
    (root / "drivers/foo").mkdir(parents=True)
    (root / "drivers/foo/foo.c").write_text(DRIVER)
    (root / "drivers/foo/bar.c").write_text(OTHER)
    # User space is not censused even when it has an ioctl member.
    (root / "tools/x").mkdir(parents=True)
    (root / "tools/x/t.c").write_text(OTHER.replace("bar", "tool"))
    return root


needs_ctags = pytest.mark.skipif(shutil.which("ctags") is None, reason="universal-ctags not installed")


def line_of(text: str, needle: str, nth: int = 1) -> int:
    seen = 0
    for number, line in enumerate(text.splitlines(), 1):
        if needle in line:
            seen += 1
            if seen == nth:
                return number
    raise AssertionError(needle)


@needs_ctags
def test_census_finds_handlers_helpers_and_their_unknown_command_exits(tree: Path) -> None:
    result = census.build(tree)
    rows = {(r[0], r[1]): r for r in result.rows}
    foo = "drivers/foo/foo.c"
    expected = {
        (foo, line_of(DRIVER, "return -EINVAL;", 1)): ("helper_default", "helper", "return", "EINVAL", "default"),
        (foo, line_of(DRIVER, "int ret = -EINVAL;")): ("foo_ioctl", "handler", "init", "EINVAL", "outside"),
        (foo, line_of(DRIVER, "return -ENOTTY;")): ("foo_ioctl", "handler", "return", "ENOTTY", "outside"),
        (foo, line_of(DRIVER, "ret = -ENOIOCTLCMD;")): ("foo_ioctl", "handler", "assign", "ENOIOCTLCMD", "default"),
        (foo, line_of(DRIVER, "\t\t\tret = -EINVAL;")): ("foo_ioctl", "handler", "assign", "EINVAL", "default"),
        ("drivers/foo/bar.c", 3): ("bar_do_ioctl", "handler", "return", "EINVAL", "outside"),
    }
    assert {k: (v[2], v[3], v[5], v[6], v[7]) for k, v in rows.items()} == expected
    # Case arms of the switch on the command are left out (the -EFAULTs);
    # a function nobody binds to an ioctl member is not censused.
    assert result.handlers == 2 and result.helpers == 1
    assert rows[(foo, line_of(DRIVER, "return -EINVAL;", 1))][4] == "foo_ioctl"
    assert rows[("drivers/foo/bar.c", 3)][4] == "dev_ioctl"


def test_command_param_prefers_a_command_name_then_the_first_integer() -> None:
    assert census.command_param("(struct file * f,unsigned int cmd,unsigned long arg)") == 1
    assert census.command_param("(struct block_device *bdev, blk_mode_t mode, unsigned cmd, unsigned long arg)") == 2
    assert census.command_param("(struct net_device *dev, struct ifreq *rq, int request)") == 2
    assert census.command_param("(struct tty_struct *tty, unsigned int x, unsigned long y)") == 1
    assert census.command_param("(struct foo *f)") is None


def test_bindings_take_designated_and_plain_assignments_of_ioctl_members_only() -> None:
    toks = census.tokenize(".unlocked_ioctl = f, .read = g, p->compat_ioctl = &h; q.ioctl = make(x);")
    assert [(b.member, b.function) for b in census.ioctl_bindings("a.c", toks)] == [
        ("unlocked_ioctl", "f"), ("compat_ioctl", "h")]


def test_tokenize_keeps_lines_and_drops_comments_and_strings() -> None:
    toks = census.tokenize('a /* x\n y */ "s;\\"" b // c\n \\\nd')
    assert [(t.text, t.line) for t in toks] == [("a", 1), ('""', 2), ("b", 2), ("d", 4)]
    # A string continued on the next line with a backslash still counts its line.
    toks = census.tokenize('x = "one \\\n two";\ny')
    assert [(t.text, t.line) for t in toks] == [("x", 1), ("=", 1), ('""', 1), (";", 2), ("y", 3)]


def test_is_declaration() -> None:
    assert census.is_declaration(["int", "ret"])
    assert census.is_declaration(["long", "a", ",", "err"])
    assert not census.is_declaration(["ret"])
    assert not census.is_declaration(["else", "ret"])
    assert not census.is_declaration(["if", "(", "x", ")", "ret"])


def test_compare_counts_found_converted_and_precision() -> None:
    sample = [
        {"file": "a.c", "line": "1", "function": "f", "shape": "default-return", "verdict": "REAL", "reason": "r"},
        {"file": "a.c", "line": "2", "function": "f", "shape": "initialiser", "verdict": "REAL", "reason": "r"},
        {"file": "b.c", "line": "3", "function": "g", "shape": "default-return", "verdict": "REAL", "reason": "r"},
        {"file": "b.c", "line": "4", "function": "g", "shape": "-", "verdict": "STAYS: argument-check", "reason": "r"},
    ]
    sites = [
        {"file": "a.c", "line": "1", "series": "s"},
        {"file": "a.c", "line": "2", "series": "-"},
        {"file": "b.c", "line": "4", "series": "s"},
    ]
    comp = census.compare(sample, sites)
    assert (comp.real, comp.real_found, comp.real_converted) == (3, 2, 1)
    assert (comp.found, comp.found_real, comp.converted, comp.converted_real) == (3, 2, 2, 1)
    assert comp.by_shape["default-return"] == {"real": 2, "found": 1, "converted": 1}
    assert sorted((m["line"], m["missed"]) for m in comp.misses) == [("2", "found, in no series"), ("3", "not found")]
    assert [(w["line"], w["verdict"]) for w in comp.wrong] == [("4", "STAYS: argument-check")]
    text = census.format_comparison(comp)
    assert "recall (REAL sites listed in sites.tsv): 66.7% (2/3)" in text
    assert "precision (converted sites that are REAL): 50.0% (1/2)" in text


def test_draw_sample_is_seeded_and_sorted() -> None:
    rows = [{"file": f"f{i % 7}.c", "line": str(i)} for i in range(100)]
    one = census.draw_sample(rows, 5, 10)
    assert one == census.draw_sample(rows, 5, 10)
    assert one != census.draw_sample(rows, 6, 10)
    assert one == sorted(one, key=lambda r: (r["file"], int(r["line"])))
    with pytest.raises(census.UsageError):
        census.draw_sample(rows, 5, 101)


def test_bad_input_is_one_line_and_status_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert census.main(["--kdir", str(tmp_path / "none")]) == 2
    assert census.main(["--kdir", str(tmp_path)]) == 2  # no errno header: not a kernel tree
    (tmp_path / "s.tsv").write_text("a\tb\n1\t2\n")
    assert census.main(["compare", str(tmp_path / "s.tsv"), str(tmp_path / "s.tsv")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith("enotty.measure.census: ") for line in err)


def test_stratum_keeps_rows_matching_any_where_and_no_unless() -> None:
    rows = [{"arm": "default", "kind": "return", "errno": "EINVAL"},
            {"arm": "outside", "kind": "init", "errno": "EINVAL"},
            {"arm": "outside", "kind": "return", "errno": "EINVAL"},
            {"arm": "default", "kind": "return", "errno": "ENOTTY"}]
    where = census.parse_conditions(["arm=default", "kind=init"])
    unless = census.parse_conditions(["errno=ENOTTY"])
    assert census.stratum(rows, where, unless) == rows[:2]
    assert census.stratum(rows, [], []) == rows
    with pytest.raises(census.UsageError):
        census.parse_conditions(["colour=red"])


def test_merge_samples_counts_a_site_once_and_refuses_disagreement() -> None:
    a = [{"file": "a.c", "line": "1", "verdict": "REAL"}, {"file": "a.c", "line": "2", "verdict": "MIXED"}]
    b = [{"file": "a.c", "line": "1", "verdict": "REAL"}, {"file": "b.c", "line": "1", "verdict": "REAL"}]
    assert [(r["file"], r["line"]) for r in census.merge_samples([a, b])] == [("a.c", "1"), ("a.c", "2"), ("b.c", "1")]
    with pytest.raises(census.UsageError):
        census.merge_samples([a, [{"file": "a.c", "line": "1", "verdict": "STAYS: dead"}]])
