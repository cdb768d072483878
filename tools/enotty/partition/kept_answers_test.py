"""The kept commands tested for in the converted statement, on small files."""
from __future__ import annotations

from pathlib import Path

from . import kept_answers
from .comment_updates import lines_of, unified_diff
from ..find.sites import Effects, Site
from ..judge import kept_commands
from ..judge.kept_commands import KeptAnswer

FOPS = "file_operations.unlocked_ioctl"

SWITCH = """\
static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	int ret;

	switch (cmd) {
	case A_GET:
		ret = 0;
		break;
	default:
		ret = -EINVAL;
		break;
	}
	return ret;
}
"""

ELSE = """\
static int t_ioctl(struct dev *d, unsigned int cmd, unsigned long arg)
{
	if (cmd == T_DISPLAY) {
		return t_display(d, arg);
	} else
		return -EINVAL;
}
"""


def converted(text: str, old: str, new: str) -> str:
    """The rules' diff of text: old replaced by new on its one line."""
    return unified_diff("a.c", lines_of(text), lines_of(text.replace(old, new)))


def line_of(text: str, words: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if words in line)


def kept(text: str, old: str, new: str, site: Site, answer: KeptAnswer) -> str:
    """text as the rules convert it (old to new) with answer kept."""
    lines = kept_answers.edit(text, converted(text, old, new), [(site, answer)])
    assert lines is not None
    return "".join(lines)


def test_a_default_assignment_gets_case_labels_with_the_old_value() -> None:
    """binder: the kept commands get labels of their own before the
    default, with its jump, and a comment naming who reads the answer."""
    site = Site("a.c", line_of(SWITCH, "-EINVAL"), "a_ioctl", FOPS, "EINVAL", "ENOTTY", "ioctl_default_assign")
    answer = KeptAnswer(("A_IDLE", "A_WAKE"), "EINVAL", ("Android's binder driver test",))
    assert kept(SWITCH, "ret = -EINVAL;", "ret = -ENOTTY;", site, answer) == SWITCH.replace(
        "\tdefault:\n\t\tret = -EINVAL;\n",
        "\tcase A_IDLE:\n\tcase A_WAKE:\n\t\t/* Android's binder driver test reads -EINVAL here */\n"
        "\t\tret = -EINVAL;\n\t\tbreak;\n\tdefault:\n\t\tret = -ENOTTY;\n")


IFDEF = """\
static int s_ioctl(struct net_device *dev, struct ifreq *ifr, void __user *data, int cmd)
{
	switch (cmd) {
	case S_GET:
		return s_get(dev, data);
#ifdef CONFIG_S_6RD
	case S_GET6RD:
		return s_get6rd(dev, data);
#endif
	default:
		return -EINVAL;
	}
}
"""


def test_a_command_cased_under_ifdef_gets_its_label_in_the_else() -> None:
    """sit's SIOCGET6RD has a case only with CONFIG_IPV6_SIT_6RD: a label
    outside the #ifdef would repeat it."""
    effects = Effects("both", "yes", "-", "all", "S_GET6RD[CONFIG_S_6RD=n]", "-", "-", "yes", "-")
    site = Site("s.c", line_of(IFDEF, "-EINVAL"), "s_ioctl", "net_device_ops.ndo_siocdevprivate", "EINVAL",
                "EOPNOTSUPP", "ioctl_default_return", effects=effects)
    answer = KeptAnswer(("S_GET6RD",), "EINVAL", ("iproute2 ip tunnel show",))
    assert kept(IFDEF, "return -EINVAL;", "return -EOPNOTSUPP;", site, answer) == IFDEF.replace(
        "#endif\n\tdefault:\n\t\treturn -EINVAL;\n",
        "#else\n\tcase S_GET6RD:\n\t\t/* iproute2 ip tunnel show reads -EINVAL here */\n\t\treturn -EINVAL;\n"
        "#endif\n\tdefault:\n\t\treturn -EOPNOTSUPP;\n")


def test_a_braceless_else_gets_braces_around_the_test() -> None:
    """tape_34xx_ioctl()'s `} else return -EINVAL;`: three statements need a block."""
    site = Site("t.c", line_of(ELSE, "-EINVAL"), "t_ioctl", "tape_discipline.ioctl_fn", "EINVAL", "ENOTTY",
                "ioctl_if_chain")
    answer = KeptAnswer(("T_CRYPT_SET", "T_CRYPT_QUERY"), "EINVAL", ("s390-tools",))
    assert kept(ELSE, "return -EINVAL;", "return -ENOTTY;", site, answer) == ELSE.replace(
        "\t} else\n\t\treturn -EINVAL;\n",
        "\t} else {\n\t\t/* s390-tools reads -EINVAL here */\n"
        "\t\tif (cmd == T_CRYPT_SET || cmd == T_CRYPT_QUERY)\n\t\t\treturn -EINVAL;\n"
        "\t\treturn -ENOTTY;\n\t}\n")


def test_a_long_test_puts_each_command_on_a_line_of_its_own() -> None:
    answer = KeptAnswer(("BINDER_SET_IDLE_PRIORITY", "BINDER_SET_IDLE_TIMEOUT"), "EINVAL",
                        ("tools/iio/iio_event_monitor.c", "tools/iio/iio_generic_buffer.c"))
    assert kept_answers.kept_statement("\t\treturn -ENOTTY;\n", "cmd", answer, "ENOTTY") == [
        # a comment longer than 80 columns is a block
        "\t\t/*\n",
        "\t\t * tools/iio/iio_event_monitor.c and\n",
        "\t\t * tools/iio/iio_generic_buffer.c read -EINVAL here\n",
        "\t\t */\n",
        "\t\tif (cmd == BINDER_SET_IDLE_PRIORITY ||\n",
        "\t\t    cmd == BINDER_SET_IDLE_TIMEOUT)\n",
        "\t\t\treturn -EINVAL;\n",
        "\t\treturn -ENOTTY;\n"]
    # only a statement alone with the new answer is rewritten
    assert kept_answers.kept_statement("\tdefault: return -ENOTTY;\n", "cmd", answer, "ENOTTY") is None
    assert kept_answers.kept_statement("\t\treturn -EOPNOTSUPP;\n", "cmd", answer, "ENOTTY") is None


def test_the_command_parameter_is_the_interfaces_or_a_helpers_cmd() -> None:
    site = Site("a.c", 10, "a_ioctl", FOPS, "EINVAL", "ENOTTY", "ioctl_default_assign")
    assert kept_commands.command_parameter(SWITCH, site) == "cmd"
    renamed = SWITCH.replace("cmd", "req")
    assert kept_commands.command_parameter(renamed, site) == "req"
    # a function no interface row names: a parameter named like a command
    helper = Site("t.c", 6, "t_ioctl", "no_such_ops.ioctl", "EINVAL", "ENOTTY", "ioctl_if_chain")
    assert kept_commands.command_parameter(ELSE, helper) == "cmd"
    assert kept_commands.command_parameter(ELSE.replace("cmd", "what"), helper) == ""
    assert kept_commands.unkeepable(ELSE.replace("cmd", "what"), helper) == "t_ioctl() has no command parameter to test"
    assert kept_commands.unkeepable(SWITCH, site) == ""


def test_revise_raises_rather_than_drop_a_kept_answer(tmp_path: Path) -> None:
    """A change whose statement cannot be found stops the run: the patch
    must not go out without the test a program relies on."""
    (tmp_path / "a.c").write_text(SWITCH)
    site = Site("a.c", line_of(SWITCH, "-EINVAL"), "a_ioctl", FOPS, "EINVAL", "ENOTTY", "ioctl_default_assign")
    from .split import FileChange
    change = FileChange("a.c", converted(SWITCH, "ret = -EINVAL;", "ret = -ENOSYS;"), (site,))
    try:
        kept_answers.revised(tmp_path, change, {site: KeptAnswer(("A_IDLE",), "EINVAL", ("t",))})
    except RuntimeError as err:
        assert "a_ioctl() line 10" in str(err)
    else:
        raise AssertionError("no error")


def test_a_command_the_file_cannot_see_is_not_kept_by_name(tmp_path: Path) -> None:
    """mtip32xx.c includes no header that defines SG_IO: a test of it
    would not build, so its handler stays out."""
    (tmp_path / "include" / "uapi" / "linux").mkdir(parents=True)
    (tmp_path / "include" / "uapi" / "linux" / "a.h").write_text(
        "#define A_IDLE _IO('a', 1)\nenum {\n\tA_WAKE = _IO('a', 2),\n};\n")
    (tmp_path / "a.c").write_text('#include <linux/a.h>\n' + SWITCH)
    (tmp_path / "include" / "linux").mkdir()
    (tmp_path / "include" / "linux" / "a.h").write_text("#include <uapi/linux/a.h>\n")
    assert kept_commands.undefined(tmp_path, "a.c", ("A_IDLE", "A_WAKE", "SG_IO")) == ["SG_IO"]
    site = Site("a.c", line_of(SWITCH, "-EINVAL") + 1, "a_ioctl", FOPS, "EINVAL", "ENOTTY", "ioctl_default_assign")
    text = (tmp_path / "a.c").read_text()
    assert kept_commands.unkeepable(text, site, tmp_path, ("A_IDLE",)) == ""
    assert kept_commands.unkeepable(text, site, tmp_path, ("SG_IO",)) == (
        "SG_IO is not defined in the headers a.c includes")
