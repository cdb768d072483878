"""Tests for enotty.find.rule_python, the Python the rule file runs inside
spatch (cocci/tests/ runs it there on whole fixtures; here each check is
called as a script rule calls it, with positions as spatch gives them)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from . import rule_python as rp
from . import interfaces, rules


@dataclass
class Loc:
    """A spatch Location: every field a string."""
    file: str
    line: str
    column: str
    current_element: str


@pytest.fixture(autouse=True)
def table():
    """The table as rules.py writes it into the rule file, and empty
    per-file state, for each test."""
    namespace: dict = {}
    exec(rules.table_python(list(interfaces.table())), namespace)
    saved = dict(rp.ENOTTY_INTERFACES), list(rp.ENOTTY_ORDER)
    rp.ENOTTY_INTERFACES.update(namespace["ENOTTY_INTERFACES"])
    rp.ENOTTY_ORDER[:] = namespace["ENOTTY_ORDER"]
    rp.ENOTTY_EMBEDDED_OPS.update(namespace["ENOTTY_EMBEDDED_OPS"])
    rp.ENOTTY_KEPT_HOOKS.update(namespace["ENOTTY_KEPT_HOOKS"])
    rp.ENOTTY_ALSO_FROM.update(namespace["ENOTTY_ALSO_FROM"])
    for state in (rp.enotty_handlers, rp.enotty_helpers, rp.enotty_sites, rp.enotty_cmd_of,
                  rp.enotty_fact_rows, rp.enotty_static, rp.enotty_trynext):
        state.clear()
    rp.enotty_printed.clear()
    yield
    rp.ENOTTY_INTERFACES.clear()
    rp.ENOTTY_INTERFACES.update(saved[0])
    rp.ENOTTY_ORDER[:] = saved[1]
    rp.ENOTTY_EMBEDDED_OPS.clear()
    rp.ENOTTY_KEPT_HOOKS.clear()
    rp.ENOTTY_ALSO_FROM.clear()


def at(path: Path, needle: str, fn: str = "f", nth: int = 0) -> tuple[Loc]:
    """The position of the nth needle in the file, as spatch gives it (a
    site is the errno constant: EINVAL of return -EINVAL;)."""
    text = path.read_text()
    offset = -1
    for _ in range(nth + 1):
        offset = text.index(needle, offset + 1)
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1)
    return (Loc(str(path), str(line), str(column), fn),)


def c_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "x.c"
    path.write_text(text)
    return path


LEAVING = """\
static long f(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case A:
		return a(arg);
	case B:
		goto out;
	}
	return -EINVAL;
out:
	return 0;
}
"""


def test_after_leaving_switch(tmp_path: Path):
    path = c_file(tmp_path, LEAVING)
    assert rp.enotty_after_leaving_switch(at(path, "EINVAL"), "cmd")
    assert not rp.enotty_after_leaving_switch(at(path, "EINVAL"), "arg")
    broken = c_file(tmp_path, LEAVING.replace("goto out;", "break;"))
    assert not rp.enotty_after_leaving_switch(at(broken, "EINVAL"), "cmd")


DEFAULTS = """\
static long f(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (_IOC_NR(cmd)) {
	case A:
		return a(arg);
	case OLD:
	default:
		return -EINVAL;
	}
}

static long g(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case A:
		return a(arg);
	default:
		if (arg)
			return -EINVAL;
		return -ENOSYS;
	}
}
"""


def test_defaults(tmp_path: Path):
    path = c_file(tmp_path, DEFAULTS)
    fallen = at(path, "EINVAL")
    assert rp.enotty_under_default(fallen, "cmd")
    assert not rp.enotty_not_fallen_into(fallen, "cmd")      # case OLD: falls into it
    conditional = at(path, "EINVAL", "g", nth=1)
    assert not rp.enotty_under_default(conditional, "cmd")    # under an if there
    plain = at(path, "ENOSYS", "g")
    assert rp.enotty_under_default(plain, "cmd") and rp.enotty_not_fallen_into(plain, "cmd")


OTHER_ERRNOS = """\
static long f(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case A:
		return a(arg);
	default:
		if (!arg)
			return -EFAULT;
		return -ENOTSUPP;
	}
}

static int s(struct socket *sock, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case A:
		return a(arg);
	default:
		return -EOPNOTSUPP;
	}
}
"""


def test_other_errnos_convert_where_the_interface_lists_them(tmp_path: Path):
    path = c_file(tmp_path, OTHER_ERRNOS)
    rp.enotty_handlers[str(path)] = {"f": "file_operations.unlocked_ioctl", "s": "proto_ops.ioctl"}
    rp.enotty_cmd_of.update({"f": "cmd", "s": "cmd"})
    assert rp.enotty_token_at(at(path, "ENOTSUPP")) == "ENOTSUPP"
    assert rp.enotty_from_converts(at(path, "ENOTSUPP"))              # the default's own answer
    assert not rp.enotty_from_converts(at(path, "EFAULT"))            # under an if: an argument check
    assert not rp.enotty_from_converts(at(path, "EOPNOTSUPP", "s"))   # a socket's convention
    rp.enotty_handlers[str(path)] = {}
    assert not rp.enotty_from_converts(at(path, "ENOTSUPP"))          # no target: nothing converts


LOOPS = """\
static long f(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (!dev->info)
		return -ENODEV;
	list_for_each_entry(h, &handlers, entry) {
		ret = h->ioctl(dev, cmd, arg);
		if (ret != UNHANDLED)
			return ret;
	}
	return -ENODEV;
}

static long g(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (cmd == RESET)
		reset(file);
	list_for_each_entry(h, &handlers, entry) {
		ret = h->ioctl(dev, cmd, arg);
		if (ret != UNHANDLED)
			return ret;
	}
	return -ENODEV;
}
"""


def test_after_a_loop_over_subhandlers(tmp_path: Path):
    path = c_file(tmp_path, LOOPS)
    assert not rp.enotty_after_subhandler_loop(at(path, "ENODEV"), "cmd")   # the device check
    assert rp.enotty_after_subhandler_loop(at(path, "ENODEV", nth=1), "cmd")
    # a recognised command handled before the loop also reaches the -ENODEV
    assert not rp.enotty_after_subhandler_loop(at(path, "ENODEV", "g", nth=2), "cmd")


@pytest.mark.parametrize("seg,holds", [
    ("if (x < 0) return x; else return put_user(x, p);", True),
    ("err = get_user(v, p); if (err) return err; return set(v);", False),   # the assignment test's
    ("if (x) err = get(); return err;", False),          # the initial value when !x
    ("if (!capable(CAP_SYS_ADMIN))\n return -EACCES;\n return go();\n#endif\n", True),
    ("if (arg > MAX) return err; return set(arg);", False),      # the initial value, a known command
    ("if (!ok) break; return 0;", False),
    ("if (!ok) goto out; return 0;", False),
    ("do_it();", False),
])
def test_case_returns(seg: str, holds: bool):
    assert rp.enotty_case_returns(seg, "err") is holds


@pytest.mark.parametrize("seg,holds", [
    ("for_each(f) { ret = f->ioctl(f, cmd, arg); if (ret != -ENODEV) return ret; }", True),
    ("list_for_each_entry(h, &l, entry) { ret = h->ioctl(d, cmd, arg);"
     " if (ret != IIO_IOCTL_UNHANDLED) { return ret; } }", True),
    ("for_each(f) { ret = f->ioctl(f, cmd, arg); if (!ret) break; if (ret != -ENODEV) return ret; }", False),
    ("for_each(f) { ret = f->ioctl(f, cmd, arg); if (ret) return ret; }", False),
    ("for_each(f) { ret = f->ioctl(f, arg); if (ret != -ENODEV) return ret; }", False),   # no command
    ("for_each(f) { ret = f->ioctl(f, cmd, arg); if (ret != -ENODEV) return ret; } return 0;", False),
    ("", False),
])
def test_tries_subhandlers(seg: str, holds: bool):
    assert rp.enotty_tries_subhandlers(seg, "cmd") is holds


@pytest.mark.parametrize("cond,kind,holds", [
    ("cmd == A || B == cmd", "==", True),
    ("likely(cmd == A) || cmd == B", "==", True),
    ("cmd == A && arg", "==", False),
    ("cmd != A && cmd != B", "!=&&", True),
    ("cmd != A", "!=&&", False),
    ("_IOC_TYPE(cmd) != MAGIC", "_IOC", True),
    ("_IOC_TYPE(cmd) != 'H' || _IOC_NR(cmd) >= N", "_IOC", True),
    ("_IOC_TYPE(cmd) != M && cmd != A", "_IOC", True),
    ("((cmd >> 8) & 0xff) != M", "_IOC", True),
    ("!((cmd & 0xff00) == 0x0200)", "_IOC", True),
    ("_IOC_SIZE(cmd) > 8", "_IOC", False),
    ("cmd", "_IOC", False),
])
def test_command_test(cond, kind, holds):
    assert rp.enotty_command_test(cond, "cmd", kind) is holds


def test_command_test_without_a_name_tries_the_targets():
    rp.enotty_cmd_of.update({"f": "cmd", "g": "ioc"})
    assert rp.enotty_command_test("ioc == A", None, "==")
    assert not rp.enotty_command_test("nr == A", None, "==")


@pytest.mark.parametrize("cond, holds", [
    ("!rp", True),
    ("!bar->ready", True),
    ("unlikely(!dev->open)", True),
    ("_IOC_SIZE(cmd) < sizeof(struct foo_req)", False),   # names the command
    ("!(bar = filp->private_data)", False),               # assigns
    ("dev->users++ > 0", False),
    ("a == b || c <= d", True),
])
def test_state_test(cond, holds):
    assert rp.enotty_state_test(cond, "cmd") is holds


def test_state_test_without_a_name_excludes_every_command_parameter():
    rp.enotty_cmd_of.clear()
    assert not rp.enotty_state_test("!rp", None)        # no target: no command known
    rp.enotty_cmd_of.update({"f": "cmd", "g": "ioc"})
    assert rp.enotty_state_test("!rp", None)
    assert not rp.enotty_state_test("ioc > 4", None)


@pytest.mark.parametrize("cond, holds", [
    ("(arg == NULL)", True),                      # esas2r: tested after the range now
    ("!dev->open", True),
    ("!capable(CAP_SYS_ADMIN)", False),           # a call the range would skip
    ("unlikely(!arg)", False),
    ("ioc > 4", False),                           # names a command
    ("!(d = f->private_data)", False),            # assigns
])
def test_pure_test(cond, holds):
    """ioctl_cmd_range_split tests the range first: the state test it
    moves behind the range must have no side effect to skip."""
    rp.enotty_cmd_of.clear()
    rp.enotty_cmd_of.update({"f": "cmd", "g": "ioc"})
    assert rp.enotty_pure_test(cond) is holds


def test_every_case_assigns(tmp_path: Path):
    path = c_file(tmp_path, """\
static long f(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;

	switch (cmd) {
	case A:
		ret = a(arg);
		break;
	case B:
		return b(arg);
	}
	return ret;
}
""")
    rp.enotty_cmd_of["f"] = "cmd"
    assert rp.enotty_every_case_assigns(at(path, "EINVAL"), "ret")
    assert not rp.enotty_every_case_assigns(at(path, "EINVAL"), "other")


def test_abi_comment(tmp_path: Path):
    path = c_file(tmp_path, """\
int f(int cmd)
{
	/* user space relies on this */
	if (cmd)
		return -EINVAL;
	return -ENOSYS; // plain
}
""")
    assert rp.enotty_abi_comment(at(path, "EINVAL"))
    assert not rp.enotty_site_ok(at(path, "EINVAL"))
    assert rp.enotty_site_ok(at(path, "ENOSYS"))


def test_reaches_unknown(tmp_path: Path):
    path = c_file(tmp_path, """\
static long f(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (cmd == A || cmd == B)
		return helper_a(cmd, arg);
	switch (cmd) {
	case C:
		return helper_c(cmd, arg);
	default:
		return helper_d(cmd, arg);
	}
}
""")
    assert not rp.enotty_reaches_unknown(at(path, "helper_a"), "cmd")
    assert not rp.enotty_reaches_unknown(at(path, "helper_c"), "cmd")
    assert rp.enotty_reaches_unknown(at(path, "helper_d"), "cmd")
    assert rp.enotty_reaches_unknown(at(path, "helper_d"), None)


def test_a_helper_after_a_switch_whose_default_returns_gets_known_commands_only(tmp_path: Path):
    # mm/gup_test.c: gup_test_ioctl() returns -EINVAL from its default
    # before it calls __gup_test_ioctl(); a switch nested deeper, or one
    # whose default falls out, filters nothing
    path = c_file(tmp_path, """\
static long f(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case A:
		break;
	default:
		return -EINVAL;
	}
	ret = helper_after(cmd, &g);
	if (ret)
		return ret;
	return 0;
}
static long g(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (arg) {
		switch (cmd) {
		default:
			return -EINVAL;
		}
	}
	switch (cmd) {
	case A:
		break;
	default:
		break;
	}
	return helper_g(cmd, arg);
}
""")
    assert not rp.enotty_reaches_unknown(at(path, "helper_after"), "cmd")
    assert rp.enotty_reaches_unknown(at(path, "helper_g"), "cmd")


def test_handlers_helpers_claims_and_the_site_line(tmp_path: Path, capsys):
    path = c_file(tmp_path, LEAVING)
    pos = at(path, "EINVAL")
    rp.enotty_add_handler(pos, "f", "file_operations", "unlocked_ioctl")
    rp.enotty_add_handler(pos, "f", "no_such_ops", "ioctl")
    assert rp.enotty_lookup(str(path), "f") == ("file_operations.unlocked_ioctl", 1)
    rp.enotty_static[str(path)] = {"h"}
    rp.enotty_add_helper(str(path), "f", "h", 0)
    assert rp.enotty_takes_cmd(str(path), "h", "0") and not rp.enotty_takes_cmd(str(path), "h", "1")
    rp.enotty_claim(pos, "f", "EINVAL", "ioctl_default_return")
    rp.enotty_claim(pos, "f", "EINVAL", "ioctl_if_chain")        # the first shape names it
    assert rp.enotty_first(pos, "tsv") and not rp.enotty_first(pos, "tsv")
    rp.enotty_tsv(pos)
    assert capsys.readouterr().out == (f"ENOTTY-SITE\t{path}\t9\tf\tfile_operations.unlocked_ioctl"
                                       "\tEINVAL\tENOTTY\tioctl_default_return\n")
    assert rp.enotty_message(pos) == ("f: unknown ioctl command answered with -EINVAL;"
                                      " file_operations.unlocked_ioctl handlers answer -ENOTTY")


def test_facts_add_targets_but_not_kept_hooks(tmp_path: Path):
    facts = tmp_path / "facts.tsv"
    facts.write_text("drivers/x.c\tf\tfile_operations.unlocked_ioctl\t1\n"
                     "drivers/x.c\tkvm_arch_vm_ioctl\tfile_operations.unlocked_ioctl\t1\n"
                     "drivers/x.c\tg\tno_such.ioctl\t1\n"
                     "drivers/x.c\th\tfile_operations.unlocked_ioctl\tone\n")
    rp.enotty_read_facts(str(facts))
    assert rp.enotty_fact("/tree/drivers/x.c", "f") == ("file_operations.unlocked_ioctl", 1)
    assert rp.enotty_fact("drivers/x.c", "kvm_arch_vm_ioctl") is None
    assert rp.enotty_fact("drivers/x.c", "g") is None and rp.enotty_fact("drivers/x.c", "h") is None


@pytest.mark.parametrize("seg, leaves", [
    ("ret = f(); break;", True),
    ("return f(arg);", True),
    ("if (x) goto out; ret = 1; goto out;", True),
    ("{ int a = 1; ret = a; break; }", True),
    ("ret = s_get();", False),                                  # falls out
    ("if (a) ret = 1; else ret = 2;", False),                    # falls out
    ("if (a) return 1;", False),                                 # only when a holds
    ("if (a) { return 1; }", False),
    ("if (a) ret = 1; else return 2;", False),
])
def test_a_case_ends_leaving_only_by_an_unconditional_exit(seg: str, leaves: bool) -> None:
    """ioctl_switch_add_default adds its default after the last case only
    when that case cannot fall into it (a review: S_GET fell in)."""
    assert rp.enotty_ends_leaving(seg) is leaves
