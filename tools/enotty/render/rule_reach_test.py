"""rule_reach: the upstream rule's count of a series' sites, run with spatch
on small files, and kept by content."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from . import rule_reach
from ..find.sites import Site

needs_spatch = pytest.mark.skipif(shutil.which("spatch") is None, reason="coccinelle not installed")

FOPS = "file_operations.unlocked_ioctl"

# a switch default the upstream rule reports, and a final return it does
# not: b_ioctl() answers -EINVAL before it looks at the command, so the
# rule, which converts whole handlers or none, leaves it alone
SOURCE = """\
#include <linux/fs.h>

static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case 1:
		return 0;
	default:
		return -EINVAL;
	}
}

static long b_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	int v;

	if (copy_from_user(&v, (void __user *)arg, sizeof(v)))
		return -EFAULT;
	if (v > 3)
		return -EINVAL;
	if (cmd == 1)
		return 0;
	return -EINVAL;
}

static const struct file_operations a_fops = {
	.unlocked_ioctl = a_ioctl,
};

static const struct file_operations b_fops = {
	.unlocked_ioctl = b_ioctl,
};
"""


def site(line: int, fn: str) -> Site:
    return Site("drivers/x/x.c", line, fn, FOPS, "EINVAL", "ENOTTY", "ioctl_default_return")


def line_of(text: str, needle: str, nth: int = 1) -> int:
    return [i + 1 for i, l in enumerate(text.splitlines()) if needle in l][nth - 1]


def test_parse_report_reads_file_and_line_relative_to_the_tree(tmp_path: Path) -> None:
    out = (f"{tmp_path}/drivers/x/x.c:9:9-15: WARNING: a_ioctl() answers ...\n"
           f"{tmp_path}/drivers/x/x.c:30:2-8: WARNING: b\n"
           "spatch noise without a position\n")
    assert rule_reach.parse_report(out, tmp_path) == {"drivers/x/x.c": {9, 30}}


def test_options_are_the_rules_options_line() -> None:
    assert rule_reach.options("// Comments: x\n// Options: --no-includes --include-headers\n") == [
        "--no-includes", "--include-headers"]
    assert rule_reach.options("virtual report\n") == []


@needs_spatch
def test_counts_the_sites_the_rule_reports_and_keeps_each_files_lines(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("ENOTTY_CACHE", str(tmp_path / "cache"))
    root = tmp_path / "linux"
    (root / "drivers" / "x").mkdir(parents=True)
    (root / "drivers" / "x" / "x.c").write_text(SOURCE)
    default, final = line_of(SOURCE, "return -EINVAL"), line_of(SOURCE, "return -EINVAL", 3)
    sites = [site(default, "a_ioctl"), site(final, "b_ioctl")]
    assert rule_reach.reported(root, sites) == 1
    assert rule_reach.report_lines(root, ["drivers/x/x.c"], rule_reach.companions.UPSTREAM_RULE) == {
        "drivers/x/x.c": {default}}

    # the second count reads the kept lines: spatch is not run again
    def no_spatch(*_args, **_kwargs):
        raise AssertionError("spatch ran for an unchanged file")
    monkeypatch.setattr(rule_reach, "_run", no_spatch)
    assert rule_reach.reported(root, sites) == 1
    # a changed file is a new key: run again
    (root / "drivers" / "x" / "x.c").write_text(SOURCE.replace("case 1:", "case 2:"))
    with pytest.raises(AssertionError, match="spatch ran"):
        rule_reach.reported(root, sites)


def test_a_failed_run_is_not_kept(tmp_path: Path, monkeypatch) -> None:
    """spatch's --timeout ends a run with no report: that file is counted
    as not reported this time, and run again next time."""
    monkeypatch.setenv("ENOTTY_CACHE", str(tmp_path / "cache"))
    root = tmp_path / "linux"
    (root / "drivers" / "x").mkdir(parents=True)
    (root / "drivers" / "x" / "x.c").write_text(SOURCE)
    calls = []
    monkeypatch.setattr(rule_reach.scan, "spatch_version", lambda _binary: "1.1.1")
    monkeypatch.setattr(rule_reach, "_run", lambda *args: calls.append(args))
    sites = [site(line_of(SOURCE, "return -EINVAL"), "a_ioctl")]
    assert rule_reach.reported(root, sites) == 0
    assert rule_reach.reported(root, sites) == 0
    assert len(calls) == 2
