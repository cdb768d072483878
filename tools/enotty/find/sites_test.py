import dataclasses
import io

import pytest

from . import sites
from .sites import Site


def site(file: str, line: int, **kw: str) -> Site:
    fields: dict[str, str] = dict(function="f_ioctl", interface="file_operations.unlocked_ioctl",
                  from_="EINVAL", to="ENOTTY", rule="switch_default")
    fields.update(kw)
    return Site(file=file, line=line, **fields)  # type: ignore[arg-type]


def test_parse_site_line():
    got = sites.parse_site_line(
        "ENOTTY-SITE\tdrivers/x/a.c\t42\tfoo_ioctl\tfile_operations.compat_ioctl\tEINVAL\tENOTTY\tswitch_default\n")
    assert got == Site("drivers/x/a.c", 42, "foo_ioctl", "file_operations.compat_ioctl",
                       "EINVAL", "ENOTTY", "switch_default")


def test_parse_site_line_strips_minus_signs():
    got = sites.parse_site_line("ENOTTY-SITE\ta.c\t3\tf\ts.g\t-ENOSYS\t-ENOIOCTLCMD\tr")
    assert (got.from_, got.to) == ("ENOSYS", "ENOIOCTLCMD")


@pytest.mark.parametrize("bad", [
    "ENOTTY-SITE\ta.c\t3\tf\ts.g\tEINVAL\tENOTTY",            # 6 fields
    "ENOTTY-SITE\ta.c\tx\tf\ts.g\tEINVAL\tENOTTY\tr",          # line not a number
    "ENOTTY-SITE\ta.c\t0\tf\ts.g\tEINVAL\tENOTTY\tr",          # line 0
    "ENOTTY-SITE\ta.c\t3\t\ts.g\tEINVAL\tENOTTY\tr",           # empty function
    "SITE\ta.c\t3\tf\ts.g\tEINVAL\tENOTTY\tr",                 # wrong marker
])
def test_parse_site_line_rejects(bad):
    with pytest.raises(ValueError):
        sites.parse_site_line(bad)


def test_is_site_line():
    assert sites.is_site_line("ENOTTY-SITE\ta.c\t1\tf\ts.g\tEINVAL\tENOTTY\tr")
    assert not sites.is_site_line("--- a/ENOTTY-SITE")
    assert not sites.is_site_line("ENOTTY-SITES\tx")


def test_sort_is_by_file_then_numeric_line_and_drops_duplicates():
    rows = [site("b.c", 2), site("a.c", 10), site("a.c", 9), site("a.c", 10), site("a/z.c", 1)]
    got = [(s.file, s.line) for s in sites.sort_sites(rows)]
    assert got == [("a.c", 9), ("a.c", 10), ("a/z.c", 1), ("b.c", 2)]


def test_write_tsv_exact_text():
    out = io.StringIO()
    sites.write_tsv([site("b.c", 2), site("a.c", 10, to="ENOIOCTLCMD")], out)
    assert out.getvalue() == (
        "file\tline\tfunction\tinterface\tfrom\tto\trule\n"
        "a.c\t10\tf_ioctl\tfile_operations.unlocked_ioctl\tEINVAL\tENOIOCTLCMD\tswitch_default\n"
        "b.c\t2\tf_ioctl\tfile_operations.unlocked_ioctl\tEINVAL\tENOTTY\tswitch_default\n")


@pytest.mark.parametrize("columns", [sites.REPORT_COLUMNS, sites.SERIES_COLUMNS])
def test_tsv_round_trip(columns):
    rows = [site("drivers/media/x.c", 7, subsystem="MEDIA INPUT INFRASTRUCTURE (V4L/DVB)",
                 series="media"),
            site("fs/y.c", 1, subsystem="VFS", series="fs")]
    if columns == sites.REPORT_COLUMNS:
        rows = [dataclasses.replace(s, subsystem="", series="") for s in rows]
    out = io.StringIO()
    sites.write_tsv(rows, out, columns)
    assert out.getvalue().splitlines()[0] == "\t".join(columns)
    assert sites.read_tsv(io.StringIO(out.getvalue())) == rows


def test_read_tsv_rejects_bad_header_and_short_rows():
    with pytest.raises(ValueError, match="header"):
        sites.read_tsv(io.StringIO("file\tline\n"))
    with pytest.raises(ValueError, match="line 2"):
        sites.read_tsv(io.StringIO("\t".join(sites.REPORT_COLUMNS) + "\na.c\t1\n"))


EFFECTS = sites.Effects(paths="both", reach="partly", guard="line 10: !arg -> -EINVAL (argument check)",
                        branches="all", uncased="A_CMD,B_CMD", forward="-", fallback="-",
                        visible="yes")


def test_effect_columns_follow_the_series_columns():
    assert sites.EFFECT_COLUMNS[:len(sites.SERIES_COLUMNS)] == sites.SERIES_COLUMNS
    assert sites.EFFECT_COLUMNS[len(sites.SERIES_COLUMNS):] == (
        "paths", "reach", "guard", "branches", "uncased", "forward", "fallback", "visible", "entry")


def test_effects_round_trip_and_old_formats_still_read():
    row = site("drivers/x.c", 3, subsystem="X", series="x", effects=EFFECTS)
    out = io.StringIO()
    sites.write_tsv([row], out, sites.EFFECT_COLUMNS)
    assert out.getvalue().splitlines()[1].endswith(
        "\tboth\tpartly\tline 10: !arg -> -EINVAL (argument check)\tall\tA_CMD,B_CMD\t-\t-\tyes\t-")
    back = sites.read_tsv(io.StringIO(out.getvalue()))
    assert back == [row] and back[0].effects.uncased_commands() == ["A_CMD", "B_CMD"]
    # a sites.tsv of the format before the entry column reads with entry "-"
    before = "\n".join("\t".join(line.split("\t")[:-1]) for line in out.getvalue().splitlines())
    assert sites.read_tsv(io.StringIO(before + "\n")) == [row]
    # a case only one #if branch holds: the name without its condition
    conditional = dataclasses.replace(EFFECTS, uncased="A_CMD,B_CMD[CONFIG_B=n]")
    assert conditional.uncased_commands() == ["A_CMD", "B_CMD"]
    # the same file written without effects reads back without them
    old = io.StringIO()
    sites.write_tsv([row], old, sites.SERIES_COLUMNS)
    assert sites.read_tsv(io.StringIO(old.getvalue()))[0].effects is None


def test_writing_effect_columns_without_effects_fails():
    with pytest.raises(ValueError, match="no effects"):
        sites.write_tsv([site("a.c", 1)], io.StringIO(), sites.EFFECT_COLUMNS)
