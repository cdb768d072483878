"""coccicheck: the command, the readers of each mode's output (make
coccicheck's output on security/loadpin, its echoed spatch command
shortened), the comparison, real runs."""
from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from . import coccicheck
from ..find import scan
from ..kernel import tree
from ..errors import UsageError
from ..requests import CoccicheckRequest

DEFAULT = tree.cache_dir() / "src" / tree.PINNED_PACKAGE

CHATTER = """
Please check for false positives in the output before submitting a patch.
When using "patch" mode, carefully review the patch before submitting it.

/usr/bin/spatch -D {mode} --very-quiet --cocci-file ioctl_enotty.cocci --no-includes --dir security/loadpin
"""

PATCH = CHATTER.format(mode="patch") + """\
diff -u -p a/security/loadpin/loadpin.c b/security/loadpin/loadpin.c
--- a/security/loadpin/loadpin.c
+++ b/security/loadpin/loadpin.c
@@ -399,7 +399,7 @@ static long dm_verity_ioctl(struct file
 		return read_trusted_verity_root_digests(fd);
 
 	default:
-		return -EINVAL;
+		return -ENOTTY;
 	}
 }
 
"""

CONTEXT = CHATTER.format(mode="context") + """\
diff -u -p security/loadpin/loadpin.c /tmp/nothing/security/loadpin/loadpin.c
--- security/loadpin/loadpin.c
+++ /tmp/nothing/security/loadpin/loadpin.c
@@ -399,7 +399,6 @@ static long dm_verity_ioctl(struct file
 		return read_trusted_verity_root_digests(fd);
 
 	default:
-		return -EINVAL;
 	}
 }
 
"""

REPORT = CHATTER.format(mode="report") + (
    "security/loadpin/loadpin.c:402:10-16: WARNING: dm_verity_ioctl: unknown ioctl command"
    " answered with -EINVAL; file_operations.unlocked_ioctl handlers answer -ENOTTY\n")

ORG = CHATTER.format(mode="org") + (
    "* TODO [[view:security/loadpin/loadpin.c::face=ovl-face1::linb=402::colb=10::cole=16]"
    "[dm_verity_ioctl: unknown ioctl command answered with -EINVAL; file_operations.unlocked_ioctl"
    " handlers answer -ENOTTY]]\n")

LOADPIN = {("security/loadpin/loadpin.c", 402)}


def test_command(tmp_path: Path) -> None:
    cmd = coccicheck.command(tmp_path / "tree", tmp_path / "r.cocci", "drivers/watchdog", 3,
                             ["-D", "tsv", "--timeout", "120"])
    assert cmd == ["make", "-C", str(tmp_path / "tree"), "coccicheck", "MODE=patch", "J=3",
                   f"COCCI={tmp_path / 'r.cocci'}", "SPFLAGS=-D tsv --timeout 120", "M=drivers/watchdog"]
    assert coccicheck.m_option(tmp_path, tmp_path / "drivers" / "watchdog") == "drivers/watchdog"
    assert coccicheck.m_option(tmp_path, tmp_path) is None
    alone = coccicheck.command(tmp_path, tmp_path / "r.cocci", None, 1, mode="org")
    assert "MODE=org" in alone and not [w for w in alone if w.startswith(("M=", "SPFLAGS="))]


@pytest.mark.parametrize("mode,text", [("patch", PATCH), ("context", CONTEXT),
                                       ("report", REPORT), ("org", ORG)])
def test_each_mode_gives_the_site_line(mode: str, text: str) -> None:
    assert coccicheck.READERS[mode](text) == LOADPIN


def test_diff_positions_count_the_hunk_lines() -> None:
    # Two hunks in one file, a second file with an absolute path under the
    # copy, a removed and an added line that together look like a file
    # header, and a form feed (kernel sources have them) in a context line.
    text = """\
--- a/x.c
+++ b/x.c
@@ -10,4 +10,4 @@ f
 a
-	return -EINVAL;
+	return -ENOTTY;
 b
 c
@@ -40,3 +40,3 @@ g
--- x
+++ y
 a form\ffeed
 z
--- /copy/dir/y.c
+++ /tmp/nothing/copy/dir/y.c
@@ -5 +4,0 @@
-	return -ENOSYS;
-this line is after the hunk: not a site
"""
    assert coccicheck.diff_positions(text, Path("/copy")) == {("x.c", 11), ("x.c", 40), ("dir/y.c", 5)}
    # CRLF output reads the same
    assert coccicheck.diff_positions(text.replace("\n", "\r\n"), Path("/copy")) == \
        {("x.c", 11), ("x.c", 40), ("dir/y.c", 5)}


def test_report_and_org_ignore_other_lines() -> None:
    assert coccicheck.report_positions("Processing x.cocci\nfoo: bar\n./a/b.c:7:1-2: WARNING: m\n") == {("a/b.c", 7)}
    assert coccicheck.org_positions("* TODO [[view:/c/d.c::face=f::linb=9::colb=1::cole=2][m]]\n",
                                    Path("/c")) == {("d.c", 9)}


def test_facts_file_and_tsv_lines(tmp_path: Path) -> None:
    facts = {"b/y.c": "b/y.c\tg\tfile_operations.unlocked_ioctl\t1\n",
             "a/x.c": "a/x.c\tf\tfile_operations.unlocked_ioctl\t1\n"}
    assert scan.facts_tsv(facts).splitlines()[0].startswith("a/x.c\tf\t")
    out = ("Processing ioctl_enotty.cocci\n"
           "ENOTTY-SITE\t./a/x.c\t12\tf\tfile_operations.unlocked_ioctl\tEINVAL\tENOTTY\tr\n"
           f"ENOTTY-SITE\t{tmp_path}/b/y.c\t3\tg\tfile_operations.unlocked_ioctl\tEINVAL\tENOTTY\tr\n"
           "ENOTTY-SITE\tc/z.c\t4\tcut short\n")
    assert coccicheck.tsv_positions(out, tmp_path) == {("a/x.c", 12), ("b/y.c", 3)}


def test_compare_and_table() -> None:
    same = coccicheck.compare("report", 1.0, 0, LOADPIN, LOADPIN)
    assert same.same and not same.missing and not same.extra
    short = coccicheck.compare("org", 2.0, 0, set(), LOADPIN | {("b.c", 1)})
    assert not short.same and short.missing == LOADPIN | {("b.c", 1)}
    failed = coccicheck.compare("patch", 3.0, 2, LOADPIN, LOADPIN)
    stopped = coccicheck.compare("context", 4.0, None, set(), LOADPIN)
    assert not failed.same and not stopped.same
    lines = coccicheck.table([same, short, failed, stopped], 1, "X").splitlines()
    assert lines[0].endswith("same as X (1 sites)")
    assert lines[1].split()[-1] == "yes"
    assert "missing b.c:1, security/loadpin/loadpin.c:402" in lines[2]
    assert lines[3].endswith("no: make coccicheck exited 2") and lines[4].endswith("timeout")


def test_a_folder_without_coccicheck_is_refused(tmp_path: Path) -> None:
    kernel = Path(__file__).parents[1] / "testdata" / "series" / "kernel"
    with pytest.raises(UsageError, match="no scripts/coccicheck"):
        coccicheck.run(CoccicheckRequest(tree=tree.load(str(kernel)), jobs=1))


def test_run_limited_kills_the_whole_group_on_timeout(tmp_path: Path) -> None:
    marker = tmp_path / "child-still-ran"
    # A parent that starts a child and waits, like make and its spatch workers.
    cmd = ["sh", "-c", f"(sleep 2; touch {marker}) & wait"]
    code, _ = coccicheck.run_limited(cmd, 0.5)
    assert code is None
    time.sleep(2.5)
    assert not marker.exists(), "the child outlived the timeout"
    code, out = coccicheck.run_limited(["sh", "-c", "echo '+++ b/x.c'; printf '\\351\\n'; exit 3"], 10)
    assert code == 3 and "+++ b/x.c" in out     # a Latin-1 byte does not stop the run


@pytest.mark.skipif(shutil.which("spatch") is None or not (DEFAULT / "scripts" / "coccicheck").is_file(),
                    reason="needs spatch and the default tree (make check unpacks it)")
def test_REAL_COCCICHECK_all_four_modes_find_the_scans_site() -> None:
    before = (DEFAULT / "security" / "loadpin" / "loadpin.c").stat()
    results, alone, added = coccicheck.run(CoccicheckRequest(tree=tree.load(None, "security/loadpin", kver="6.12"),
                                                             subdir="security/loadpin", jobs=1))
    assert alone == LOADPIN and not added
    assert [(r.mode, r.exit, set(r.found)) for r in results] == \
        [(m, 0, LOADPIN) for m in coccicheck.MODES]
    after = (DEFAULT / "security" / "loadpin" / "loadpin.c").stat()
    assert (after.st_mtime_ns, after.st_ino) == (before.st_mtime_ns, before.st_ino)


@pytest.mark.skipif(shutil.which("spatch") is None or not (DEFAULT / "scripts" / "coccicheck").is_file(),
                    reason="needs spatch and the default tree (make check unpacks it)")
def test_REAL_COCCICHECK_with_facts_finds_the_site_only_phase_1_sees() -> None:
    # dvb_ca_en50221_io_do_ioctl() is bound in another file: alone, the rule
    # file cannot know it is a handler; with phase 1's rows in SPFLAGS it can.
    folder = "drivers/media/dvb-core"
    site = ("drivers/media/dvb-core/dvb_ca_en50221.c", 1412)
    kernel = tree.load(None, folder, kver="6.12")
    _, expected, added = coccicheck.run(CoccicheckRequest(tree=kernel, subdir=folder, jobs=2,
                                                          modes=("report",)))
    assert site in added and site not in expected
    results, expected, added = coccicheck.run(CoccicheckRequest(tree=kernel, subdir=folder, jobs=2,
                                                                modes=("report",), facts=True))
    assert site in expected and not added
    assert results[0].same and site in results[0].found
