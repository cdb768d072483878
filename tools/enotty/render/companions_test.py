"""The companion patches: the upstream rule against the scan's rule on its
fixtures, the rule's mail, the media kselftest.  The rule's own tests
(size, fixtures, reach on the pinned tree, make coccicheck in all four
modes) are in measure/upstream_rule_test.py."""
from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import pytest

from ..measure import coccicheck
from . import companions, recipients, series
from ..find import rules, scan
from ..partition import split
from ..kernel import tree
from ..verify import verify
from ..requests import Identity
from ..kernel.worktree import WorkTree

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "cocci" / "tests"
OUTPUT = REPO / "generated-patches" / "linux-6.12.118"
PER_FILE = ("ioctl_default_return", "ioctl_default_assign")


def _report_lines(cocci: Path, c_file: Path, options: list[str], mode: str) -> set[int]:
    res = subprocess.run(["spatch", "--very-quiet", *options, "-D", mode, "--cocci-file",
                          str(cocci), str(c_file)], capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stderr
    if mode == "tsv":
        return {int(line.split("\t")[2]) for line in res.stdout.splitlines()
                if line.startswith(rules.SITE_MARKER) and line.split("\t")[7] in PER_FILE}
    return {n for _, n in coccicheck.report_positions(res.stdout)}


@pytest.mark.parametrize("name, lines", [
    ("default_return_fops", {20}), ("default_assign_fops", {20}),
    ("default_return_enosys", {16}), ("default_after_leaving_case", {20, 43}),
    ("trap_default_fallthrough_ifdef", set()), ("trap_case_before_default", set()),
])
def test_finds_a_subset_of_the_scan_rule(name, lines):
    """Never a site the scan's rule leaves; the per-file defaults it names."""
    c_file = FIXTURES / f"{name}.c"
    up = _report_lines(companions.UPSTREAM_RULE, c_file, ["--no-includes", "--include-headers"],
                       "report")
    full = _report_lines(rules.rule_file(), c_file, rules.spatch_options(), "tsv")
    assert up == lines
    assert up <= full


def test_rule_mail_passes_checkpatch():
    root = tree.at(tree.resolve(None, need_kernel=True, kver="6.12"), use_cache=False)
    with tempfile.TemporaryDirectory() as tmp:
        composed = companions.compose(root.root, Identity("A U Thor", "author@example.org"), media=False)
        assert composed.selftest is None
        rule = recipients.address(root, [], composed)[1].rule
        assert rule is not None
        text = rule.text
        assert rule.name == "0001-coccinelle-api-add-ioctl_enotty-script.patch"
        assert "Subject: [PATCH] coccinelle: api: add ioctl_enotty script" in text
        assert f"+++ b/{companions.RULE_PATH}" in text
        assert "Julia.Lawall@inria.fr" in text and "cocci@inria.fr" in text
        mail = Path(tmp) / rule.name
        mail.write_text(text)
        assert verify.checkpatch(root, mail).status == verify.OK


def test_selftest_patch_goes_last_in_a_series_and_passes_checkpatch():
    root = tree.at(tree.resolve(None, need_kernel=True, kver="6.12"), use_cache=False)
    author = Identity("A U Thor", "author@example.org")
    alone = companions.Companions(selftest=companions.selftest_patch(root.root, author))
    patch = recipients.address(root, [], alone)[1].selftest
    assert patch is not None
    plan = split.SeriesPlan("media", "MEDIA INPUT INFRASTRUCTURE (V4L/DVB)", [patch.plan])
    with tempfile.TemporaryDirectory() as tmp:
        written = series.format_mails(root, plan, [patch], author)
        assert [m.name for m in written.written] == [series.mail_name(1, companions.SELFTEST_SUBJECT)]
        (Path(tmp) / "media").mkdir()
        for m in written.written:
            (Path(tmp) / "media" / m.name).write_text(m.text)
        mail = Path(tmp) / "media" / written.written[0].name
        text = mail.read_text()
        for name in (".gitignore", "Makefile", "config", "ioctl_errno.c", "ioctl_errno.sh"):
            assert f"+++ b/{companions.SELFTEST_DIR}/{name}\n" in text
        wrapper = text.split(f"diff --git a/{companions.SELFTEST_DIR}/ioctl_errno.sh", 1)[1]
        assert wrapper.split("\n")[1] == "new file mode 100755"
        assert "+TARGETS += drivers/media\n" in text
        assert f"+F:\t{companions.SELFTEST_DIR}/\n" in text and "+++ b/MAINTAINERS\n" in text
        assert "TEST_F(node, unknown_own_range)" in text and "FIXTURE_SETUP(node)" in text
        # no harness internals, no x86-only option, no claim about isatty()
        for absent in ("__test_metadata", "_test_data_", "IA32_EMULATION", "isatty"):
            assert absent not in text, absent
        assert "+TEST_PROGS := ioctl_errno.sh\n" in text and "+\tmodprobe -q -r" in text
        # the kselftest maintainers, and the media ones whose section gains the folder
        head = text.split("\n\n", 1)[0].lower()
        # and vivid's and vimc's, whose nodes it asks
        for who in ("shuah@kernel.org", "linux-kselftest@vger.kernel.org", "mchehab@kernel.org",
                    "linux-media@vger.kernel.org", "hverkuil@", "kieran.bingham@"):
            assert who in head, who
        assert "skhan@linuxfoundation.org" not in head    # Shuah Khan is in To once
        assert "linux-staging" not in head
        assert verify.checkpatch(root, mail).status == verify.OK


def test_maintainers_diff_puts_the_folder_among_the_media_section_files(tmp_path: Path):
    (tmp_path / "MAINTAINERS").write_text(
        "MEDIA DRIVERS FOR X\nM:\tA <a@b>\nF:\tdrivers/media/x/\n\n"
        f"{companions.MEDIA_SECTION}\nM:\tM <m@k>\nL:\tlinux-media@vger.kernel.org\n"
        "F:\tdrivers/media/\nF:\tinclude/uapi/linux/videodev2.h\n\nNEXT\nF:\tzzz/\n")
    diff = companions.maintainers_diff(tmp_path)
    assert "@@ -7,6 +7,7 @@" in diff
    assert " F:\tinclude/uapi/linux/videodev2.h\n+F:\ttools/testing/selftests/drivers/media/\n \n NEXT" in diff
    assert recipients.extended_section(diff) == companions.MEDIA_SECTION
    people = recipients.with_section((("S <s@k>",), ("l@k",)), tmp_path / "MAINTAINERS",
                                     companions.MEDIA_SECTION)
    assert people == (("S <s@k>", "M <m@k>"), ("l@k", "linux-media@vger.kernel.org"))
    # no such section: no hunk
    (tmp_path / "MAINTAINERS").write_text("OTHER\nF:\tx/\n")
    assert companions.maintainers_diff(tmp_path) == ""


def _builds_32bit() -> bool:
    """The host compiler links a -m32 program (the Makefile's own test)."""
    return subprocess.run(["gcc", "-m32", "-x", "c", "-o", "/dev/null", "-"], input="int main(void) { return 0; }",
                          text=True, capture_output=True, check=False).returncode == 0


def test_selftest_builds_with_both_kselftest_commands():
    """The patch applied to a copy of the tree, no ARCH anywhere: `make -C
    tools/testing/selftests TARGETS=drivers/media` and the top level's
    `make kselftest-all TARGETS=drivers/media` (`make kselftest` would run
    the test: load vivid into the host) build ioctl_errno, and
    ioctl_errno_32 exactly when the compiler builds -m32 programs."""
    root = tree.resolve(None, need_kernel=True, kver="6.12")
    want = {"ioctl_errno", "ioctl_errno_32"} if _builds_32bit() else {"ioctl_errno"}
    with tempfile.TemporaryDirectory(prefix="enotty-companions-", dir=tree.cache_dir()) as tmp:
        diff = Path(tmp) / "selftest.patch"
        diff.write_text(companions.selftest_diff(root))
        copy = WorkTree(root, Path(tmp) / "tree")
        copy.ensure()
        copy.apply([diff])
        out, obj = Path(tmp) / "out", Path(tmp) / "obj"
        # the top level's kselftest targets need a configured kernel (any)
        subprocess.run(["make", "-s", "-C", str(copy.path), f"O={obj}", "tinyconfig"],
                       capture_output=True, check=True)
        top = subprocess.run(["make", "-s", "-C", str(copy.path), f"O={obj}", "TARGETS=drivers/media",
                              "kselftest-all"], capture_output=True, text=True, check=False)
        assert top.returncode == 0, top.stderr[-2000:]
        res = subprocess.run(["make", "-s", "-C", str(copy.path / "tools/testing/selftests"),
                              "TARGETS=drivers/media", f"O={out}",
                              f"KHDR_INCLUDES=-isystem {obj / 'usr/include'}"],
                             capture_output=True, text=True, check=False)
        assert res.returncode == 0, res.stderr[-2000:]
        for folder in (obj / "kselftest" / "drivers/media", out / "kselftest" / "drivers/media"):
            built = {p.name for p in folder.iterdir() if p.is_file() and not p.suffix}
            assert built == want, (folder, built)


def test_the_rule_patch_is_checked_by_spatch() -> None:
    """SUMMARY.md's build cell of the rule patch: spatch --parse-cocci on
    the text that goes upstream; a rule that does not parse fails."""
    ok = verify.check_rule(companions.upstream_rule_text(), scan.spatch_binary(), use_cache=False)
    assert (ok.status, ok.arch) == (verify.OK, "spatch --parse-cocci")
    bad = verify.check_rule("@r@\nidentifier f;\n@@\n- f(\n", scan.spatch_binary(), use_cache=False)
    assert bad.status == verify.FAILED and bad.detail


def test_companions_only_for_a_tree_that_takes_them(tmp_path: Path) -> None:
    """A folder of C files or a fixture kernel has no scripts/coccinelle/api
    or kselftest build: no companion patch for it; Debian's tree has both."""
    assert not companions.takes_rule(tmp_path) and not companions.takes_selftest(tmp_path)
    root = tree.resolve(None, need_kernel=True, kver="6.12")
    assert companions.takes_rule(root) and companions.takes_selftest(root)


def test_the_config_fragment_names_only_symbols_the_tree_defines(tmp_path: Path) -> None:
    # 7.2 switches vivid's framebuffer node with CONFIG_VIDEO_VIVID_OSD (the
    # fb cases need it); 6.12 has no such symbol and builds the node anyway
    vivid = tmp_path / "drivers/media/test-drivers/vivid"
    vivid.mkdir(parents=True)
    (vivid / "Kconfig").write_text("config VIDEO_VIVID\n\ttristate \"v\"\n\nconfig VIDEO_VIVID_CEC\n\tbool \"c\"\n")
    text = companions.config_fragment(tmp_path)
    assert "CONFIG_VIDEO_VIVID=m\n" in text and "CONFIG_VIDEO_VIVID_CEC=y\n" in text
    assert "VIVID_OSD" not in text and "CONFIG_FB=y" not in text
    (vivid / "Kconfig").write_text((vivid / "Kconfig").read_text() + "\nconfig VIDEO_VIVID_OSD\n\tbool \"o\"\n")
    assert "CONFIG_VIDEO_VIVID_OSD=y\n" in companions.config_fragment(tmp_path)
    assert "CONFIG_VIDEO_VIVID_OSD=y\n" in companions.config_fragment(None)


def test_the_message_says_why_the_test_is_not_in_media_tests(tmp_path: Path) -> None:
    author = Identity("A U Thor", "author@example.org")
    assert "media_tests" not in companions.selftest_message(author, tmp_path)
    (tmp_path / companions.MEDIA_TESTS).mkdir(parents=True)
    (tmp_path / companions.SELFTESTS_MAKEFILE).write_text("TARGETS += drivers/dma-buf\n")
    text = companions.selftest_message(author, tmp_path)
    assert "It lives in drivers/media rather than in media_tests" in text
    flat = " ".join(text.split())
    assert flat.index("media_tests is not in the kselftest TARGETS") < flat.index("The new folder goes")
    assert all(len(line) <= 75 for line in text.splitlines())
    # short like upstream's messages (../shared/checks/message-hygiene: at most 25 body lines)
    assert len(text.split("\n\n", 1)[1].split("\nSigned-off-by:")[0].strip("\n").splitlines()) <= 25
    (tmp_path / companions.SELFTESTS_MAKEFILE).write_text("TARGETS += media_tests\n")
    assert "media_tests" not in companions.selftest_message(author, tmp_path)


def test_the_test_builds_quietly_and_knows_no_harness_internals() -> None:
    files = companions.selftest_files()
    # the fixture's members are passed on, not the harness's struct names
    # (FIXTURE_DATA(node) *self would do, but checkpatch calls every such
    # parameter an ERROR: "need consistent spacing around '*'")
    for absent in ("__test_metadata", "_test_data_", "FIXTURE_DATA("):
        assert absent not in files[f"{companions.SELFTEST_DIR}/ioctl_errno.c"], absent
    # the -m32 rule echoes like lib.mk's own (`  CC  ioctl_errno_32` under V=0)
    makefile = files[f"{companions.SELFTEST_DIR}/Makefile"]
    assert "\t$(call msg,CC,,$@)\n\t$(Q)$(CC) -m32 " in makefile


def test_kselftest_wrapper_skips_without_root(tmp_path: Path) -> None:
    """A reviewer ran it as a user with vivid loaded: it failed instead of
    skipping.  Under an `id` that says uid 1000 it skips (exit 4) before
    it loads anything."""
    fake = tmp_path / "bin"
    fake.mkdir()
    for name, body in (("id", "echo 1000"), ("modprobe", "echo modprobe >> " + str(tmp_path / "ran"))):
        (fake / name).write_text(f"#!/bin/sh\n{body}\n")
        (fake / name).chmod(0o755)
    res = subprocess.run(["sh", str(REPO / "selftests" / "ioctl_errno" / "ioctl_errno.sh")],
                         env={"PATH": f"{fake}:/usr/bin:/bin"}, capture_output=True, text=True, check=False)
    assert res.returncode == 4 and "SKIP: must be run as root" in res.stdout
    assert not (tmp_path / "ran").exists()


def test_the_rule_message_is_as_short_as_a_maintainer_reads() -> None:
    """At most 25 body lines, as ../shared/checks/message-hygiene asks of
    every mail (the rule's grew to 26 when sit's marker was added)."""
    body = companions.RULE_BODY.splitlines()
    while body and not body[-1].strip():
        body.pop()
    assert len(body) <= 25
    assert all(len(line) <= 75 for line in body)
