"""Tests for the independent candidate list (small trees written here)."""
from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from . import candidates

DRIVER = """\
// .unlocked_ioctl = not_bound, in a comment
static long foo_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	if (_IOC_TYPE(cmd) != 'F')
		return -EINVAL;
	switch (_IOC_NR(cmd)) {
	case 1:
		if (!arg)
			return -EINVAL;
		return 0;
	default:
		return -EINVAL;
	}
}

static const struct file_operations foo_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = foo_ioctl,
};
"""

TREE = {
    "drivers/foo/foo.c": DRIVER,
    # A bound handler that hands the command to a non-static helper in
    # another file and a callback to a usercopy wrapper.
    "drivers/bar/bar_main.c": """\
long bar_helper(struct bar *b, unsigned int cmd, void *p);

static int bar_do_ioctl(struct file *file, unsigned int cmd, void *parg)
{
	int ret = -EINVAL;

	switch (cmd) {
	case BAR_ONE:
		ret = 0;
		break;
	}
	return ret;
}

static long bar_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (cmd == BAR_SPECIAL)
		return bar_helper(file->private_data, cmd, NULL);
	return dvb_usercopy(file, cmd, arg, bar_do_ioctl);
}

static int bar_setup(struct bar_ops *ops)
{
	ops->ioctl = bar_ioctl;
	return 0;
}
""",
    "drivers/bar/bar_helper.c": """\
long bar_helper(struct bar *b, unsigned int cmd, void *p)
{
	if (cmd == BAR_SPECIAL) {
		do_special(b);
	} else {
		return -ENOSYS;
	}
	if (!p)
		return -EINVAL;
	return 0;
}

static long bar_helper_unused(unsigned int cmd)
{
	default_handler();
	return -EINVAL;
}
""",
    # An ioctl that ends with a switch without default, and a static
    # function of the same name as the helper that must not be taken for it.
    "drivers/baz/baz.c": """\
static long bar_helper(struct bar *b, unsigned int cmd, void *p)
{
	return -EINVAL;
}

static long baz_ioctl(struct tty_struct *tty, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case BAZ_A:
		return 0;
	}
	return -EINVAL;
}

static const struct tty_operations baz_ops = {
	.ioctl = baz_ioctl,
};
""",
    "tools/perf/user.c": DRIVER,
}


def make_tree(root: Path) -> Path:
    for rel, text in TREE.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / "MAINTAINERS").write_text("")
    (root / "Makefile").write_text("VERSION = 6\n")
    return root


def rows(sites: list[candidates.Site]) -> set[tuple[str, int, str, str]]:
    return {(s.file, s.line, s.function, s.kind) for s in sites}


def test_finds_guard_and_default_and_not_an_argument_check(tmp_path: Path) -> None:
    root = make_tree(tmp_path)
    got = {r for r in rows(candidates.find(root)) if r[0] == "drivers/foo/foo.c"}
    assert got == {("drivers/foo/foo.c", 5, "foo_ioctl", "guard"),
                   ("drivers/foo/foo.c", 12, "foo_ioctl", "default")}


def test_follows_callbacks_and_helpers_across_files(tmp_path: Path) -> None:
    root = make_tree(tmp_path)
    got = rows(candidates.find(root))
    # bar_do_ioctl: only reached as a callback of dvb_usercopy.
    assert ("drivers/bar/bar_main.c", 5, "bar_do_ioctl", "init") in got
    # bar_helper (non-static, other file): the else of a command test;
    # its argument check `if (!p)` is no candidate.
    assert ("drivers/bar/bar_helper.c", 6, "bar_helper", "else") in got
    assert not any(r[0] == "drivers/bar/bar_helper.c" and r[1] == 9 for r in got)
    # Never reached with the command: no site.
    assert not any(r[2] == "bar_helper_unused" for r in got)


def test_static_function_elsewhere_is_not_the_helper(tmp_path: Path) -> None:
    root = make_tree(tmp_path)
    got = {r for r in rows(candidates.find(root)) if r[0] == "drivers/baz/baz.c"}
    assert got == {("drivers/baz/baz.c", 12, "baz_ioctl", "after-switch")}


def test_kernel_tools_folder_and_subdir(tmp_path: Path) -> None:
    root = make_tree(tmp_path)
    assert not any(s.file.startswith("tools/") for s in candidates.find(root))
    assert {s.file for s in candidates.find(root, "drivers/bar")} == {
        "drivers/bar/bar_main.c", "drivers/bar/bar_helper.c"}


def test_helper_two_levels_deep_only(tmp_path: Path) -> None:
    levels = ["static long lvl0(struct file *f, unsigned int cmd, unsigned long a)\n"
              "{\n\treturn lvl1(f, cmd);\n}\n"]
    for n in range(1, 4):
        levels.append(f"static long lvl{n}(struct file *f, unsigned int cmd)\n"
                      f"{{\n\tswitch (cmd) {{\n\tcase 1:\n\t\treturn lvl{n + 1}(f, cmd);\n"
                      f"\tdefault:\n\t\treturn -EINVAL;\n\t}}\n}}\n")
    levels.append("static const struct file_operations f = { .compat_ioctl = lvl0, };\n")
    (tmp_path / "d.c").write_text("".join(levels))
    assert {s.function for s in candidates.find(tmp_path)} == {"lvl1", "lvl2"}


def test_command_parameter_by_name_then_by_type() -> None:
    from ..find import csource
    fns = csource.functions(csource.clean(
        "static long a(struct file *f, unsigned int ioctl_num, unsigned long p)\n{\n}\n"
        "static int b(struct snd_hwdep *hw, struct file *file, unsigned int x, unsigned long y)\n{\n}\n"
        "static int c(struct net_device *dev, struct if_settings *ifs)\n{\n}\n"))
    assert [candidates.command_param(f) for f in fns] == [1, 2, -1]


def test_tsv_and_command_line(tmp_path: Path) -> None:
    root = make_tree(tmp_path)
    out = io.StringIO()
    candidates.write_tsv(candidates.find(root, "drivers/baz"), out)
    assert out.getvalue() == "file\tline\tfunction\tkind\ndrivers/baz/baz.c\t12\tbaz_ioctl\tafter-switch\n"
    tools = Path(__file__).resolve().parents[2]
    res = subprocess.run([sys.executable, "-m", "enotty", "candidates", "--kdir", str(root),
                          "--subdir", "drivers/baz"], capture_output=True, text=True,
                         env={"PYTHONPATH": str(tools), "PATH": "/usr/bin:/bin"})
    assert res.returncode == 0 and res.stdout == out.getvalue()
    bad = subprocess.run([sys.executable, "-m", "enotty", "candidates", "--kdir", str(root / "nope")],
                         capture_output=True, text=True, env={"PYTHONPATH": str(tools), "PATH": "/usr/bin:/bin"})
    assert bad.returncode == 2 and bad.stderr.startswith("enotty: ") and "Traceback" not in bad.stderr
