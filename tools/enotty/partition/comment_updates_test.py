"""comment_updates: the comments that state a converted handler's old
answer change in the same patch; other comments, and code, do not."""
from __future__ import annotations

import dataclasses
import subprocess
from pathlib import Path

from . import comment_updates
from .doc_updates import unified_diff
from .split import FileChange, PatchPlan, SeriesPlan
from ..find.sites import Effects, Site

FOPS = "file_operations.unlocked_ioctl"

# envctrl's shape (drivers/sbus/char/envctrl.c): the doc comment above the
# handler states the old answer; a comment inside it speaks of an argument
ENVCTRL = """\
/* Function Description: Command what to read.  Mapped to user ioctl().
 * Return: Gives 0 for implemented commands, -EINVAL otherwise.
 */
static long
envctrl_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
\t/* -EINVAL when the argument is out of range */
\tif (arg > 4)
\t\treturn -EINVAL;
\tswitch (cmd) {
\tcase ENVCTRL_RD_WARNING_TEMPERATURE:
\t\treturn 0;
\tdefault:
\t\treturn -EINVAL;
\t}
}

/* Unrelated: returns -EINVAL for unknown commands, but not converted. */
static long other_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
\treturn -EINVAL;
}
"""

# i915_perf's shape: the helper and the handler both say it in kernel-doc
I915 = """\
/**
 * perf_ioctl_locked - support ioctl() usage
 * @cmd: the ioctl request
 *
 * Returns: zero on success or a negative error code. Returns -EINVAL for
 * an unknown ioctl request.
 */
static long perf_ioctl_locked(struct stream *stream, unsigned int cmd)
{
\tswitch (cmd) {
\tcase 1:
\t\treturn 0;
\t}

\treturn -EINVAL;
}

/**
 * perf_ioctl - support ioctl() usage
 *
 * Returns: zero on success or a negative error code. Returns -EINVAL for
 * an unknown ioctl request.
 */
static long perf_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
\treturn perf_ioctl_locked(file->private_data, cmd);
}
"""


def line_of(text: str, needle: str, nth: int = 1) -> int:
    return [i + 1 for i, l in enumerate(text.splitlines()) if needle in l][nth - 1]


def converted(tmp_path: Path, rel: str, text: str, sites: list[Site], old: str, new: str) -> FileChange:
    """The rules' change: each site's line has old replaced by new."""
    (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / rel).write_text(text)
    lines = text.splitlines(True)
    for s in sites:
        lines[s.line - 1] = lines[s.line - 1].replace(old, new)
    return FileChange(rel, unified_diff(rel, text, "".join(lines)), tuple(sites))


def site(rel: str, line: int, fn: str, from_: str = "EINVAL", to: str = "ENOTTY", entry: str = "-") -> Site:
    eff = Effects("native", "yes", "-", "all", "-", "-", "-", "yes", entry)
    return Site(rel, line, fn, FOPS, from_, to, "ioctl_default_return", effects=eff)


def applied(tmp_path: Path, change: FileChange) -> str:
    """The file as git apply leaves it after the change."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(["git", "apply", "-"], cwd=tmp_path, input=change.diff, text=True, check=True)
    return (tmp_path / change.path).read_text()


def test_envctrls_doc_comment_changes_with_its_handler(tmp_path: Path) -> None:
    rel = "drivers/sbus/char/envctrl.c"
    s = site(rel, line_of(ENVCTRL, "return -EINVAL;", 2), "envctrl_ioctl")
    change = comment_updates.revised(tmp_path, converted(tmp_path, rel, ENVCTRL, [s], "-EINVAL", "-ENOTTY"))
    after = applied(tmp_path, change)
    assert " * Return: Gives 0 for implemented commands, -ENOTTY otherwise.\n" in after
    # the argument check keeps its answer and its comment
    assert "\t/* -EINVAL when the argument is out of range */\n\tif (arg > 4)\n\t\treturn -EINVAL;" in after
    # a handler the patch does not convert keeps its comment
    assert "Unrelated: returns -EINVAL for unknown commands" in after
    assert after.count("\n") == ENVCTRL.count("\n")
    assert change.notes == ("The comment of envctrl_ioctl() that names the answer to an unknown command"
                            " says -ENOTTY now.",)


def test_a_helpers_and_its_handlers_kernel_doc_both_change(tmp_path: Path) -> None:
    rel = "drivers/gpu/perf.c"
    s = site(rel, line_of(I915, "return -EINVAL;"), "perf_ioctl_locked", entry="perf_ioctl")
    change = comment_updates.revised(tmp_path, converted(tmp_path, rel, I915, [s], "-EINVAL", "-ENOTTY"))
    after = applied(tmp_path, change)
    assert after.count("Returns -ENOTTY for\n * an unknown ioctl request.") == 2
    assert "EINVAL" not in after
    assert change.notes == ("The comments of perf_ioctl_locked() and perf_ioctl() that name the answer to an"
                            " unknown command say -ENOTTY now.",)


def test_the_new_errno_is_the_sites_and_a_longer_one_keeps_the_line(tmp_path: Path) -> None:
    rel = "drivers/tty/x.c"
    text = ("/* x_ioctl: -EINVAL for an unsupported command */\n"
            "static int x_ioctl(struct tty_struct *tty, unsigned int cmd, unsigned long arg)\n"
            "{\n\treturn -EINVAL;\n}\n")
    s = site(rel, 4, "x_ioctl", to="ENOIOCTLCMD")
    change = comment_updates.revised(tmp_path, converted(tmp_path, rel, text, [s], "-EINVAL", "-ENOIOCTLCMD"))
    assert applied(tmp_path, change).startswith("/* x_ioctl: -ENOIOCTLCMD for an unsupported command */\n")


def test_an_enosys_comment_changes_only_for_an_enosys_site(tmp_path: Path) -> None:
    rel = "drivers/xen/evtchn.c"
    text = ("/* Unknown commands get -ENOSYS; a bad port -EINVAL. */\n"
            "static long evtchn_ioctl(struct file *file, unsigned int cmd, unsigned long arg)\n"
            "{\n\tlong rc = -ENOSYS;\n\treturn rc;\n}\n")
    s = site(rel, 4, "evtchn_ioctl", from_="ENOSYS")
    change = comment_updates.revised(tmp_path, converted(tmp_path, rel, text, [s], "-ENOSYS", "-ENOTTY"))
    assert applied(tmp_path, change).startswith("/* Unknown commands get -ENOTTY; a bad port -EINVAL. */\n")


def test_no_stale_comment_leaves_the_change_as_it_was(tmp_path: Path) -> None:
    rel = "drivers/a/a.c"
    text = ("/* a_ioctl - returns -EINVAL for an unknown command or a bad argument */\n"
            "static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)\n"
            "{\n\t/*r = -EINVAL;*/\n\treturn -EINVAL;\n}\n")
    before = converted(tmp_path, rel, text, [site(rel, 5, "a_ioctl")], "-EINVAL", "-ENOTTY")
    assert comment_updates.revised(tmp_path, before) is before


def test_a_comment_separated_by_a_blank_line_is_not_the_handlers(tmp_path: Path) -> None:
    rel = "drivers/b/b.c"
    text = ("/* Returns -EINVAL for unknown commands. */\n\n"
            "static long b_ioctl(struct file *f, unsigned int cmd, unsigned long arg)\n"
            "{\n\treturn -EINVAL;\n}\n")
    before = converted(tmp_path, rel, text, [site(rel, 5, "b_ioctl")], "-EINVAL", "-ENOTTY")
    assert comment_updates.revised(tmp_path, before) is before


def test_a_diff_that_does_not_apply_is_left_alone(tmp_path: Path) -> None:
    rel = "drivers/sbus/char/envctrl.c"
    s = site(rel, line_of(ENVCTRL, "return -EINVAL;", 2), "envctrl_ioctl")
    change = converted(tmp_path, rel, ENVCTRL, [s], "-EINVAL", "-ENOTTY")
    (tmp_path / rel).write_text(ENVCTRL.replace("default:", "default: /* moved */"))
    assert comment_updates.revised(tmp_path, change) is change


def test_apply_diff_maps_kept_lines_past_added_ones() -> None:
    before = "a\nb\nc\nd\n"
    diff = unified_diff("f", before, "a\nB\nx\nc\nd\n")
    result = comment_updates.apply_diff(before, diff)
    assert result is not None
    after, moved = result
    assert after == "a\nB\nx\nc\nd\n"
    assert moved == {1: 0, 3: 3, 4: 4}
    assert comment_updates.apply_diff("a\nz\nc\nd\n", diff) is None


def test_lines_are_cut_at_newlines_only() -> None:
    assert comment_updates.lines_of("a\x0cb\nc") == ["a\x0cb\n", "c"]


def test_revise_skips_the_cleanup_patch(tmp_path: Path) -> None:
    rel = "drivers/sbus/char/envctrl.c"
    s = site(rel, line_of(ENVCTRL, "return -EINVAL;", 2), "envctrl_ioctl")
    change = converted(tmp_path, rel, ENVCTRL, [s], "-EINVAL", "-ENOTTY")
    plan = SeriesPlan("sparc", "SPARC", [PatchPlan("envctrl", "envctrl", "", [change]),
                                         PatchPlan("cleanup", "cleanup", "", [change], cleanup=True)])
    (done,) = comment_updates.revise(tmp_path, [plan])
    assert done.patches[0].files[0].notes and done.patches[1].files[0] is change
    assert dataclasses.replace(done.patches[0].files[0], diff=change.diff, notes=()) == change
