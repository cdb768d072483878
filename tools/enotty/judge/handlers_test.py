"""The handler model on small C files, with the effects computed as the
pipeline computes them (effects.analyse_sites)."""
from __future__ import annotations

import dataclasses
import io
from pathlib import Path

from . import effects, handlers
from ..find.sites import Effects, Site

FOPS = "file_operations.unlocked_ioctl"


def analysed(tmp_path: Path, name: str, code: str, found: list[tuple[int, str, str]]) -> list[Site]:
    (tmp_path / name).write_text(code)
    raw = [Site(name, line, fn, FOPS, "EINVAL", "ENOTTY", rule) for line, fn, rule in found]
    eff = effects.analyse_sites(raw, tmp_path)
    return [dataclasses.replace(s, effects=eff[s]) for s in raw]


def line_of(code: str, text: str, nth: int = 1) -> int:
    lines = code.splitlines()
    hits = [i + 1 for i, l in enumerate(lines) if text in l]
    return hits[nth - 1]


PLAIN = """\
static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case 1:
		return 0;
	default:
		return -EINVAL;
	}
}
static const struct file_operations fops = { .unlocked_ioctl = a_ioctl };
"""

ARGUMENT_FIRST = """\
static long r_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct info info;
	int ret = 0;

	if (copy_from_user(&info, (void __user *)arg, sizeof(info)))
		return -EFAULT;
	switch (cmd) {
	case 1:
		ret = 1;
		break;
	default:
		ret = -EINVAL;
	}
	return ret;
}
static const struct file_operations fops = { .unlocked_ioctl = r_ioctl };
"""

DIRECTIONS = """\
static long u_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	int retval = 0;

	switch (_IOC_NR(cmd)) {
	case 1:
		if (_IOC_DIR(cmd) != _IOC_READ) {
			retval = -EINVAL;
			goto done;
		}
		break;
	case 2:
		if (_IOC_DIR(cmd) != _IOC_READ ||
		    _IOC_SIZE(cmd) < 8) {
			retval = -EINVAL;
			goto done;
		}
		if (len > _IOC_SIZE(cmd))
			len = _IOC_SIZE(cmd);
		break;
	default:
		retval = -ENOTTY;
	}
done:
	return retval;
}
static const struct file_operations fops = { .unlocked_ioctl = u_ioctl };
"""

FINAL_RETURN = """\
static long e_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	if (_IOC_TYPE(cmd) != 'E')
		return -EINVAL;
	if (_IOC_DIR(cmd) == _IOC_READ) {
		if (_IOC_NR(cmd) == 3)
			return 0;
	}
	return -EINVAL;
}
static const struct file_operations fops = { .unlocked_ioctl = e_ioctl };
"""

TWIN = """\
static long s_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case 1:
		return 0;
	default:
#ifdef NEW_COMPAT
		return -EINVAL;
#else
		return -EINVAL;
#endif
	}
}
static const struct file_operations fops = { .unlocked_ioctl = s_ioctl };
"""


def test_a_handler_with_one_plain_default_is_complete(tmp_path: Path) -> None:
    found = analysed(tmp_path, "a.c", PLAIN, [(line_of(PLAIN, "return -EINVAL"), "a_ioctl", "ioctl_default_return")])
    (h,) = handlers.model(found, tmp_path)
    assert (h.name, h.complete) == ("a_ioctl", True)
    assert handlers.left_out([h]) == {}


def test_a_handler_knows_the_module_its_file_is_built_into(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "Makefile").write_text("obj-$(CONFIG_A) += a_mod.o\na_mod-y := a.o\n")
    (tmp_path / "d" / "a.c").write_text(PLAIN)
    raw = [Site("d/a.c", line_of(PLAIN, "return -EINVAL"), "a_ioctl", FOPS, "EINVAL", "ENOTTY", "ioctl_default_return")]
    (h,) = handlers.model(raw, tmp_path)
    assert h.module == "a_mod"
    assert handlers.modules([h]) == {"d/a.c": "a_mod"}


def test_an_argument_read_before_the_command_does_not_keep_the_handler_out(tmp_path: Path) -> None:
    # an unknown command with a valid argument gets past the copy and then
    # answers ENOTTY: the conversion is complete (the message names the check)
    found = analysed(tmp_path, "r.c", ARGUMENT_FIRST,
                     [(line_of(ARGUMENT_FIRST, "ret = -EINVAL"), "r_ioctl", "ioctl_default_assign")])
    (h,) = handlers.model(found, tmp_path)
    assert h.complete and h.left == ()
    assert found[0].effects is not None and found[0].effects.reach == "partly"
    assert "(argument check)" in found[0].effects.guard
    assert handlers.left_out([h]) == {}


def test_an_argument_check_answering_the_old_errno_first_does_not_keep_the_handler_out(tmp_path: Path) -> None:
    """toshiba's tosh_ioctl(): `if (!argp) return -EINVAL;` before the
    switch leaves ioctl(fd, cmd, 0) at EINVAL, but every unknown command
    with an argument answers ENOTTY (issue 31: not a half conversion; the
    message names the check).  A state check in its place keeps it out."""
    code = ARGUMENT_FIRST.replace("\tif (copy_from_user", "\tif (!arg)\n\t\treturn -EINVAL;\n\tif (copy_from_user")
    found = analysed(tmp_path, "r.c", code, [(line_of(code, "ret = -EINVAL"), "r_ioctl", "ioctl_default_assign")])
    assert found[0].effects is not None and "!arg -> -EINVAL (argument check)" in found[0].effects.guard
    (h,) = handlers.model(found, tmp_path, consumers={})
    assert h.complete and h.left == ()
    state = code.replace("if (!arg)", "if (!f->private_data)")
    found = analysed(tmp_path, "r.c", state, [(line_of(state, "ret = -EINVAL"), "r_ioctl", "ioctl_default_assign")])
    assert found[0].effects is not None and "(state check)" in found[0].effects.guard
    (h,) = handlers.model(found, tmp_path, consumers={})
    assert h.left and h.left[0].startswith("a check before the dispatch (state check; line 6:")


def test_some_direction_checks_converted_and_others_not(tmp_path: Path) -> None:
    first = line_of(DIRECTIONS, "retval = -EINVAL")
    found = analysed(tmp_path, "u.c", DIRECTIONS, [(first, "u_ioctl", "ioctl_ioc_guard")])
    (h,) = handlers.model(found, tmp_path)
    # the truncation `if (len > _IOC_SIZE(cmd))` refuses nothing: 1 of 2
    assert h.left == ("1 of 2 direction and size checks of u_ioctl() would change",)
    both = analysed(tmp_path, "u.c", DIRECTIONS, [(first, "u_ioctl", "ioctl_ioc_guard"),
                                                  (line_of(DIRECTIONS, "retval = -EINVAL", 2), "u_ioctl",
                                                   "ioctl_ioc_guard")])
    assert handlers.model(both, tmp_path)[0].complete


def test_a_final_return_left_behind_a_converted_guard(tmp_path: Path) -> None:
    guard = line_of(FINAL_RETURN, "return -EINVAL")
    found = analysed(tmp_path, "e.c", FINAL_RETURN, [(guard, "e_ioctl", "ioctl_ioc_guard")])
    (h,) = handlers.model(found, tmp_path)
    assert h.left == ("the final -EINVAL of e_ioctl() would stay",)
    whole = analysed(tmp_path, "e.c", FINAL_RETURN, [(guard, "e_ioctl", "ioctl_ioc_guard"),
                                                     (line_of(FINAL_RETURN, "return -EINVAL", 2), "e_ioctl",
                                                      "ioctl_if_chain")])
    assert handlers.model(whole, tmp_path)[0].complete


def test_one_ifdef_twin_converted_keeps_the_handler_out(tmp_path: Path) -> None:
    found = analysed(tmp_path, "s.c", TWIN, [(line_of(TWIN, "return -EINVAL"), "s_ioctl", "ioctl_default_return")])
    (h,) = handlers.model(found, tmp_path)
    assert len(h.left) == 1 and h.left[0].startswith("#else branch (of #ifdef NEW_COMPAT) keeps -EINVAL")
    both = analysed(tmp_path, "s.c", TWIN, [(line_of(TWIN, "return -EINVAL"), "s_ioctl", "ioctl_default_return"),
                                            (line_of(TWIN, "return -EINVAL", 2), "s_ioctl", "ioctl_default_return")])
    assert handlers.model(both, tmp_path)[0].complete


def test_a_site_kept_out_for_another_reason_keeps_its_handler_out(tmp_path: Path) -> None:
    code = PLAIN.replace("\tcase 1:\n\t\treturn 0;", "\tcase 1:\n\t\treturn 0;\n\tcase 9:\n\t\treturn -EINVAL;")
    found = analysed(tmp_path, "a.c", code, [(line_of(code, "return -EINVAL", 1), "a_ioctl", "ioctl_default_return"),
                                             (line_of(code, "return -EINVAL", 2), "a_ioctl", "ioctl_default_return")])
    (h,) = handlers.model(found, tmp_path, {found[0]: "a.c: tools/testing/x expects EINVAL"})
    assert h.left == ("another site of it stays: a.c: tools/testing/x expects EINVAL",)


def test_a_handler_whose_every_visible_site_is_kept_out_is_left_out(tmp_path: Path) -> None:
    found = analysed(tmp_path, "a.c", PLAIN, [(line_of(PLAIN, "return -EINVAL"), "a_ioctl", "ioctl_default_return")])
    (h,) = handlers.model(found, tmp_path, {found[0]: "tools/testing/x.c expects EINVAL"})
    # the site carries its reason already: no second one for SUMMARY.md
    assert (h.left, h.held) == ((), ("tools/testing/x.c expects EINVAL",))
    assert handlers.left_out([h]) == {}
    out = io.StringIO()
    handlers.write_tsv([h], {}, out)
    (row,) = handlers.read_tsv(io.StringIO(out.getvalue()))
    assert (row["verdict"], row["left"]) == ("left out", "tools/testing/x.c expects EINVAL")


def test_a_handler_no_user_can_see_change_is_no_change(tmp_path: Path) -> None:
    code = PLAIN.replace("a_ioctl", "p_ioctl").replace("-EINVAL", "-ENOIOCTLCMD")
    found = leaf(tmp_path, code)
    assert found[0].effects is not None and found[0].effects.visible == "invisible"
    # kept out or not, a change no one sees leaves the handler as it is
    kept: list[dict[Site, str]] = [{}, {found[0]: "tools/testing/x.c expects EINVAL"}]
    for kept_out in kept:
        out = io.StringIO()
        handlers.write_tsv(handlers.model(found, tmp_path, kept_out), {}, out)
        (row,) = handlers.read_tsv(io.StringIO(out.getvalue()))
        assert (row["verdict"], row["left"]) == ("no change", "-")


def test_handlers_tsv_names_the_series_and_the_verdict(tmp_path: Path) -> None:
    found = analysed(tmp_path, "a.c", PLAIN, [(line_of(PLAIN, "return -EINVAL"), "a_ioctl", "ioctl_default_return")])
    out = io.StringIO()
    handlers.write_tsv(handlers.model(found, tmp_path), {found[0]: "misc"}, out)
    (row,) = handlers.read_tsv(io.StringIO(out.getvalue()))
    assert (row["handler"], row["series"], row["verdict"], row["left"]) == ("a_ioctl", "misc", "converted", "-")


def test_a_known_command_a_program_reads_keeps_its_answer_by_name(tmp_path: Path) -> None:
    """s390-tools tape390_crypt reads tape_34xx's EINVAL for TAPE390_CRYPT_SET:
    the handler is converted with that command tested for first."""
    code = "#define X_CRYPT_SET 2\n" + PLAIN
    found = analysed(tmp_path, "a.c", code, [(line_of(code, "return -EINVAL"), "a_ioctl", "ioctl_default_return")])
    site = dataclasses.replace(found[0], effects=dataclasses.replace(found[0].effects, uncased="X_CRYPT_SET,X_OTHER"))
    table = tmp_path / "consumers.tsv"
    table.write_text("# what reads EINVAL\ncommand\tconsumer\treads\tsource\tkeep\n"
                     "X_CRYPT_SET\ts390-tools tape390_crypt -e (v2.41)\tEINVAL: no encryption\thttps://example.org/t.c\tyes\n"
                     "X_OTHER\tsystemd\tENOTTY: not supported\thttps://example.org/w.c\tno\n")
    consumers = handlers.read_consumers(table)
    (h,) = handlers.model([site], tmp_path, consumers=consumers)
    assert h.complete
    assert h.kept == ((site, handlers.KeptAnswer(("X_CRYPT_SET",), "EINVAL", ("s390-tools tape390_crypt -e",))),)
    assert handlers.kept_answer_sentences([site], handlers.kept_answers([h])) == [
        "X_CRYPT_SET keeps -EINVAL in a_ioctl(): s390-tools tape390_crypt reads that answer for it."]
    # the message no longer counts it among the commands that get ENOTTY
    (shown,) = handlers.without_kept([site], handlers.kept_answers([h]))
    assert shown.effects is not None and shown.effects.uncased == "X_OTHER"
    # a consumer that takes ENOTTY as "not supported" keeps nothing
    only_other = dataclasses.replace(site, effects=dataclasses.replace(site.effects, uncased="X_OTHER"))
    (plain,) = handlers.model([only_other], tmp_path, consumers=consumers)
    assert plain.complete and plain.kept == ()
    assert handlers.model(found, tmp_path, consumers=consumers)[0].kept == ()
    assert handlers.read_consumers(tmp_path / "none.tsv") == {}


def test_an_answer_that_cannot_be_kept_by_name_keeps_the_handler_out(tmp_path: Path) -> None:
    """`default: return -EINVAL;` on one line: no statement alone to test before."""
    code = PLAIN.replace("default:\n\t\treturn -EINVAL;", "default: return -EINVAL;")
    found = analysed(tmp_path, "a.c", code, [(line_of(code, "return -EINVAL"), "a_ioctl", "ioctl_default_return")])
    site = dataclasses.replace(found[0], effects=dataclasses.replace(found[0].effects, uncased="X_CRYPT_SET"))
    table = tmp_path / "consumers.tsv"
    table.write_text("command\tconsumer\treads\tsource\tkeep\n"
                     "X_CRYPT_SET\ts390-tools tape390_crypt (v2.41)\tEINVAL\thttps://example.org/t.c\tyes\n")
    (h,) = handlers.model([site], tmp_path, consumers=handlers.read_consumers(table))
    assert h.kept == ()
    assert h.left == ("s390-tools tape390_crypt reads its -EINVAL for X_CRYPT_SET, which cannot be kept by name: "
                      f"line {site.line} is not a `return -EINVAL;` or an assignment of it alone",)


HANDED_ON = """\
static long k_ioctl(struct file *f, unsigned int ioctl, unsigned long arg)
{
	long r;

	if (_IOC_TYPE(ioctl) != KVMIO)
		return -EINVAL;
	switch (ioctl) {
	case KVM_RUN:
		r = 0;
		break;
	default:
		r = kvm_arch_vcpu_ioctl(f, ioctl, arg);
	}
	return r;
}
static const struct file_operations fops = { .unlocked_ioctl = k_ioctl };
"""


def test_a_type_guard_whose_default_hands_the_rest_on_keeps_the_handler_out(tmp_path: Path) -> None:
    found = analysed(tmp_path, "k.c", HANDED_ON, [(line_of(HANDED_ON, "return -EINVAL"), "k_ioctl", "ioctl_ioc_guard")])
    (h,) = handlers.model(found, tmp_path)
    assert h.left == ("k_ioctl() hands the other commands of its own type to kvm_arch_vcpu_ioctl(),"
                      " which keeps its answer",)
    # a default that answers by itself leaves nothing behind
    own = HANDED_ON.replace("r = kvm_arch_vcpu_ioctl(f, ioctl, arg);", "r = -ENOTTY;")
    found = analysed(tmp_path, "k.c", own, [(line_of(own, "return -EINVAL"), "k_ioctl", "ioctl_ioc_guard")])
    assert handlers.model(found, tmp_path)[0].complete


def test_a_caller_that_answers_by_itself_in_another_configuration(tmp_path: Path) -> None:
    """rfcomm: sock.c calls the converted handler in tty.c only under
    #ifdef CONFIG_BT_RFCOMM_TTY; its #else answers -EOPNOTSUPP."""
    (tmp_path / "sock.c").write_text(
        "static int s_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg)\n{\n\tint err;\n"
        "#ifdef CONFIG_X_TTY\n\terr = x_dev_ioctl(sock, cmd, arg);\n#else\n\terr = -EOPNOTSUPP;\n#endif\n"
        "\treturn err;\n}\n")
    code = PLAIN.replace("a_ioctl", "x_dev_ioctl")
    found = analysed(tmp_path, "tty.c", code, [(line_of(code, "return -EINVAL"), "x_dev_ioctl", "ioctl_default_return")])
    (h,) = handlers.model(found, tmp_path)
    assert h.left == ("with CONFIG_X_TTY=n, sock.c answers -EOPNOTSUPP instead of calling x_dev_ioctl()",)
    (tmp_path / "sock.c").write_text((tmp_path / "sock.c").read_text().replace("-EOPNOTSUPP", "-ENOIOCTLCMD"))
    found = analysed(tmp_path, "tty.c", code, [(line_of(code, "return -EINVAL"), "x_dev_ioctl", "ioctl_default_return")])
    assert handlers.model(found, tmp_path)[0].complete


def test_a_consumer_of_the_file_keeps_its_handler_out(tmp_path: Path) -> None:
    # tools/crypto/ccp/test_dbc.py sends dbc_ioctl() unknown commands and wants errno 22
    found = analysed(tmp_path, "a.c", PLAIN, [(line_of(PLAIN, "return -EINVAL"), "a_ioctl", "ioctl_default_return")])
    table = tmp_path / "consumers.tsv"
    table.write_text("command\tconsumer\treads\tsource\tkeep\n"
                     "a.c\ttools/x/test_a.py (TestInvalid)\terrno 22\ttools/x/test_a.py\tyes\n"
                     "b.c\tother\terrno 22\tb\tyes\n")
    (h,) = handlers.model(found, tmp_path, consumers=handlers.read_consumers(table))
    assert h.left == ("tools/x/test_a.py expects EINVAL for an unknown command",)


def test_a_consumer_of_another_old_answer_names_that_errno(tmp_path: Path) -> None:
    # tools/iio reads iio_ioctl()'s -ENODEV: a known command on a device without the feature
    code = "#define A_GET_FD 5\n#define B_GET_FD 6\n" + PLAIN.replace("return -EINVAL", "return -ENODEV")
    found = analysed(tmp_path, "a.c", code, [(line_of(code, "return -ENODEV"), "a_ioctl", "ioctl_default_return")])
    found = [dataclasses.replace(s, from_="ENODEV") for s in found]
    table = tmp_path / "consumers.tsv"
    table.write_text("command\tconsumer\treads\tsource\tkeep\n"
                     "a.c\ttools/x/monitor.c (A_GET_FD)\tENODEV\ttools/x/monitor.c\tyes\n")
    (h,) = handlers.model(found, tmp_path, consumers=handlers.read_consumers(table))
    assert h.left == ("its -ENODEV is read by tools/x/monitor.c",)
    # with the commands it reads named, the handler is converted and keeps
    # -ENODEV for them alone
    table.write_text("command\tconsumer\treads\tsource\tkeep\tevidence\ttest\tsince\tcommands\n"
                     "a.c\ttools/x/monitor.c (A_GET_FD)\tENODEV\ttools/x/monitor.c\tyes\tprogram\t-\t-\tA_GET_FD,B_GET_FD\n")
    (h,) = handlers.model(found, tmp_path, consumers=handlers.read_consumers(table))
    assert h.complete
    assert [a for _s, a in h.kept] == [handlers.KeptAnswer(("A_GET_FD", "B_GET_FD"), "ENODEV", ("tools/x/monitor.c",))]


CORE = """\
long drm_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	const struct drm_ioctl_desc *ioctl = &drm_ioctls[_IOC_NR(cmd) % 8];
	drm_ioctl_t *func;
	int retcode = -EINVAL;

	func = ioctl->func;
	if (unlikely(!func)) {
		retcode = -EINVAL;
		goto err_i1;
	}
	retcode = func(filp, arg);
err_i1:
	return retcode;
}
"""


def test_a_reported_core_is_listed_and_left_out(tmp_path: Path) -> None:
    (tmp_path / "drivers/gpu/drm").mkdir(parents=True)
    name = "drivers/gpu/drm/drm_ioctl.c"
    found = analysed(tmp_path, name, CORE, [(line_of(CORE, "retcode = -EINVAL", 2), "drm_ioctl",
                                             "ioctl_missing_operation")])
    assert found[0].effects is not None and found[0].effects.reach == "no-operation"      # func = ioctl->func; if (!func)
    (h,) = handlers.model(found, tmp_path)
    assert h.left == (handlers.CORES[(name, "drm_ioctl")],)
    assert set(handlers.left_out([h])) == set(found)


SIS_TWIN = """\
static int s_ioctl(struct fb_info *info, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case 1:
		return 0;
	default:
#ifdef NEW_COMPAT
		return -ENOIOCTLCMD;
#else
		return -EINVAL;
#endif
	}
	return 0;
}
static const struct fb_ops ops = { .fb_ioctl = s_ioctl };
"""


def test_the_else_twin_of_a_leaf_converts_whole(tmp_path: Path) -> None:
    """sis: the #else -EINVAL converts; the #ifdef -ENOIOCTLCMD already
    reaches user space as ENOTTY, so only the #else configuration changes."""
    found = analysed(tmp_path, "s.c", SIS_TWIN, [(line_of(SIS_TWIN, "return -EINVAL"), "s_ioctl",
                                                  "ioctl_default_twin")])
    assert found[0].effects is not None
    assert found[0].effects.branches.startswith("only with NEW_COMPAT undefined (the other branch")
    assert handlers.model(found, tmp_path)[0].complete


def test_a_left_out_sibling_of_a_small_family_is_named(tmp_path: Path) -> None:
    # tape_34xx_ioctl() beside tape_3590_ioctl(): the other discipline keeps EINVAL
    found = analysed(tmp_path, "a.c", PLAIN, [(line_of(PLAIN, "return -EINVAL"), "a_ioctl", "ioctl_default_return")])
    a = dataclasses.replace(found[0], file="d/a.c", interface="tape_discipline.ioctl_fn")
    b = dataclasses.replace(a, file="d/b.c", function="b_ioctl")
    kept = handlers.Handler("d/b.c", "b_ioctl", (b,), ("X reaches it and a tool reads its EINVAL",))
    done = handlers.Handler("d/a.c", "a_ioctl", (a,), ())
    assert handlers.kept_siblings([a], [done, kept]) == [
        "b_ioctl() keeps -EINVAL: X reaches it and a tool reads its EINVAL."]
    # many drivers share file_operations: no sentence for the others
    many = [dataclasses.replace(kept, name=f"h{i}", sites=(dataclasses.replace(
        b, interface="file_operations.unlocked_ioctl"),)) for i in range(4)]
    f = dataclasses.replace(a, interface="file_operations.unlocked_ioctl")
    assert handlers.kept_siblings([f], many) == []
    # but one of them in the patch's own file is named (userfaultfd_ioctl()
    # beside userfaultfd_dev_ioctl())
    here = dataclasses.replace(many[0], file="d/a.c", name="uffd_ioctl",
                               sites=(dataclasses.replace(many[0].sites[0], file="d/a.c", function="uffd_ioctl"),))
    assert handlers.kept_siblings([f], many + [here]) == [
        "uffd_ioctl() keeps -EINVAL: X reaches it and a tool reads its EINVAL."]


NBD = """\
static int x_ioctl(struct block_device *bdev, blk_mode_t mode, unsigned int cmd, unsigned long arg)
{
	int error = -EINVAL;

	if (_IOC_TYPE(cmd) != 0xab)
		return -EINVAL;
	if (!test_bit(BOUND, &flags) || cmd == X_DISCONNECT)
		error = __x_ioctl(bdev, cmd, arg);
	else
		dev_err(dev, "netlink controlled\\n");
	return error;
}
"""

HEAP = """\
static long h_ioctl(struct file *file, unsigned int ucmd, unsigned long arg)
{
	int nr = _IOC_NR(ucmd);
	unsigned int kcmd;

	if (nr >= ARRAY_SIZE(h_cmds))
		return -EINVAL;
	kcmd = h_cmds[nr];
	return h_do(file, kcmd, arg);
}
"""


def test_a_dispatch_a_state_check_refuses_keeps_the_handler_out(tmp_path: Path) -> None:
    # an initialiser the netlink-bound device leaves every command with
    found = analysed(tmp_path, "a.c", NBD, [(line_of(NBD, "int error = -EINVAL"), "x_ioctl", "ioctl_switch_no_default")])
    (h,) = handlers.model(found, tmp_path)
    assert h.left == ("x_ioctl() calls __x_ioctl() only when a check of the state passes, and answers "
                      "-EINVAL to every other command first",)


def test_a_type_guard_above_the_refused_dispatch_answers_before_the_state_check(tmp_path: Path) -> None:
    # nbd_ioctl(): a foreign command meets the guard before the netlink check
    found = analysed(tmp_path, "a.c", NBD, [(line_of(NBD, "return -EINVAL"), "x_ioctl", "ioctl_ioc_guard")])
    (h,) = handlers.model(found, tmp_path)
    assert h.left == ()
    # ... and its message says where the other commands still get -EINVAL
    assert h.caveats == ("A command that passes the check this patch changes still gets -EINVAL from "
                         "x_ioctl() unless `!test_bit(BOUND, &flags) || cmd == X_DISCONNECT` holds, an "
                         "unknown one included.",)


def test_a_table_picked_by_number_alone_is_said_in_the_message(tmp_path: Path) -> None:
    # dma_heap_ioctl(): every number past the table changes; a command of
    # another type numbered 0 is still taken for ALLOC, as before
    site = (line_of(HEAP, "return -EINVAL"), "h_ioctl", "ioctl_ioc_guard")
    found = analysed(tmp_path, "a.c", HEAP, [site])
    (h,) = handlers.model(found, tmp_path)
    assert h.complete
    assert h.caveats == ("The exception is a command of another type with the number of a known one: h_ioctl() "
                         "looks a command up in h_cmds[] by its number alone, so such a command still runs "
                         "the known one, as before.",)
    assert handlers.caveats(h.sites, [h]) == list(h.caveats)
    # with a type check in the file, or the command compared first, nothing to say
    typed = HEAP.replace("\tint nr", "\tif (_IOC_TYPE(ucmd) != 'H')\n\t\treturn -ENOTTY;\n\tint nr")
    found = analysed(tmp_path, "b.c", typed, [(line_of(typed, "return -EINVAL"), "h_ioctl", "ioctl_ioc_guard")])
    assert handlers.model(found, tmp_path)[0].caveats == ()


def test_a_header_site_is_in_the_row_of_each_handler_it_changes(tmp_path: Path) -> None:
    """7.2's tun_vnet_ioctl() in drivers/net/tun_vnet.h: one site, in the
    rows of tap.c's tap_ioctl() and tun.c's tun_chr_ioctl(), each judged
    whole (a check of either before the call would leave both out)."""
    from .effects_test import TAP_C, TUN_C, VNET_H
    folder = tmp_path / "drivers/demo"
    folder.mkdir(parents=True)
    for name, text in (("vnet.h", VNET_H), ("tap.c", TAP_C), ("tun.c", TUN_C)):
        (folder / name).write_text(text)
    raw = Site("drivers/demo/vnet.h", 7, "demo_vnet_ioctl", FOPS, "EINVAL", "ENOTTY", "ioctl_default_return")
    site = dataclasses.replace(raw, effects=effects.analyse_sites([raw], tmp_path)[raw])
    model = handlers.model([site], tmp_path, consumers={})
    assert [(h.file, h.name, h.sites, h.left) for h in model] == [
        ("drivers/demo/tap.c", "tap_ioctl", (site,), ()), ("drivers/demo/tun.c", "tun_chr_ioctl", (site,), ())]
    out = io.StringIO()
    handlers.write_tsv(model, {site: "tun-tap"}, out)
    assert [(r["file"], r["handler"], r["functions"], r["sites"], r["series"], r["verdict"])
            for r in handlers.read_tsv(io.StringIO(out.getvalue()))] == [
        ("drivers/demo/tap.c", "tap_ioctl", "demo_vnet_ioctl", "7", "tun-tap", "converted"),
        ("drivers/demo/tun.c", "tun_chr_ioctl", "demo_vnet_ioctl", "7", "tun-tap", "converted")]
    # tun's state check answering the old errno first leaves both handlers' one site out
    (folder / "tun.c").write_text(TUN_C.replace("-EBADFD", "-EINVAL"))
    site = dataclasses.replace(raw, effects=effects.analyse_sites([raw], tmp_path)[raw])
    why = handlers.left_out(handlers.model([site], tmp_path, consumers={}))[site]
    # the check is named with its line and condition
    assert why.endswith("() left out: a check before the dispatch (state check; line 8: `!tun`) answers -EINVAL first"
                        "; testing the command first, as pidfd_ioctl() does, is a change of its own")


VALID_FIRST = """\
static bool p_ioctl_valid(unsigned int cmd)
{
	switch (cmd) {
	case P_GET_INFO:
		return true;
	}
	return false;
}
static long p_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int error;

	if (!p_ioctl_valid(cmd))
		return -ENOIOCTLCMD;
	if (arg)
		return -EINVAL;
	return p_info(file, arg);
}
static const struct file_operations fops = { .unlocked_ioctl = p_ioctl };
"""


def leaf(tmp_path: Path, code: str) -> list[Site]:
    (tmp_path / "p.c").write_text(code)
    raw = [Site("p.c", line_of(code, "return -ENOIOCTLCMD"), "p_ioctl", FOPS, "ENOIOCTLCMD", "ENOTTY",
                "ioctl_leaf_enoioctlcmd")]
    eff = effects.analyse_sites(raw, tmp_path)
    return [dataclasses.replace(s, effects=eff[s]) for s in raw]


def test_a_validity_test_first_keeps_its_enoioctlcmd_even_from_the_cleanup(tmp_path: Path) -> None:
    """pidfs and nsfs in 7.2: the command is tested first, -ENOIOCTLCMD on purpose."""
    found = leaf(tmp_path, VALID_FIRST)
    (h,) = handlers.model(found, tmp_path)
    assert h.left == ("p_ioctl() tests the command with p_ioctl_valid() before anything else and answers "
                      "-ENOIOCTLCMD on purpose for every command that fails it; vfs_ioctl() already turns "
                      "that into ENOTTY, so the line stays as upstream wrote it",)
    assert set(handlers.left_out([h])) == set(found)


def test_a_leaf_after_another_check_stays_a_cleanup(tmp_path: Path) -> None:
    # a check of the argument before the validity test: not the command first
    code = VALID_FIRST.replace("\tif (!p_ioctl_valid(cmd))", "\tif (!arg)\n\t\treturn -EFAULT;\n\tif (!p_ioctl_valid(cmd))")
    (h,) = handlers.model(leaf(tmp_path, code), tmp_path)
    assert h.complete and handlers.left_out([h]) == {}
    # a function that is not a bool predicate of the command
    code = VALID_FIRST.replace("static bool p_ioctl_valid", "static int p_ioctl_valid")
    assert handlers.model(leaf(tmp_path, code), tmp_path)[0].complete


GONE_FIRST = """\
static long i_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct i_handler *h;
	int ret;

	if (!dev->info)
		return -ENODEV;

	list_for_each_entry(h, &handlers, entry) {
		ret = h->ioctl(filp, cmd, arg);
		if (ret != I_UNHANDLED)
			return ret;
	}

	return -ENODEV;
}
static const struct file_operations fops = { .unlocked_ioctl = i_ioctl };
"""


def test_a_device_gone_check_keeps_no_enodev_exit_out(tmp_path: Path) -> None:
    # iio_ioctl(): the converted exit answered -ENODEV, and so does the check
    # of a device that is gone; that check is no old answer of the exit
    (tmp_path / "i.c").write_text(GONE_FIRST)
    raw = [Site("i.c", line_of(GONE_FIRST, "return -ENODEV", 2), "i_ioctl", FOPS, "ENODEV", "ENOTTY",
                "ioctl_subhandler_miss")]
    found = [dataclasses.replace(s, effects=effects.analyse_sites(raw, tmp_path)[s]) for s in raw]
    assert found[0].effects is not None and "(state check)" in found[0].effects.guard
    (h,) = handlers.model(found, tmp_path, consumers={})
    assert h.complete and h.left == ()


def test_a_sibling_kept_by_a_check_first_names_both_of_its_exits(tmp_path: Path) -> None:
    # userfaultfd_ioctl(): the state check before UFFDIO_API and the -EINVAL
    # its switch without default returns; the message names both
    found = analysed(tmp_path, "a.c", PLAIN, [(line_of(PLAIN, "return -EINVAL"), "a_ioctl", "ioctl_default_return")])
    a = found[0]
    b = dataclasses.replace(a, function="uffd_ioctl", rule="ioctl_switch_no_default")
    why = ("a check before the dispatch (state check; line 3: `!ctx`) answers -EINVAL first"
           "; testing the command first, as pidfd_ioctl() does, is a change of its own")
    kept = handlers.Handler(a.file, "uffd_ioctl", (b,), (why,))
    assert handlers.kept_siblings([a], [handlers.Handler(a.file, "a_ioctl", (a,), ()), kept]) == [
        "uffd_ioctl() keeps -EINVAL: a check before the dispatch (state check; `!ctx`) answers -EINVAL "
        "first, and the -EINVAL it sets before its switch answers an unknown command "
        "that passes it; this patch changes neither (testing the command first, as pidfd_ioctl() does, is a "
        "change of its own)."]


RUST_PROCESS = """impl Process {
    fn ioctl_write_only(this: ArcBorrow<'_, Process>, cmd: u32) -> Result {
        match cmd {
            uapi::BINDER_SET_MAX_THREADS => this.set_max_threads(),
            _ => return Err(EINVAL),
        }
        Ok(())
    }
}

impl Process {
    pub(crate) fn ioctl(this: ArcBorrow<'_, Process>, cmd: u32, arg: usize) -> Result {
        match _IOC_DIR(cmd) {
            _IOC_WRITE => Self::ioctl_write_only(this, cmd),
            _ => Err(EINVAL),
        }
    }
}
"""


def test_a_rust_ioctl_of_a_changed_module_is_kept_and_named(tmp_path: Path) -> None:
    # 7.2's rust_binder: the series changes rust_binderfs.c's binder_ctl_ioctl()
    # only; Process::ioctl() in process.rs is Rust and keeps -EINVAL
    folder = tmp_path / "drivers/android/binder"
    folder.mkdir(parents=True)
    (folder / "Makefile").write_text("obj-$(CONFIG_X) += rust_binder.o\nrust_binder-y := \\\n"
                                     "\trust_binder_main.o\t\\\n\trust_binderfs.o\n")
    (folder / "rust_binder_main.rs").write_text("mod process;\n")
    (folder / "process.rs").write_text(RUST_PROCESS)
    assert handlers.rust_ioctls(tmp_path, "rust_binder", "drivers/android/binder") == [
        "Process::ioctl() in drivers/android/binder/process.rs"]
    assert handlers.rust_ioctls(tmp_path, "binder_linux", "drivers/android/binder") == []
    s = Site("drivers/android/binder/rust_binderfs.c", 220, "binder_ctl_ioctl", "file_operations.unlocked_ioctl",
             "EINVAL", "ENOTTY", "ioctl_switch_no_default")
    kept = handlers.kept_in_modules(tmp_path, [], [s], {s.file: "rust_binder"})
    assert kept == {"rust_binder": [("Process::ioctl() in drivers/android/binder/process.rs",
                                     "Process::ioctl() in drivers/android/binder/process.rs is Rust, which "
                                     "Coccinelle does not read, and still answers an unknown command with "
                                     "-EINVAL")]}
    # a crate of no .rs root: nothing
    (folder / "rust_binder_main.rs").unlink()
    assert handlers.rust_ioctls(tmp_path, "rust_binder", "drivers/android/binder") == []


def test_a_left_out_handler_of_a_changed_module_is_kept_for_the_cover(tmp_path: Path) -> None:
    found = analysed(tmp_path, "a.c", PLAIN, [(line_of(PLAIN, "return -EINVAL"), "a_ioctl", "ioctl_default_return")])
    a = found[0]
    b = dataclasses.replace(a, function="b_ioctl")
    model = [handlers.Handler(a.file, "a_ioctl", (a,), (), "m"),
             handlers.Handler(a.file, "b_ioctl", (b,), ("a tool reads its EINVAL",), "m"),
             handlers.Handler("o.c", "c_ioctl", (dataclasses.replace(b, file="o.c"),), ("x",), "other")]
    assert handlers.kept_in_modules(tmp_path, model, [a], {a.file: "m", "o.c": "other"}) == {
        "m": [("b_ioctl()", "b_ioctl() keeps -EINVAL: a tool reads its EINVAL")]}


# dmasound: mixer_ioctl() answers -EINVAL itself only where the machine's
# vector has no mixer_ioctl (machQ40); the others' operations answer for it
SND_H = """\
typedef struct {
	const char *name;
	int (*mixer_ioctl)(unsigned int, unsigned long);
} MACHINE;
struct sound_settings {
	MACHINE mach;
	int volume;
};
extern struct sound_settings snd;
"""
SND_CORE = """\
#include "snd.h"
struct sound_settings snd;
static long mixer_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case 1:
		return 0;
	}
	if (snd.mach.mixer_ioctl)
		return snd.mach.mixer_ioctl(cmd, arg);
	return -EINVAL;
}
static const struct file_operations fops = { .unlocked_ioctl = mixer_ioctl };
"""
SND_ATARI = """\
#include "snd.h"
static int AtaMixer(unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case 2:
		return 0;
	}
	return -EINVAL;
}
static int TTMixer(unsigned int cmd, unsigned long arg)
{
	return AtaMixer(cmd, arg);
}
static MACHINE machTT = {
	.name = "tt",
	.mixer_ioctl = TTMixer,
};
"""
SND_Q40 = """\
#include "snd.h"
static MACHINE machQ40 = {
	.name = "q40",
};
"""


def _dispatcher(tmp_path: Path, others: dict[str, str]) -> tuple[Site, list[handlers.Handler]]:
    (tmp_path / "sound").mkdir()
    (tmp_path / "sound/snd.h").write_text(SND_H)
    for name, text in others.items():
        (tmp_path / "sound" / name).write_text(text)
    site, = analysed(tmp_path, "sound/core.c", SND_CORE,
                     [(line_of(SND_CORE, "return -EINVAL"), "mixer_ioctl", "ioctl_final_return")])
    assert site.effects is not None and site.effects.reach == "no-operation"
    return site, handlers.model([site], tmp_path, consumers={})


def test_a_machine_without_the_operation_is_named_and_the_others_keep_the_handler_out(tmp_path: Path) -> None:
    site, (h,) = _dispatcher(tmp_path, {"atari.c": SND_ATARI, "q40.c": SND_Q40})
    assert h.left == (
        "mixer_ioctl() answers this -EINVAL only for a MACHINE without .mixer_ioctl: machQ40 (sound/q40.c); "
        "on the others the operation answers unknown commands itself with -EINVAL (TTMixer() of machTT) "
        "and no site of this output is in it, so converting this line alone would change machQ40 only",)
    assert handlers.left_out([h])[site].startswith("sound/core.c: mixer_ioctl() left out: mixer_ioctl() answers")


def test_a_dispatcher_whose_every_vector_has_the_operation_names_them(tmp_path: Path) -> None:
    site, (h,) = _dispatcher(tmp_path, {"atari.c": SND_ATARI})
    assert h.left == ()
    assert handlers.left_out([h]) == {site: (
        "sound/core.c: every MACHINE in the tree sets .mixer_ioctl (machTT (sound/atari.c)), so mixer_ioctl() "
        "hands each command it has no case for to TTMixer() and never answers with this -EINVAL")}


def test_a_vector_without_the_operation_and_none_that_keeps_the_old_answer_converts(tmp_path: Path) -> None:
    # atm_dev_ioctl(): solos-pci's fpga_ops has no ioctl, usbatm's answers
    # -ENOIOCTLCMD, which the core maps: nothing keeps the line
    site, (h,) = _dispatcher(tmp_path, {"atari.c": SND_ATARI.replace("return -EINVAL;", "return -ENOIOCTLCMD;"),
                                        "q40.c": SND_Q40})
    assert h.complete and handlers.left_out([h]) == {}


def test_a_restructured_exit_is_named_when_its_handler_is_left_out():
    # cache_ioctl()'s `cmd != FIONREAD || !rp` is no return after the
    # dispatch; "its own answer after the dispatch" would misname it
    from ..find import sites
    assert set(sites.RESTRUCTURES) <= set(handlers._EXIT_WORDS)


def test_a_program_the_change_helps_is_named_once_with_its_commands() -> None:
    """cpwd: systemd's hardware watchdog takes ENOTTY as "not supported";
    a row it calls unreached, and a command with a case, say nothing."""
    from .consumers import Consumer
    rows = [Consumer("WDIOC_SETTIMEOUT", "systemd PID 1 hardware watchdog (cpwd only)", "-", "-", keep=False),
            Consumer("WDIOC_GETTIMEOUT", "systemd PID 1 hardware watchdog (cpwd only)", "-", "-", keep=False),
            Consumer("WDIOC_SETPRETIMEOUT", "systemd PID 1 hardware watchdog (not reached in practice)", "-",
                     "-", keep=False),
            Consumer("WDIOC_GETTEMP", "somebody (keeps)", "-", "-", keep=True)]
    bare = Site("drivers/watchdog/cpwd.c", 470, "cpwd_ioctl", "file_operations.unlocked_ioctl", "EINVAL",
                "ENOTTY", "ioctl_default_return")
    site = dataclasses.replace(bare, effects=Effects(
        "both", "yes", "-", "all", "WDIOC_GETTIMEOUT,WDIOC_SETPRETIMEOUT,WDIOC_SETTIMEOUT,WDIOC_GETTEMP",
        "-", "-", "yes"))
    assert handlers.helped_consumers([site], rows) == [
        ("systemd PID 1 hardware watchdog", ["WDIOC_GETTIMEOUT", "WDIOC_SETTIMEOUT"])]
    assert handlers.helped_consumers([bare], rows) == []


def test_a_member_whose_core_the_file_feeds_known_commands_only_is_unseen(tmp_path: Path) -> None:
    """sit: ipip6_tunnel_siocdevprivate() calls ip_tunnel_siocdevprivate()
    under its four tunnel cases only, so ipip6_tunnel_ctl()'s default (the
    file's ndo_tunnel_ctl) answers no one (a reviewer); ipip binds the core
    itself and stays reachable."""
    code = ("static int t_ctl(struct net_device *dev, struct ip_tunnel_parm_kern *p, int cmd)\n{\n"
            "\tswitch (cmd) {\n\tcase SIOCGETTUNNEL:\n\t\treturn 0;\n\tdefault:\n\t\treturn -EINVAL;\n\t}\n}\n"
            "static int t_priv(struct net_device *dev, struct ifreq *ifr, void __user *data, int cmd)\n{\n"
            "\tswitch (cmd) {\n\tcase SIOCGETTUNNEL:\n\t\treturn ip_tunnel_siocdevprivate(dev, ifr, data, cmd);\n"
            "\tdefault:\n\t\treturn -EINVAL;\n\t}\n}\n"
            "static const struct net_device_ops ops = {\n\t.ndo_siocdevprivate = t_priv,\n\t.ndo_tunnel_ctl = t_ctl,\n};\n")
    (tmp_path / "sit.c").write_text(code)
    (tmp_path / "ipip.c").write_text(code.replace("= t_priv", "= ip_tunnel_siocdevprivate"))
    tree = effects.Tree(tmp_path)
    site = Site("sit.c", 7, "t_ctl", "net_device_ops.ndo_tunnel_ctl", "EINVAL", "EOPNOTSUPP", "ioctl_default_return")
    assert "t_priv() hands ip_tunnel_siocdevprivate() only the commands it has cases for" in \
        handlers._core_filtered(tree, site)
    assert handlers._core_filtered(tree, dataclasses.replace(site, file="ipip.c")) == ""
