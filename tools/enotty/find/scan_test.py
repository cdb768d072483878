import dataclasses
import os
import shutil
import stat
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from . import scan
from ..kernel import tree
from enotty.requests import ScanRequest
from .sites import Site

TESTDATA = Path(__file__).resolve().parents[1] / "testdata"
FIXTURE = TESTDATA / "tree"
STAND_IN = (TESTDATA / "stand_in.cocci").read_text()

needs_spatch = pytest.mark.skipif(shutil.which("spatch") is None, reason="coccinelle not installed")


def stand_in_site(file: str, line: int, function: str, member: str) -> Site:
    return Site(file, line, function, f"file_operations.{member}", "EINVAL", "ENOTTY", "stand_in")


EXPECTED_SITES = [
    stand_in_site("drivers/foo/bar.c", 21, "bar_ioctl", "compat_ioctl"),
    stand_in_site("drivers/foo/bar.c", 21, "bar_ioctl", "unlocked_ioctl"),
    stand_in_site("drivers/foo/foo.c", 12, "foo_ioctl", "unlocked_ioctl"),
    stand_in_site("drivers/foo/partial.c", 17, "part_ioctl", "unlocked_ioctl"),
]


def scan_folder(root: Path, caches: Path, smpl: scan.Rules | None = None, facts: dict[str, str] | None = None,
                use_cache: bool = True, **kw: Any) -> scan.ScanResult:
    """scan.scan over a folder as its own tree, its results kept under caches."""
    kernel = dataclasses.replace(tree.at(root, use_cache), caches=caches)
    settings: dict[str, Any] = {"across_files": False, **kw}
    return scan.scan(ScanRequest(kernel, **settings), smpl, facts)


def run(root: Path, cache: Path, **kw: Any) -> scan.ScanResult:
    return scan_folder(root, cache, scan.Rules(STAND_IN, "stand-in"), **kw)


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    out = {}
    for folder, _dirs, files in os.walk(root):
        for name in files:
            st = os.stat(os.path.join(folder, name))
            out[os.path.relpath(os.path.join(folder, name), root)] = (st.st_size, st.st_mtime_ns)
    return out


# ---------------------------------------------------------------- prefilter

def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_prefilter_needs_an_ioctl_binding_and_an_errno_token(tmp_path):
    write(tmp_path / "a.c", "static const struct file_operations f = { .unlocked_ioctl = a_ioctl };"
                            " long a_ioctl(void) { return -EINVAL; }")
    write(tmp_path / "sub/v.c", ".vidioc_default = v_default; return -ENOSYS;")
    write(tmp_path / "sub/t.c", "x->ioctl = t_ioctl; return -ENOIOCTLCMD;")
    # an answer of the also_from column alone (the landisk gio_ioctl(): no -EINVAL in its file)
    write(tmp_path / "sub/u.c", ".unlocked_ioctl = u_ioctl; default: return -EFAULT;")
    # iio_ioctl(): -ENODEV after the loop over its handlers is its only answer
    write(tmp_path / "sub/w.c", ".unlocked_ioctl = w_ioctl; return -ENODEV;")
    write(tmp_path / "calls.c", "return x->ioctl(x, cmd) ?: -EINVAL;")
    write(tmp_path / "compares.c", "if (ops.ioctl == NULL) return -EINVAL;")
    write(tmp_path / "only_ioctl.c", "long a_ioctl(void) { return -ENOTTY; }")
    write(tmp_path / "only_errno.c", "int f(void) { return -EINVAL; }")
    write(tmp_path / "header.h", "long h_ioctl(void) { return -EINVAL; }")
    write(tmp_path / ".git/objects/x.c", "long g_ioctl(void) { return -EINVAL; }")
    (tmp_path / "sub/loop").symlink_to(tmp_path, target_is_directory=True)
    got = scan.prefilter(tmp_path, tmp_path, ioctl=(b"ioctl", b"vidioc_default"))
    assert [c.rel for c in got.candidates] == ["a.c", "sub/t.c", "sub/u.c", "sub/v.c", "sub/w.c"]
    assert got.c_files == 9          # .git skipped, the symlinked folder not followed
    a = got.candidates[0]
    assert a.size == len((tmp_path / "a.c").read_text())
    assert len(a.sha256) == 64


def test_prefilter_lists_unreadable_files(tmp_path, monkeypatch):
    write(tmp_path / "a.c", ".ioctl = a_ioctl EINVAL")
    write(tmp_path / "b.c", ".ioctl = b_ioctl EINVAL")

    def refuse_a(path, *args):
        if path.endswith("a.c"):
            raise PermissionError(13, "Permission denied")
        return open(path, *args)
    monkeypatch.setattr(scan, "open", refuse_a, raising=False)   # as root, chmod 0 does not stop reads
    got = scan.prefilter(tmp_path, tmp_path, ioctl=(b"ioctl",))
    assert [c.rel for c in got.candidates] == ["b.c"]
    assert got.unreadable == [("a.c", "Permission denied")]


def test_prefilter_leaves_out_a_kernel_trees_userspace_tools(tmp_path):
    write(tmp_path / "drivers/a.c", ".ioctl = a_ioctl EINVAL")
    write(tmp_path / "tools/testing/t.c", "ops.ioctl = t_ioctl; errno == EINVAL")
    plain = scan.prefilter(tmp_path, tmp_path, ioctl=(b"ioctl",))
    assert [c.rel for c in plain.candidates] == ["drivers/a.c", "tools/testing/t.c"]   # not a kernel tree
    write(tmp_path / "MAINTAINERS", "")
    write(tmp_path / "Makefile", "")
    kernel = scan.prefilter(tmp_path, tmp_path, ioctl=(b"ioctl",))
    assert ([c.rel for c in kernel.candidates], kernel.c_files) == (["drivers/a.c"], 1)
    asked = scan.prefilter(tmp_path, tmp_path / "tools", ioctl=(b"ioctl",))
    assert [c.rel for c in asked.candidates] == ["tools/testing/t.c"]


def test_prefilter_scope_keeps_paths_relative_to_root(tmp_path):
    write(tmp_path / "drivers/x/a.c", ".ioctl = a_ioctl EINVAL")
    write(tmp_path / "fs/b.c", ".ioctl = b_ioctl EINVAL")
    got = scan.prefilter(tmp_path, tmp_path / "drivers", ioctl=(b"ioctl",))
    assert [c.rel for c in got.candidates] == ["drivers/x/a.c"]


def test_ioctl_tokens_come_from_the_interface_table():
    tokens = scan.ioctl_tokens()
    assert b"ioctl" in tokens and b"vidioc_default" in tokens
    assert b"unlocked_ioctl" not in tokens      # already covered by "ioctl"


# ---------------------------------------------------------------- spatch output parsing

def test_parse_stdout_reads_hunks_by_count():
    text = (
        "ENOTTY-SITE\tx.c\t3\tf\ts.g\tEINVAL\tENOTTY\tr\n"
        "--- x.c\n"
        "+++ /tmp/cocci-output-1-x.c\n"
        "@@ -1,4 +1,4 @@\n"
        " int f(void)\n"
        "--- a removed line that looks like a header\n"
        "+++ an added line that looks like a header\n"
        "ENOTTY-SITE\tx.c\t9\tf\ts.g\tEINVAL\tENOTTY\tr\n"
        " }\n"
        "\n"
        "--- y.c\n"
        "+++ /tmp/cocci-output-1-y.c\n"
        "@@ -5 +5 @@\n"
        "-a\n"
        "+b\n"
        "\\ No newline at end of file\n"
    )
    out = scan.parse_stdout(text)
    assert [s.line for s in out.sites["x.c"]] == [3, 9]
    assert out.hunks["x.c"] == (
        "@@ -1,4 +1,4 @@\n int f(void)\n--- a removed line that looks like a header\n"
        "+++ an added line that looks like a header\n }\n\n")
    assert out.hunks["y.c"] == "@@ -5 +5 @@\n-a\n+b\n\\ No newline at end of file\n"
    assert out.noise == []


def test_parse_stdout_reports_stray_output():
    out = scan.parse_stdout("hello from a rule\nENOTTY-SITE\tbroken\n")
    assert out.noise == ["hello from a rule", "not a ENOTTY-SITE line with 7 fields: 'ENOTTY-SITE\\tbroken\\n'"]


# Abridged from spatch 1.1.1's stderr with --verbose-parsing.
STDERR = """\
init_defs_builtins: /usr/lib/coccinelle/standard.h
(ONCE) Expected tokens file_operations
Skipping: drivers/a.c
HANDLING: drivers/b.c
ERROR-RECOV: found sync '}' at line 9
parse error 
 = File "drivers/b.c", line 5, column 12, charpos = 114
  around = ';',
  whole content = \t\treturn 0 +;
badcount: 8
bad: static long bar_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
BAD:!!!!! \t\treturn 0 +;
bad: \t\treturn -EINVAL;
semantic error function with no return type must have types in param list
 =File "drivers/b.c", line 40, column 0, charpos = 900
badcount: 2
bad: \t[n] = #n
parse error 
 = File "drivers/b.c", line 5, column 12, charpos = 114
badcount: 8
bad: \t\treturn -EINVAL;
parse error 
 = File "/tmp/cocci-output-1-b.c", line 5, column 12, charpos = 114
badcount: 8
bad: \t\treturn -ENOSYS;
HANDLING: drivers/c.c
EXN: Coccinelle_modules.Common.Timeout in drivers/c.c
HANDLING: drivers/e.c
parse error 
 = File "drivers/e.c", line 77, column 1, charpos = 900
badcount: 3
bad: static const struct foo_desc descs[] = {
BAD:!!!!! \tFOO_DESC(a, b) FOO_DESC(c, d)
bad: };
HANDLING: drivers/d.c
diff = 
"""
TOKENS = ("ioctl", "EINVAL", "ENOSYS", "ENOIOCTLCMD")


def test_parse_stderr_attributes_messages_to_files():
    outcomes, order = scan.parse_stderr(STDERR, TOKENS)
    assert order == ["drivers/a.c", "drivers/b.c", "drivers/c.c", "drivers/e.c", "drivers/d.c"]
    assert outcomes["drivers/a.c"].skipped and not outcomes["drivers/b.c"].skipped
    b = outcomes["drivers/b.c"]
    assert (b.bad_lines, b.first_bad, b.bad_tokens) == (10, 5, {"ioctl", "EINVAL"})
    e = outcomes["drivers/e.c"]
    assert (e.bad_lines, e.first_bad, e.bad_tokens) == (3, 77, set())
    assert outcomes["drivers/c.c"].exception == "Coccinelle_modules.Common.Timeout"


def test_file_result_statuses():
    outcomes, _ = scan.parse_stderr(STDERR, TOKENS)
    stdout = scan.parse_stdout(
        "ENOTTY-SITE\tdrivers/c.c\t3\tf\ts.g\tEINVAL\tENOTTY\tr\n"
        "ENOTTY-SITE\tdrivers/b.c\t7\tf\ts.g\tEINVAL\tENOTTY\tr\n")
    b = scan._file_result("drivers/b.c", outcomes["drivers/b.c"], stdout, 120)
    assert (b.status, b.reason) == (
        "parse-error", "10 lines not parsed from line 5, naming EINVAL, ioctl")
    assert [s.line for s in b.sites] == [7]       # what did parse still counts
    c = scan._file_result("drivers/c.c", outcomes["drivers/c.c"], stdout, 120)
    assert (c.status, c.reason, c.sites) == ("timeout", "spatch timeout after 120 s", [])
    e = scan._file_result("drivers/e.c", outcomes["drivers/e.c"], stdout, 120)
    assert (e.status, e.reason) == ("partial", "3 lines not parsed from line 77")
    assert scan._file_result("drivers/a.c", outcomes["drivers/a.c"], stdout, 120).status == "ok"
    assert scan._file_result("drivers/zz.c", None, stdout, 120).status == "error"


# ---------------------------------------------------------------- whole scans

@needs_spatch
def test_scan_fixture_tree(tmp_path):
    before = snapshot(FIXTURE)
    result = run(FIXTURE, tmp_path / "cache")
    assert snapshot(FIXTURE) == before                      # nothing written into the tree
    assert result.sites == EXPECTED_SITES
    assert (result.c_files, result.candidates, result.spatch_runs, result.cached) == (6, 5, 5, 0)
    assert sorted(result.diffs) == ["drivers/foo/bar.c", "drivers/foo/foo.c", "drivers/foo/partial.c"]
    assert result.diffs["drivers/foo/foo.c"] == (
        "--- a/drivers/foo/foo.c\n"
        "+++ b/drivers/foo/foo.c\n"
        "@@ -9,7 +9,7 @@ static long foo_ioctl(struct file *file,\n"
        " \tcase FOO_RESET:\n"
        " \t\treturn foo_reset(file);\n"
        " \tdefault:\n"
        "-\t\treturn -EINVAL;\n"
        "+\t\treturn -ENOTTY;\n"
        " \t}\n"
        " }\n"
        " \n")
    assert [(f.file, f.status) for f in result.failed] == [("drivers/foo/broken.c", "parse-error")]
    assert result.failed[0].reason == "10 lines not parsed from line 10, naming EINVAL, ioctl"
    assert result.partial == [scan.Failure("drivers/foo/partial.c", "partial", "5 lines not parsed from line 8")]
    assert result.warnings == []


@needs_spatch
def test_patch_applies_from_the_tree_root(tmp_path):
    copy = tmp_path / "tree"
    shutil.copytree(FIXTURE, copy)
    patch = run(copy, tmp_path / "cache").patch()
    subprocess.run(["patch", "-p1", "-s"], input=patch, text=True, cwd=copy, check=True)
    assert "return -ENOTTY;" in (copy / "drivers/foo/foo.c").read_text()
    assert "return -EINVAL;" not in (copy / "drivers/foo/foo.c").read_text()
    # The patched tree has nothing left to change.
    assert run(copy, tmp_path / "cache").sites == []


@needs_spatch
def test_cache_reuses_unchanged_files_and_rescans_changed_ones(tmp_path):
    copy = tmp_path / "tree"
    shutil.copytree(FIXTURE, copy)
    cache = tmp_path / "cache"
    first = run(copy, cache)
    assert first.spatch_runs == 5

    second = run(copy, cache)
    assert (second.spatch_runs, second.cached) == (0, 5)
    assert (second.sites, second.diffs, second.failed, second.partial) == (
        first.sites, first.diffs, first.failed, first.partial)

    foo = copy / "drivers/foo/foo.c"
    foo.write_text("/* one more line */\n" + foo.read_text())
    third = run(copy, cache)
    assert (third.spatch_runs, third.cached) == (1, 4)
    assert [(s.file, s.line) for s in third.sites if s.file.endswith("foo.c")] == [("drivers/foo/foo.c", 13)]
    assert "@@ -10,7 +10,7 @@" in third.diffs["drivers/foo/foo.c"]

    assert run(copy, cache, use_cache=False).spatch_runs == 5
    other_rules = scan_folder(copy, cache, scan.Rules(STAND_IN + "\n// changed\n", "stand-in"))
    assert other_rules.spatch_runs == 5


@needs_spatch
def test_cached_results_follow_the_path_of_identical_content(tmp_path):
    copy = tmp_path / "tree"
    shutil.copytree(FIXTURE, copy)
    cache = tmp_path / "cache"
    run(copy, cache)
    shutil.copy(copy / "drivers/foo/foo.c", copy / "drivers/foo/foo2.c")
    result = run(copy, cache)
    assert result.spatch_runs == 0
    assert result.diffs["drivers/foo/foo2.c"].startswith("--- a/drivers/foo/foo2.c\n+++ b/drivers/foo/foo2.c\n")
    assert [s.line for s in result.sites if s.file == "drivers/foo/foo2.c"] == [12]


@needs_spatch
def test_batch_crash_reruns_files_one_by_one(tmp_path, monkeypatch):
    """A spatch that dies on any batch of two or more files: every file is
    still scanned, alone, with the same results."""
    fake = tmp_path / "bin" / "spatch"
    fake.parent.mkdir()
    fake.write_text(f"""#!{sys.executable}
import os, sys
args = sys.argv[1:]
if "--file-groups" in args:
    groups = open(args[args.index("--file-groups") + 1]).read().split()
    if len(groups) > 1:
        print("HANDLING: " + groups[0], file=sys.stderr)
        sys.exit(139)
os.execv({shutil.which("spatch")!r}, ["spatch"] + args)
""")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    result = run(FIXTURE, tmp_path / "cache", jobs=1)
    assert result.sites == EXPECTED_SITES
    assert [(f.file, f.status) for f in result.failed] == [("drivers/foo/broken.c", "parse-error")]


@needs_spatch
def test_broken_semantic_patch_is_a_scan_error(tmp_path):
    with pytest.raises(scan.ScanError, match="before any file"):
        scan_folder(FIXTURE, tmp_path, scan.Rules("@@\n@@\n- this is not SmPL (\n", "x"))


def test_no_spatch_on_path_is_a_usage_error(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(scan.UsageError, match="spatch not found"):
        run(FIXTURE, tmp_path / "cache")


def test_batches_put_large_files_first_and_split_the_work():
    cands = [scan.Candidate(f"f{i}.c", size=i, sha256="0" * 64) for i in range(40)]
    batches = scan._batches(cands, jobs=2)
    assert batches[0][0].rel == "f39.c"
    assert sorted(c.rel for b in batches for c in b) == sorted(c.rel for c in cands)
    assert len(batches) >= 4 and max(len(b) for b in batches) <= 48


# Slow on purpose: every pair of if statements in a long function.
SLOW_RULE = """\
virtual patch
virtual tsv
@r@
expression E, F;
statement S1, S2;
position p;
@@
if (E) S1
... when any
if (F@p) S2

@script:python depends on tsv@
p << r.p;
@@
print("ENOTTY-SITE\\t%s\\t%s\\tf\\ts.g\\tEINVAL\\tENOTTY\\tslow" % (p[0].file, p[0].line))
"""


@needs_spatch
def test_timeout_is_a_failure_cached_for_that_timeout_only(tmp_path):
    body = "".join(f"\tif (a{i}) b{i}();\n" for i in range(400))
    bind = "static struct file_operations f = {{ .unlocked_ioctl = {} }};\n"
    write(tmp_path / "tree/big.c", f"long big_ioctl(int a)\n{{\n{body}\treturn -EINVAL;\n}}\n"
                                   + bind.format("big_ioctl"))
    write(tmp_path / "tree/small.c", "long s_ioctl(int a)\n{\n\tif (a) b();\n\tif (c) d();\n\treturn -EINVAL;\n}\n"
                                     + bind.format("s_ioctl"))
    cache = tmp_path / "cache"

    def slow_scan(timeout: int) -> scan.ScanResult:
        return scan_folder(tmp_path / "tree", cache, scan.Rules(SLOW_RULE, "slow"), timeout=timeout)

    first = slow_scan(1)
    assert first.failed == [scan.Failure("big.c", "timeout", "spatch timeout after 1 s")]
    assert [(s.file, s.line) for s in first.sites] == [("small.c", 4)]   # none from big.c
    assert slow_scan(1).spatch_runs == 0            # a rerun does not wait again
    assert slow_scan(2).spatch_runs == 1            # a longer limit tries again


@needs_spatch
@pytest.mark.parametrize("eol", [b"\n", b"\r\n"])
def test_diff_keeps_form_feeds_latin1_and_crlf_bytes(tmp_path, eol):
    source = (FIXTURE / "drivers/foo/foo.c").read_bytes()
    source = source.replace(b"\tdefault:\n", b"\t/* caf\xe9 */\n\f\n\tdefault:\n").replace(b"\n", eol)
    (tmp_path / "tree").mkdir()
    (tmp_path / "tree/odd.c").write_bytes(source)
    patch = run(tmp_path / "tree", tmp_path / "cache").patch()
    assert patch.startswith("--- a/odd.c\n+++ b/odd.c\n@@ ")
    subprocess.run(["patch", "-p1", "-s"], input=patch.encode("utf-8", "surrogateescape"),
                   cwd=tmp_path / "tree", check=True)
    assert (tmp_path / "tree/odd.c").read_bytes() == source.replace(b"return -EINVAL;", b"return -ENOTTY;")


GUARDED = """\
static int get_info(struct foo_info __user *arg)
{
	struct foo_info *info __free(kfree) = NULL;

	info = memdup_user(arg, sizeof(*info));
	return PTR_ERR_OR_ZERO(info);
}

static long guarded_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct foo *foo = file->private_data;

	scoped_guard(mutex, &foo->lock)
		foo->calls++;
	kfree(foo->scratch);
	switch (cmd) {
	case FOO_INFO:
		return get_info((void __user *)arg);
	default:
		return -EINVAL;
	}
}

static const struct file_operations guarded_fops = {
	.unlocked_ioctl = guarded_ioctl,
};
"""


@needs_spatch
def test_cleanup_h_guards_parse(tmp_path):
    """scoped_guard() and a later kfree(p->q) after __free(kfree) defeat
    spatch 1.1.1 without KERNEL_MACROS and --noadd-typedef-root."""
    write(tmp_path / "tree/guarded.c", GUARDED)
    result = run(tmp_path / "tree", tmp_path / "cache")
    assert (result.failed, result.partial) == ([], [])
    assert result.sites == [stand_in_site("guarded.c", 20, "guarded_ioctl", "unlocked_ioctl")]


def test_removed_lines_and_disagreement():
    hunks = ("@@ -9,7 +9,7 @@ static long f(void)\n"
             " \tcase 1:\n \t\treturn 0;\n \tdefault:\n-\t\treturn -EINVAL;\n+\t\treturn -ENOTTY;\n \t}\n"
             "@@ -40,3 +40,3 @@\n \tx;\n-\treturn -ENOSYS;\n+\treturn -ENOTTY;\n")
    assert scan.removed_lines(hunks) == {12, 41}
    agree = scan.FileResult("x.c", "ok", sites=[stand_in_site("x.c", 12, "f", "unlocked_ioctl"),
                                               stand_in_site("x.c", 41, "f", "unlocked_ioctl")],
                            hunks=hunks)
    assert scan.disagreement(agree) == ""
    lost = scan.FileResult("x.c", "ok", sites=[stand_in_site("x.c", 12, "f", "unlocked_ioctl"),
                                              stand_in_site("x.c", 50, "f", "unlocked_ioctl")],
                           hunks=hunks)
    assert scan.disagreement(lost) == (
        "x.c: the diff changes line(s) 41 that no site names; site line(s) 50 not changed by the diff")


def test_disagreement_of_a_restructured_site():
    """ioctl_cmd_state_split keeps its site line (the return) as context and
    rewrites the if above it: the hunk covering the site owns its removed
    lines; a removed line of another hunk still needs a site."""
    split = ("@@ -995,7 +995,9 @@ static int cache_ioctl(struct inode *ino\n"
             " \tx;\n \ty;\n \n-\tif (cmd != FIONREAD || !rp)\n+\tif (cmd != FIONREAD)\n"
             "+\t\treturn -ENOTTY;\n+\tif (!rp)\n \t\treturn -EINVAL;\n \n \tz;\n")
    site = Site("x.c", 999, "cache_ioctl", "file_operations.unlocked_ioctl", "EINVAL", "ENOTTY",
                "ioctl_cmd_state_split")
    assert scan.removed_lines(split) == {998}
    assert scan.disagreement(scan.FileResult("x.c", "ok", sites=[site], hunks=split)) == ""
    token = stand_in_site("x.c", 999, "cache_ioctl", "unlocked_ioctl")
    assert scan.disagreement(scan.FileResult("x.c", "ok", sites=[token], hunks=split)) == (
        "x.c: the diff changes line(s) 998 that no site names; site line(s) 999 not changed by the diff")
    far = dataclasses.replace(site, line=1200)
    assert scan.disagreement(scan.FileResult("x.c", "ok", sites=[far], hunks=split)) == (
        "x.c: site line(s) 1200 in no hunk; the diff changes line(s) 998 that no site names")


def test_an_added_branch_is_indented_one_tab_under_its_head():
    """ppdev indents by four spaces under a tab, and spatch copies that
    step into what ioctl_valid_first adds."""
    body = ["+\tcase PPGETTIME64:\n", "+\t    return true;\n", "+\t}\n",
            "+\tif (!pp_do_ioctl_valid(cmd))\n", "+\t    return -ENOTTY;\n", " \tif ((pp->flags & PP_CLAIMED) == 0) {\n",
            " \t    {\n"]
    assert scan.indent_added_branches(body) == [
        "+\tcase PPGETTIME64:\n", "+\t\treturn true;\n", "+\t}\n",
        "+\tif (!pp_do_ioctl_valid(cmd))\n", "+\t\treturn -ENOTTY;\n", " \tif ((pp->flags & PP_CLAIMED) == 0) {\n",
        " \t    {\n"]


def test_an_added_default_is_indented_and_owned_by_its_site():
    """ioctl_switch_add_default keeps its site (the initialiser) and adds a
    default further down, which spatch prints in column 0."""
    body = ["@@ -1204,6 +1204,8 @@ static long pci_endpoint_test_ioctl(\n",
            " \t\tret = pci_endpoint_test_doorbell(test);\n", " \t\tbreak;\n",
            "+default:\n", "+\t\tret = -ENOTTY;\n", " \t}\n", " \n", "ret:\n"]
    fixed = scan.indent_added_labels(body)
    assert fixed[3] == "+\tdefault:\n" and fixed[:3] + fixed[4:] == body[:3] + body[4:]
    hunks = "".join(fixed)
    site = Site("x.c", 1147, "pci_endpoint_test_ioctl", "file_operations.unlocked_ioctl", "EINVAL", "ENOTTY",
                "ioctl_switch_add_default")
    assert scan.adding_hunks(hunks) == [1204]
    assert scan.disagreement(scan.FileResult("x.c", "ok", sites=[site], hunks=hunks)) == ""
    late = dataclasses.replace(site, line=1300)
    assert scan.disagreement(scan.FileResult("x.c", "ok", sites=[late], hunks=hunks)) == (
        "x.c: nothing added after site line 1300")


# ---------------------------------------------------------------- macros

HANDLER = """
static long m_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
%s
	switch (cmd) {
	case FOO_GET:
		return foo_get(file, arg);
	default:
		return -EINVAL;
	}
}

static const struct file_operations m_fops = {
	.unlocked_ioctl = m_ioctl,
};
"""

# macro name in KERNEL_MACROS -> (code before the handler, code at its top),
# each from the 6.12 or 7.2 file that failed without it.
MACRO_CASES = {
    "scoped_cond_guard": ("", "\tscoped_cond_guard(mutex_intr, return -ERESTARTSYS, &file->lock)\n"
                              "\t\tfile->private_data = NULL;"),
    "scoped_with_kernel_creds": ("", "\tscoped_with_kernel_creds() {\n\t\tdo {\n\t\t\tsend(file);\n"
                                     "\t\t} while (file->private_data);\n\t}"),
    "scoped_with_creds": ("", "\tscoped_with_creds(file->f_cred) {\n\t\tsend(file);\n\t}"),
    **{f"scoped_user_{how}_access{size}": (
        "", f"\tscoped_user_{how}_access{size}(ulen{', 4' if size else ''}, efault_end) {{\n"
            "\t\tunsafe_get_user(len, ulen, efault_end);\n\t}")
       for how in ("read", "write", "rw") for size in ("", "_size")},
    "__free": ("", "\tu32 *data __free(kfree) = kmalloc(8, GFP_KERNEL);\n\n\tif (!data)\n"
                   "\t\treturn -ENOMEM;\n\tkfree(file->private_data);"),
    "__ETHTOOL_DECLARE_LINK_MODE_MASK": (
        "", "\t__ETHTOOL_DECLARE_LINK_MODE_MASK(mask) = { 0, };\n\n\tlinkmode_zero(mask);"),
    "darray_str": ("", "\tdarray_str(devs) = {};\n\tlong ret = 0;\n\n\tdarray_exit(&devs);"),
    "COMPAT_SYSCALL_DEFINE6": (
        "COMPAT_SYSCALL_DEFINE6(epoll_pwait2, int, epfd,\n"
        "\t\t       struct epoll_event __user *, events,\n"
        "\t\t       int, maxevents,\n\t\t       const struct old_timespec32 __user *, timeout,\n"
        "\t\t       const compat_sigset_t __user *, sigmask,\n\t\t       compat_size_t, sigsetsize)\n"
        "{\n\treturn do_compat_epoll_pwait(epfd, events, maxevents, timeout, sigmask);\n}\n", ""),
    "for_each_vma_range": (
        "", "\tstruct vm_area_struct *cur;\n\n\tdo {\n\t\tcond_resched();\n"
            "\t} for_each_vma_range(vmi, cur, end);"),
    "for_each_possible_cpu": (
        "", "\tint cpu;\n\n\tfor_each_possible_cpu(cpu)\n"
            "\t\t*per_cpu_ptr(file->private_data, cpu) = -1;"),
    "COMPAT_SYSCALL_DEFINE3": (
        "COMPAT_SYSCALL_DEFINE3(ioctl, unsigned int, fd, unsigned int, cmd,\n"
        "\t\t       compat_ulong_t, arg)\n{\n\tif (!fd)\n\t\treturn -EBADF;\n"
        "\treturn compat_ioctl(fd, cmd, arg);\n}\n", ""),
    "UVERBS_HANDLER": (
        "static int UVERBS_HANDLER(MLX5_IB_METHOD_PP_OBJ_ALLOC)(\n"
        "\tstruct uverbs_attr_bundle *attrs)\n{\n\tif (!attrs)\n\t\treturn -EPERM;\n"
        "\treturn 0;\n}\n", ""),
    "DEF_SCSI_QCMD": ("static DEF_SCSI_QCMD(tw_scsi_queue)\n", ""),
    "BPF_CALL_1": ("BPF_CALL_1(bpf_f, struct file *, file)\n{\n\treturn f_ioctl(file);\n}\n", ""),
    "BPF_CALL_2": ("BPF_CALL_2(bpf_bprm_opts_set, struct linux_binprm *, bprm, u64, flags)\n"
                   "{\n\tif (flags & ~BPF_F_BRPM_OPTS_MASK)\n\t\treturn -EPERM;\n"
                   "\treturn 0;\n}\n", ""),
    "DEB": ("", "\tif ( DEB( debugging || ) !file->private_data)\n\t\treturn -ENXIO;"),
    "BPF_CALL_3": ("BPF_CALL_3(bpf_ima_inode_hash, struct inode *, inode, void *, dst, u32, size)\n"
                   "{\n\treturn ima_inode_hash(inode, dst, size);\n}\n", ""),
}


def macros_without(name: str) -> str:
    lines = scan.KERNEL_MACROS.splitlines(keepends=True)
    out, skip = [], False
    for line in lines:
        if line.startswith(f"#define {name}("):
            skip = line.rstrip().endswith("\\")
            continue
        if skip:
            skip = line.rstrip().endswith("\\")
            continue
        out.append(line)
    assert len(out) < len(lines), f"{name} is not in KERNEL_MACROS"
    return "".join(out)


@needs_spatch
@pytest.mark.parametrize("name", sorted(MACRO_CASES))
def test_each_kernel_macro_lets_spatch_parse_its_file(tmp_path, monkeypatch, name):
    """With KERNEL_MACROS the file parses and the site is found; without
    the macro's line spatch leaves the handler's code unparsed."""
    before, top = MACRO_CASES[name]
    text = "#include <linux/fs.h>\n\n" + before + HANDLER % top
    write(tmp_path / "tree/m.c", text)
    line = text.splitlines().index("\t\treturn -EINVAL;") + 1
    result = run(tmp_path / "tree", tmp_path / "cache")
    assert (result.failed, result.partial) == ([], [])
    assert result.sites == [stand_in_site("m.c", line, "m_ioctl", "unlocked_ioctl")]
    monkeypatch.setattr(scan, "KERNEL_MACROS", macros_without(name))
    without = run(tmp_path / "tree", tmp_path / "cache2")
    assert without.failed or without.partial, "the macro is not needed"


# sound/core/rawmidi.c: a macro of the file with `, ##args`, called with a
# cast first, in the body of scoped_guard().
RAWMIDI_WARN = """#define rmidi_warn(rmidi, fmt, args...) \\
	dev_warn((rmidi)->dev, fmt, ##args)

"""
RAWMIDI_DRAIN = """\tscoped_guard(spinlock_irq, &file->lock) {
\t\tif (file->avail < file->size) {
\t\t\trmidi_warn(file->rmidi, "drain error (avail = %li)\\n",
\t\t\t\t   (long)file->avail);
\t\t\tfile->err = -EIO;
\t\t}
\t}"""


@needs_spatch
def test_kernel_macros_apply_from_the_first_pass(tmp_path):
    """Given with --macro-file, KERNEL_MACROS would join only spatch's third
    pass, which also expands the file's own macros: there rmidi_warn's
    `, ##args` before a cast fails the function, while the first pass,
    knowing scoped_guard from the builtins, parses it."""
    text = "#include <linux/fs.h>\n\n" + RAWMIDI_WARN + HANDLER % RAWMIDI_DRAIN
    write(tmp_path / "tree/r.c", text)
    line = text.splitlines().index("\t\treturn -EINVAL;") + 1
    result = run(tmp_path / "tree", tmp_path / "cache")
    assert (result.failed, result.partial) == ([], [])
    assert result.sites == [stand_in_site("r.c", line, "m_ioctl", "unlocked_ioctl")]


@needs_spatch
def test_unparsed_macro_bodies_are_partial_not_failed(tmp_path):
    """A #define whose body spatch cannot parse (an ioctl table entry, as in
    drm_ioctl.c) names ioctl, but the rules never match in a macro body: the
    file is parsed in part, not failed, and its site is found."""
    table = ("#define FOO_IOCTL_DEF(ioctl, _func)\t\t\\\n"
             "\t[_IOC_NR(ioctl)] = {\t\t\t\\\n\t\t.cmd = ioctl,\t\t\t\\\n"
             "\t\t.func = _func,\t\t\t\\\n\t}\n\n")
    text = table + HANDLER % ""
    write(tmp_path / "tree/t.c", text)
    result = run(tmp_path / "tree", tmp_path / "cache")
    assert result.failed == []
    assert [p.file for p in result.partial] == ["t.c"]
    line = text.splitlines().index("\t\treturn -EINVAL;") + 1
    assert result.sites == [stand_in_site("t.c", line, "m_ioctl", "unlocked_ioctl")]


def test_parse_stderr_counts_words_outside_defines_only():
    err = ("HANDLING: a.c\n"
           "parse error \n = File \"a.c\", line 3, column 1, charpos = 9\n"
           "badcount: 4\nbad: };\nbad: #define OP(ioctl, fn) \\\n"
           "BAD:!!!!! \t[_IOC_NR(ioctl)] = { .cmd = ioctl }, \\\nbad: \t.x = -EINVAL\n"
           "parse error \n = File \"a.c\", line 20, column 1, charpos = 99\n"
           "badcount: 2\nBAD:!!!!! #define NOP(c) .compat_ioctl = (c)\n"
           "bad: static long f_ioctl(void) { return -EINVAL; }\n")
    outcomes, order = scan.parse_stderr(err, ["ioctl", "EINVAL"])
    assert order == ["a.c"]
    assert outcomes["a.c"].bad_lines == 6
    assert outcomes["a.c"].bad_tokens == {"ioctl", "EINVAL"}
    only_define = err.split("parse error \n = File \"a.c\", line 20")[0]
    outcomes, _ = scan.parse_stderr(only_define, ["ioctl", "EINVAL"])
    assert outcomes["a.c"].bad_lines == 4 and outcomes["a.c"].bad_tokens == set()
    # The #define line itself not among the unparsed lines (kfd_chardev.c):
    # spatch says it recovered at the end of a #define, and the line ends
    # in a backslash.
    body_only = ("HANDLING: k.c\nERROR-RECOV: found sync end of #define, line 3149\n"
                 "parse error \n = File \"k.c\", line 3148, column 1, charpos = 9\n"
                 "badcount: 2\nBAD:!!!!! \t[_IOC_NR(ioctl)] = {.cmd = ioctl, \\\n"
                 "bad: \t\t.name = #ioctl}\n")
    outcomes, _ = scan.parse_stderr(body_only, ["ioctl"])
    assert outcomes["k.c"].bad_lines == 2 and outcomes["k.c"].bad_tokens == set()
    outcomes, _ = scan.parse_stderr(body_only.replace("end of #define", "'}'"), ["ioctl"])
    assert outcomes["k.c"].bad_tokens == {"ioctl"}
    # The next region repeats the last line of that #define as context.
    repeated = body_only + ("ERROR-RECOV: found sync end of #define, line 3153\n"
                            "parse error \n = File \"k.c\", line 3152, column 1, charpos = 99\n"
                            "badcount: 2\nbad: \t\t.name = #ioctl}\n"
                            "BAD:!!!!! #define V(ioctl) [_IOC_NR(ioctl)] = {}\n")
    outcomes, _ = scan.parse_stderr(repeated, ["ioctl"])
    assert outcomes["k.c"].bad_lines == 4 and outcomes["k.c"].bad_tokens == set()


def test_parse_stderr_counts_words_in_code_not_comments_or_literals():
    """drivers/scsi/pmcraid.c left a region unparsed whose only ioctl was
    in a comment: no site can hide there.  A word in code, also after a
    comment closes, still counts."""
    def region(*lines: str) -> str:
        return ("HANDLING: p.c\nparse error \n = File \"p.c\", line 10, column 0, charpos = 9\n"
                f"badcount: {len(lines)}\n" + "".join(f"bad: {line}\n" for line in lines))

    tokens = ["ioctl", "EINVAL"]
    quiet = region("\t/* Populate adapter instance * pointer for use by ioctl */",
                   "\tpinstance->host = host; // ioctl",
                   "\t/*", "\t * -EINVAL from the ioctl", "\t */",
                   '\tdev_err(dev, "ioctl %d: -EINVAL\\n", cmd);',
                   "\tc = '\"'; x = 1; /* ioctl */")
    outcomes, _ = scan.parse_stderr(quiet, tokens)
    assert outcomes["p.c"].bad_lines == 7 and outcomes["p.c"].bad_tokens == set()
    loud = region("\t/* unknown", "\t * command */ return -EINVAL;",
                  '\tpr_info("a /* b"); f_ioctl(x); // c')
    outcomes, _ = scan.parse_stderr(loud, tokens)
    assert outcomes["p.c"].bad_tokens == {"ioctl", "EINVAL"}
    # A comment left open by one report does not hide the next report's code.
    two = region("\t/* open") + ("parse error \n = File \"p.c\", line 30, column 0, charpos = 99\n"
                                 "badcount: 1\nbad: \treturn -EINVAL;\n")
    outcomes, _ = scan.parse_stderr(two, tokens)
    assert outcomes["p.c"].bad_tokens == {"EINVAL"}


# ---------------------------------------------------------------- phase-1 facts

FACTS_HANDLER = """// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

long foo_dispatch(struct foo *foo, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case FOO_RESET:
		return foo_reset(foo);
	default:
		return -EINVAL;
	}
}
"""


@needs_spatch
def test_facts_make_targets_of_functions_the_file_does_not_bind(tmp_path):
    """Phase-1 rows (file, function, interface, cmd_arg) reach the rules as
    -D enotty_facts=FILE: a handler whose ops table is in another file, in
    a file that does not even say "ioctl", is scanned and converted.  A
    file's rows are part of its cache key: changed rows rescan that file
    only."""
    from . import rules
    root = tmp_path / "tree"
    write(root / "drivers/foo/core.c", FACTS_HANDLER)
    write(root / "drivers/foo/other.c", "long other_ioctl(void) { return -EINVAL; }\n")
    smpl = rules.rule_file().read_text()
    kw: dict[str, Any] = dict(smpl=scan.Rules(smpl, "real"), caches=tmp_path / "cache", jobs=1)
    rows = {"drivers/foo/core.c": "drivers/foo/core.c\tfoo_dispatch\tfile_operations.unlocked_ioctl\t1\n"}

    without = scan_folder(root, **kw)
    assert without.sites == [] and without.candidates == 0   # other.c binds nothing

    with_facts = scan_folder(root, facts=rows, **kw)
    assert with_facts.candidates == 1
    assert [(s.file, s.line, s.function, s.interface, s.to, s.rule) for s in with_facts.sites] == [
        ("drivers/foo/core.c", 10, "foo_dispatch", "file_operations.unlocked_ioctl", "ENOTTY",
         "ioctl_default_return")]
    assert "+\t\treturn -ENOTTY;" in with_facts.diffs["drivers/foo/core.c"]

    again = scan_folder(root, facts=rows, **kw)
    assert (again.spatch_runs, again.sites) == (0, with_facts.sites)
    wrong_index = {"drivers/foo/core.c": rows["drivers/foo/core.c"].replace("\t1\n", "\t0\n")}
    changed = scan_folder(root, facts=wrong_index, **kw)
    assert changed.spatch_runs == 1 and changed.sites == []


ACROSS_FILES = Path(__file__).resolve().parents[1] / "testdata" / "across_files"


def site_rows(result: scan.ScanResult) -> list[tuple[str, str, int]]:
    return [(s.file, s.function, s.line) for s in result.sites]


@needs_spatch
def test_across_files_converts_cross_file_helpers_only(tmp_path):
    """Phase 1 then the rules (across_files=True), on testdata/across_files:
    a helper in another file than its handler converts; a core (a function
    of the dispatch column, one that hands the command to an ops member), a
    helper reached only under a case label and a helper whose value the
    caller compares with -EINVAL stay.  Each of those four has the shape
    that converts once it is a target: only phase 1 keeps it out."""
    root = tmp_path / "tree"
    shutil.copytree(ACROSS_FILES, root)
    kw: dict[str, Any] = dict(jobs=1, caches=tmp_path)
    result = scan_folder(root, across_files=True, **kw)
    assert site_rows(result) == [("drivers/foo/common.c", "foo_common_ioctl", 12)]
    assert result.diffs["drivers/foo/common.c"].count("+\t\treturn -ENOTTY;") == 1
    assert result.facts == {"drivers/foo/common.c": "drivers/foo/common.c\tfoo_common_ioctl"
                                                    "\tfile_operations.unlocked_ioctl\t1\n"}
    assert result.facts_seconds > 0
    # Without phase 1 the rules see no handler in common.c.
    assert scan_folder(root, **kw).sites == []

    kept = {"lib/democore.c": ("demo_core_ioctl", 17), "block/ioctl.c": ("blkdev_ioctl", 11),
            "drivers/foo/common.c#reset": ("foo_reset_cmd", 23),
            "drivers/foo/common.c#probe": ("foo_probe_cmd", 34)}
    for key, (function, line) in kept.items():
        rel = key.split("#")[0]
        rows = {rel: f"{rel}\t{function}\tfile_operations.unlocked_ioctl\t1\n"}
        assert site_rows(scan_folder(root, facts=rows, **kw)) == [(rel, function, line)], key


@needs_spatch
def test_across_files_an_edit_rescans_the_files_whose_facts_changed(tmp_path):
    """A file's cache key is its content and its phase-1 rows: an edit
    rescans that file, and the files whose rows it changed, nothing else."""
    root = tmp_path / "tree"
    shutil.copytree(ACROSS_FILES, root)
    kw: dict[str, Any] = dict(jobs=1, caches=tmp_path, across_files=True)
    first = scan_folder(root, **kw)
    # The cores (block/ioctl.c, lib/democore.c) bind no ioctl member and
    # have no rows; bar.c binds only theirs, and its -EINVAL is bar_open's:
    # the prefilter leaves all three out.
    assert first.scanned == ["drivers/foo/common.c", "drivers/foo/fops.c"]
    assert (first.candidates, first.unreached) == (2, 1)
    assert scan_folder(root, **kw).scanned == []
    # bar.c binds only cores: its edit changes no file's rows.
    bar = root / "drivers/bar/bar.c"
    bar.write_text(bar.read_text().replace("\t.compat_ioctl\t= blkdev_ioctl,\n", ""))
    assert scan_folder(root, **kw).scanned == []
    # Its own handler that answers -EINVAL makes it a candidate.
    bar.write_text(bar.read_text().replace("= demo_core_ioctl,", "= bar_open,"))
    assert scan_folder(root, **kw).scanned == ["drivers/bar/bar.c"]
    # fops.c hands foo_common_ioctl only FOO_STATUS now: common.c loses its
    # row, binds nothing itself and leaves the candidates; its site goes.
    fops = root / "drivers/foo/fops.c"
    fops.write_text(fops.read_text().replace(
        "\t\treturn foo_common_ioctl(f, cmd, arg);\n",
        "\t\tif (cmd == FOO_STATUS)\n\t\t\treturn foo_common_ioctl(f, cmd, arg);\n\t\treturn -ENOTTY;\n"))
    again = scan_folder(root, **kw)
    assert again.scanned == ["drivers/foo/fops.c"]
    assert again.sites == [] and again.facts == {}


@needs_spatch
def test_rescan_scans_files_laid_out_as_in_the_tree(tmp_path, monkeypatch):
    """The fixpoint's rescan: the project's rules over a few files given
    by content, at their paths in the tree; the patched file has nothing
    left to change."""
    monkeypatch.setenv("ENOTTY_CACHE", str(tmp_path / "cache"))
    text = (FIXTURE / "drivers/foo/foo.c").read_bytes()
    sites, failed = scan.rescan({"drivers/foo/foo.c": text}, {}, jobs=1, timeout=60)
    assert [(s.file, s.line, s.function) for s in sites] == [("drivers/foo/foo.c", 12, "foo_ioctl")]
    assert failed == []
    fixed = text.replace(b"return -EINVAL;", b"return -ENOTTY;")
    assert scan.rescan({"drivers/foo/foo.c": fixed}, {}, jobs=1, timeout=60) == ([], [])


def test_the_prefilter_forks_only_from_the_main_thread(tmp_path, monkeypatch):
    """The handler test runs in processes for many files, but not from a
    worker thread (the fixpoint's rescan beside the builds): a fork there
    copies locks other threads hold.  Its answers are kept by content."""
    forked = []

    class Pool:
        def __init__(self, max_workers: int) -> None:
            forked.append(max_workers)

        def __enter__(self) -> "Pool":
            return self

        def __exit__(self, *exc: object) -> None:
            pass

        def map(self, fn, jobs, chunksize=1):
            return map(fn, jobs)

    monkeypatch.setattr(scan.concurrent.futures, "ProcessPoolExecutor", Pool)
    handler = b"static long h%d(struct file *f, unsigned int cmd, unsigned long a)\n{\n\treturn -EINVAL;\n}\n" \
              b"static const struct file_operations o%d = { .unlocked_ioctl = h%d };\n"
    files = [(scan.Candidate(f"f{i}.c", 0, f"{i:064x}"), handler % (i, i, i)) for i in range(40)]
    binds = scan.binding_pattern(scan.ioctl_tokens())
    answers: list[list[bool]] = []
    worker = threading.Thread(target=lambda: answers.append(
        scan._Reach(binds, scan.ERRNO_TOKENS, tmp_path / "a").answer(files, 2)))
    worker.start()
    worker.join()
    assert answers == [[True] * 40] and forked == []
    assert scan._Reach(binds, scan.ERRNO_TOKENS, tmp_path / "b").answer(files, 2) == [True] * 40
    assert forked == [2]
    # kept: a second run computes nothing
    assert scan._Reach(binds, scan.ERRNO_TOKENS, tmp_path / "b").answer(files, 2) == [True] * 40
    assert forked == [2]


def header_helper_tree(root: Path, header: str, users: dict[str, str]) -> None:
    """facts_test's helper in a header and handlers that include it."""
    from .facts_test import HANDLER_USING, HEADER_HELPER
    write(root / header, HEADER_HELPER)
    for rel, spelled in users.items():
        write(root / rel, HANDLER_USING.format(header=spelled, name=Path(rel).stem))


@needs_spatch
def test_a_header_helper_of_two_handlers_converts_once_in_the_header(tmp_path):
    """tun.c and tap.c hand unknown commands to a static inline helper of
    vnet.h (7.2's tun_vnet_ioctl()): phase 1 finds it through their
    #include, the header is scanned like a .c file, and its default
    changes once, in the header."""
    root = tmp_path / "tree"
    header_helper_tree(root, "drivers/demo/vnet.h", {"drivers/demo/tun.c": '"vnet.h"',
                                                     "drivers/demo/tap.c": '"vnet.h"'})
    result = scan_folder(root, tmp_path, across_files=True, jobs=1)
    assert site_rows(result) == [("drivers/demo/vnet.h", "demo_vnet_ioctl", 7)]
    assert list(result.diffs) == ["drivers/demo/vnet.h"]
    assert result.diffs["drivers/demo/vnet.h"].count("+\t\treturn -ENOTTY;") == 1
    assert "drivers/demo/vnet.h" in result.scanned


def header_rows(header: str) -> dict[str, str]:
    return {header: f"{header}\tdemo_vnet_ioctl\tfile_operations.unlocked_ioctl\t1\n"}


def test_a_header_with_rows_is_a_candidate_when_the_scope_calls_its_helper(tmp_path):
    """A header outside the scope takes part when a .c file of the scope
    names its helper (M=drivers/demo, the helper in include/), not
    otherwise (M=drivers/other); one under the scope always does."""
    root = tmp_path / "tree"
    header = "include/linux/demo_vnet.h"
    header_helper_tree(root, header, {"drivers/demo/tun.c": "<linux/demo_vnet.h>"})
    write(root / "drivers/other/x.c", "static int x;\n")
    rows = header_rows(header)
    rels = {scope: [c.rel for c in scan.prefilter(root, root / scope, facts=rows).candidates]
            for scope in ("drivers/demo", "drivers/other", "include")}
    # tun.c names no errno: no candidate itself
    assert rels == {"drivers/demo": [header], "drivers/other": [], "include": [header]}
    # A row for a header this tree does not hold (the fixpoint's rescan): no candidate, no error.
    found = scan.prefilter(root, root / "drivers/other", facts=header_rows("drivers/gone.h"))
    assert (found.candidates, found.unreadable) == ([], [])


def test_the_prefilter_memo_is_keyed_by_tree_scope_and_phase1_rows(tmp_path: Path) -> None:
    def path(tree_key: str, scope: str, rows: dict[str, str]) -> Path:
        return scan._prefilter_memo(tmp_path, tree_key, tmp_path / scope, (b"ioctl",), rows).path

    base = path("t\x007.2.13", "drivers", {})
    assert base == path("t\x007.2.13", "drivers", {})
    assert len({base, path("t\x006.12.118", "drivers", {}), path("t\x007.2.13", "fs", {}),
                path("t\x007.2.13", "drivers", {"drivers/a.c": "drivers/a.c\tf\tfops\tcmd\n"})}) == 4
