"""Coccinelle fixtures: cocci/tests/NAME.c must become NAME.res.

Coccinelle's own convention: each NAME.c beside the expected NAME.res; a
trap (trap_*.c) must stay as it is.  spatch runs are batched (one --dir run
over copies of all fixtures per mode) so the suite takes seconds.

(a) the rule file, cocci/ioctl_enotty.cocci (-D patch -D tsv), gives .res;
(b) it is what its sources assemble (the scan and coccicheck run the same);
(c) ENOTTY-SITE lines: one per changed line, naming that line and a shape;
(d) -D report, -D context and -D org flag exactly the changed lines, each
    run alone as coccicheck runs it, with the file's // Options:.
"""
from __future__ import annotations

import difflib
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from enotty.find import interfaces, rules
from enotty.find.sites import ADDS, ADDS_DEFAULT, RESTRUCTURES, VALID_FIRST

TESTS = Path(__file__).resolve().parent
FIXTURES = sorted(TESTS.glob("*.c"))
SPATCH = shutil.which("spatch")


def run_spatch(smpl: Path, modes: list[str], folder: Path, in_place: bool,
               options: list[str] | None = None) -> str:
    if SPATCH is None:
        pytest.fail("spatch not found: apt-get install coccinelle (make check installs it)")
    cmd = [SPATCH, "--sp-file", str(smpl), "--dir", str(folder), "--jobs", "2",
           "--very-quiet", "--timeout", "60", *(options or [])]
    for mode in modes:
        cmd += ["-D", mode]
    if in_place:
        cmd.append("--in-place")
    res = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert res.returncode == 0, f"spatch failed: {res.stderr[-2000:]}"
    assert "Python failure" not in res.stderr and "Traceback" not in res.stderr, res.stderr[-2000:]
    return res.stdout


def copy_fixtures(dest: Path) -> Path:
    dest.mkdir()
    for c in [*FIXTURES, *TESTS.glob("*.h")]:   # local headers that fixtures include
        shutil.copy(c, dest / c.name)
    return dest


def site_lines(out: str) -> list[list[str]]:
    return [line.split("\t") for line in out.splitlines() if line.startswith(rules.SITE_MARKER + "\t")]


def changed_lines(before: str, after: str) -> set[int]:
    """1-based numbers of the lines of `before` that differ in `after`."""
    a, b = before.split("\n"), after.split("\n")
    out: set[int] = set()
    for tag, i1, i2, _j1, _j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag != "equal":
            out.update(range(i1 + 1, i2 + 1))
    return out


def changes(before: str, after: str) -> list[tuple[int, int, int, int]]:
    """(i1, i2, j1, j2) of each change, 0-based half-open line ranges."""
    a, b = before.split("\n"), after.split("\n")
    return [(i1, i2, j1, j2) for tag, i1, i2, j1, j2
            in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes() if tag != "equal"]


def new_index(before: str, after: str, i: int) -> int:
    """0-based index in `after` of line i of `before` (or of its
    replacement): ioctl_valid_first adds lines above other sites."""
    a, b = before.split("\n"), after.split("\n")
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if i1 <= i < i2:
            return j1 + min(i - i1, max(j2 - j1 - 1, 0))
    return i


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    """Every spatch run of the suite, once."""
    tmp = tmp_path_factory.mktemp("cocci")
    rule = rules.rule_file()

    out = {}
    out["rule_dir"] = copy_fixtures(tmp / "rule")
    out["rule_tsv"] = run_spatch(rule, ["patch", "tsv"], out["rule_dir"], in_place=True)

    for mode in ("report", "context", "org"):
        out[mode] = run_spatch(rule, [mode], copy_fixtures(tmp / mode), in_place=False,
                               options=rules.spatch_options())
    return out


def expected(c: Path) -> str:
    return c.with_suffix(".res").read_text()


def sites_by_file(work) -> dict[str, list[list[str]]]:
    by: dict[str, list[list[str]]] = {}
    for fields in site_lines(work["rule_tsv"]):
        by.setdefault(Path(fields[1]).name, []).append(fields)
    return by


def test_enough_fixtures_each_with_res():
    assert len(FIXTURES) >= 40
    missing = [c.name for c in FIXTURES if not c.with_suffix(".res").is_file()]
    assert not missing
    traps = [c for c in FIXTURES if c.name.startswith("trap_")]
    assert len(traps) >= 10
    for c in traps:
        assert expected(c) == c.read_text(), f"{c.name}: a trap's .res must equal its .c"


@pytest.mark.parametrize("c", FIXTURES, ids=lambda p: p.stem)
def test_rule_file_gives_res(work, c):
    got = (work["rule_dir"] / c.name).read_text()
    assert got == expected(c), "".join(difflib.unified_diff(
        expected(c).splitlines(True), got.splitlines(True), "expected", "got"))


def test_the_rule_file_is_what_its_sources_assemble():
    assert rules.rule_file().read_text() == rules.assembled()


@pytest.mark.parametrize("c", FIXTURES, ids=lambda p: p.stem)
def test_site_lines_match_the_diff(work, c):
    sites = sites_by_file(work).get(c.name, [])
    before, after = c.read_text(), expected(c)
    lines = [int(f[2]) for f in sites]
    assert len(lines) == len(set(lines)), f"duplicate sites: {sites}"
    # A token site is one changed line; a restructured one (its statement
    # rewritten, sites.RESTRUCTURES) owns the change that ends at its line
    # or holds it, whose new text gives the new answer.
    whole = [f for f in sites if f[7] in RESTRUCTURES]
    owned: set[int] = set()
    for f in whole:
        n = int(f[2])
        if f[7] in ADDS:
            # the initialiser stays; the first change after it is its own,
            # and adds nothing but the new answer (after `default:` for
            # ioctl_switch_add_default)
            blocks = [b for b in changes(before, after) if b[0] >= n]
            assert blocks and blocks[0][0] == blocks[0][1], f"{c.name}:{n}: nothing added: {f}"
            added = [line.strip() for line in after.split("\n")[blocks[0][2]:blocks[0][3]]]
            if f[7] == ADDS_DEFAULT:
                assert added[0] == "default:", added
                added = added[1:]
            assert len(added) == 1 and re.fullmatch(rf"\w+ = -{f[6]};", added[0]), added
            continue
        if f[7] == VALID_FIRST:
            # the state check stays; the last change before it adds the
            # test of the command, and one before the function adds
            # the function that test calls
            blocks = [b for b in changes(before, after) if b[1] < n]
            assert blocks and blocks[-1][0] == blocks[-1][1], f"{c.name}:{n}: nothing added: {f}"
            added = "\n".join(after.split("\n")[blocks[-1][2]:blocks[-1][3]])
            call = re.fullmatch(rf"\s*if \(!({re.escape(f[3])}_valid)\((\w+)\)\)\n\s*return -{f[6]};", added)
            assert call, added
            assert re.search(rf"^static bool {call.group(1)}\(unsigned int {call.group(2)}\)$", after, re.M), f
            continue
        blocks = [(i1, i2, j1, j2) for i1, i2, j1, j2 in changes(before, after) if i1 < n <= i2 + 1]
        assert len(blocks) == 1, f"{c.name}:{n}: no change of its own: {f}"
        i1, i2, j1, j2 = blocks[0]
        assert re.search(rf"-{f[5]}\b", before.split("\n")[n - 1]), f
        assert re.search(rf"-{f[6]}\b", "\n".join(after.split("\n")[j1:j2])), f
        owned |= set(range(i1 + 1, i2 + 1))
    token = {int(f[2]) for f in sites if f not in whole}
    assert token == changed_lines(before, after) - owned
    table = {i.name: i for i in interfaces.table()}
    rule_names = set(rules.shape_names())
    src, res = before.split("\n"), after.split("\n")
    for f in sites:
        assert len(f) == 8, f
        _marker, path, line, fn, iface, frm, to, rule = f
        assert Path(path).name == c.name
        assert iface in table and to == table[iface].to
        assert (frm in ("EINVAL", "ENOSYS", "EBADRQC", "ENOIOCTLCMD") or frm in table[iface].also_from
                or (frm, rule) == ("ENODEV", "ioctl_subhandler_miss"))
        assert rule in rule_names
        n = int(line) - 1
        assert re.search(rf"-{frm}\b", src[n])
        assert rule in RESTRUCTURES or re.search(rf"-{to}\b", res[new_index(before, after, n)])
        # the site lies inside function fn: its definition precedes the line
        assert any(re.match(rf"^\S.*\b{re.escape(fn)}\(", l) for l in src[:n]), fn


def test_every_rule_and_interface_has_a_site(work):
    sites = site_lines(work["rule_tsv"])
    assert {f[7] for f in sites} == set(rules.shape_names())
    assert {f[4] for f in sites} == {i.name for i in interfaces.table()}
    assert {"EINVAL", "ENOSYS", "ENOIOCTLCMD"} <= {f[5] for f in sites}


def flagged(out: str, pattern: str) -> set[tuple[str, int]]:
    return {(Path(m.group(1)).name, int(m.group(2))) for m in re.finditer(pattern, out, re.M)}


def all_sites(work) -> set[tuple[str, int]]:
    return {(Path(f[1]).name, int(f[2])) for f in site_lines(work["rule_tsv"])}


def test_report_mode_flags_every_site_and_no_trap(work):
    got = flagged(work["report"], r"^(\S+\.c):(\d+):\d+-\d+: WARNING: ")
    assert got == all_sites(work)
    assert "unknown ioctl command answered with" in work["report"]


def test_org_mode_flags_every_site(work):
    got = flagged(work["org"], r"^\* TODO \[\[view:(\S+\.c)::face=ovl-face1::linb=(\d+)::")
    assert got == all_sites(work)


def test_context_mode_marks_every_site(work):
    got: set[tuple[str, int]] = set()
    name, line = "", 0
    for text in work["context"].splitlines():
        m = re.match(r"^--- (\S+)", text)
        if m:
            name = Path(m.group(1)).name
            continue
        m = re.match(r"^@@ -(\d+)", text)
        if m:
            line = int(m.group(1))
            continue
        if text.startswith("+++") or not name or not line:
            continue
        if text.startswith("-"):
            got.add((name, line))
        if not text.startswith("+"):
            line += 1
    assert got == all_sites(work)


@pytest.mark.parametrize("fixture, function, interface", [
    ("helper_return_dispatch.c", "mbox_do_ioctl", "file_operations.unlocked_ioctl"),
    ("helper_shared_native_compat.c", "prn_do_ioctl", "file_operations.unlocked_ioctl"),
    ("runtime_ptr_assign.c", "vcon_ioctl", "tty_operations.ioctl"),
    ("leaf_enoioctlcmd_hwdep.c", "dsp_hwdep_ioctl", "snd_hwdep_ops.ioctl"),
    ("v4l2_vidioc_default.c", "cam_default", "v4l2_ioctl_ops.vidioc_default"),
])
def test_site_names_function_and_interface(work, fixture, function, interface):
    sites = sites_by_file(work)[fixture]
    assert {(f[3], f[4]) for f in sites} == {(function, interface)}


FACTS = TESTS / "facts"


@pytest.mark.parametrize("c", sorted(FACTS.glob("*.c")), ids=lambda p: p.stem)
def test_facts_add_targets_from_other_files(tmp_path, c):
    """-D enotty_facts=FILE (rows file, function, interface, cmd_arg, as
    tools/enotty/find/facts.py writes them): the functions it names in this file
    become targets; a row for another file or for an interface outside the
    table adds nothing.  Without the virtual the file stays as it is."""
    with_facts = tmp_path / "with"
    without = tmp_path / "without"
    for folder in (with_facts, without):
        folder.mkdir()
        shutil.copy(c, folder / c.name)
    out = run_spatch(rules.rule_file(), ["patch", "tsv", f"enotty_facts={FACTS / 'facts.tsv'}"],
                     with_facts, in_place=True)
    assert (with_facts / c.name).read_text() == expected(c)
    lines = {int(f[2]) for f in site_lines(out)}
    assert lines == changed_lines(c.read_text(), expected(c)) != set()
    assert site_lines(run_spatch(rules.rule_file(), ["patch", "tsv"], without, in_place=True)) == []
    assert (without / c.name).read_text() == c.read_text()


def test_a_target_of_two_interfaces_is_named_by_the_first_table_row(tmp_path):
    """rfcomm_dev_ioctl(): the facts list it under proto_ops.compat_ioctl
    before proto_ops.ioctl; the site names the native interface, so the
    effects do not call the change compat-only."""
    folder = tmp_path / "two"
    folder.mkdir()
    shutil.copy(FACTS / "two_interfaces.c", folder / "two_interfaces.c")
    out = run_spatch(rules.rule_file(), ["tsv", f"enotty_facts={FACTS / 'facts.tsv'}"], folder, in_place=False)
    assert [f[4] for f in site_lines(out)] == ["proto_ops.ioctl"]
