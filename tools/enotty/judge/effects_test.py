"""effects.py on excerpts of the real 6.12 handlers (testdata/effects/tree)."""
from pathlib import Path

import pytest

from .. import cli
from . import effects
from ..find.sites import Site
from ..find import ctext

TREE = Path(__file__).parents[1] / "testdata" / "effects" / "tree"


def site(file, line, function, interface="file_operations.unlocked_ioctl", from_="EINVAL",
         to="ENOTTY", rule="ioctl_default_return"):
    return Site(file, line, function, interface, from_, to, rule)


def analyse(*sites):
    return effects.analyse_sites(list(sites), TREE)


FLOPPY_NATIVE = site("drivers/block/floppy.c", 84, "fd_locked_ioctl",
                     "block_device_operations.ioctl")
FLOPPY_COMPAT = site("drivers/block/floppy.c", 120, "fd_compat_ioctl",
                     "block_device_operations.compat_ioctl", rule="ioctl_switch_no_default")


def test_floppy_guard_and_normaliser_make_the_native_default_unreachable():
    got = analyse(FLOPPY_NATIVE, FLOPPY_COMPAT)
    native = got[FLOPPY_NATIVE]
    assert native.reach == "no"
    assert native.visible == "unreachable"
    # both checks before the switch, each with its line and its kind
    assert "line 43: !((cmd & 0xff00) == 0x0200) -> -EINVAL (unknown-command answer)" in native.guard
    assert "line 48: normalize_ioctl(&cmd, &size) -> -EINVAL (command normaliser)" in native.guard
    # the WARN_ON assertion and the copy-in block are not answers to unknown commands
    assert "WARN_ON" not in native.guard and "line 63" not in native.guard
    # fd_compat_ioctl() calls fd_ioctl() only for listed commands: native only
    assert native.paths == "native"


def test_floppy_compat_default_is_reached():
    got = analyse(FLOPPY_NATIVE, FLOPPY_COMPAT)[FLOPPY_COMPAT]
    assert (got.paths, got.reach, got.guard, got.visible) == ("compat", "yes", "-", "yes")


def test_fsl_diu_argument_check_answers_first():
    s = site("drivers/video/fbdev/fsl-diu-fb.c", 31, "fsl_diu_ioctl", "fb_ops.fb_ioctl",
             from_="ENOIOCTLCMD", rule="ioctl_leaf_enoioctlcmd")
    got = analyse(s)[s]
    assert got.reach == "partly"
    assert got.guard == "line 10: !arg -> -EINVAL (argument check)"
    assert got.visible == "invisible"       # a leaf: the VFS made it ENOTTY already
    assert got.paths == "native"            # no .fb_compat_ioctl


def test_sis_else_twin_keeps_einval():
    s = site("drivers/video/fbdev/sis/sis_main.c", 20, "sisfb_ioctl", "fb_ops.fb_ioctl",
             from_="ENOIOCTLCMD", rule="ioctl_leaf_enoioctlcmd")
    got = analyse(s)[s]
    assert got.branches == "#else branch (of #ifdef SIS_NEW_CONFIG_COMPAT) keeps -EINVAL at line 22"
    assert got.paths == "both"              # .fb_compat_ioctl = sisfb_ioctl


def test_twin_converted_too_is_all():
    a = site("drivers/video/fbdev/sis/sis_main.c", 20, "sisfb_ioctl", "fb_ops.fb_ioctl",
             from_="ENOIOCTLCMD", rule="ioctl_leaf_enoioctlcmd")
    b = site("drivers/video/fbdev/sis/sis_main.c", 22, "sisfb_ioctl", "fb_ops.fb_ioctl")
    got = analyse(a, b)
    assert got[a].branches == "all"
    # the #else line is built only without the #ifdef branch, whose leaf
    # -ENOIOCTLCMD user space already sees as ENOTTY
    assert got[b].branches.startswith("only with SIS_NEW_CONFIG_COMPAT undefined (the other branch")


def test_opl3_known_commands_without_a_case():
    s = site("sound/drivers/opl3/opl3_oss.c", 24, "snd_opl3_ioctl_seq_oss",
             "snd_seq_oss_callback.ioctl")
    got = analyse(s)[s]
    # RESETSAMPLES is passed on by snd_seq_oss_ioctl(), PERCMODE and
    # SYNTH_CONTROL by its default; RESET, SYNC and PANIC the core answers
    # itself; 'T' is another family.  Kin of a handled command
    # (SNDCTL_SYNTH_MEMAVL) come first.
    assert got.uncased == "SNDCTL_SYNTH_CONTROL,SNDCTL_SEQ_PERCMODE,SNDCTL_SEQ_RESETSAMPLES"
    assert got.uncased_commands()[2] == "SNDCTL_SEQ_RESETSAMPLES"
    assert got.paths == "both"


def test_socket_handler_forwards_to_dev_ioctl():
    s = site("net/mctp/af_mctp.c", 18, "mctp_ioctl", "proto_ops.ioctl", to="ENOIOCTLCMD",
             rule="ioctl_switch_no_default")
    got = analyse(s)[s]
    assert "dev_ioctl()" in got.forward and "SIOC*" in got.forward
    # mctp_compat_ioctl() handles its own commands and answers -ENOIOCTLCMD
    # for the rest; compat_sock_ioctl_trans() then hands the SIOC* commands
    # it knows to sock_do_ioctl(), and so to mctp_ioctl()
    assert got.paths == "native+SIOC-compat"
    not_socket = site("drivers/char/ppdev.c", 38, "pp_do_ioctl")
    assert analyse(not_socket)[not_socket].forward == "-"


def test_scsi_core_fallback_on_compat_without_compat_ioctl():
    s = site("drivers/scsi/smartpqi/smartpqi_init.c", 23, "pqi_ioctl", "scsi_host_template.ioctl",
             rule="ioctl_default_assign")
    got = analyse(s)[s]
    assert got.fallback == ("compat: scsi_ioctl() in drivers/scsi/scsi_ioctl.c answers "
                            "-EINVAL (no .compat_ioctl)")
    assert got.paths == "native"
    # the header's other 'B' commands have no case
    assert got.uncased == "CCISS_GETHEARTBEAT,CCISS_RESCANDISK"


def test_if_cmd_rejects_every_command():
    s = site("drivers/staging/media/atomisp/pci/atomisp_ioctl.c", 17, "atomisp_vidioc_default",
             "v4l2_ioctl_ops.vidioc_default", rule="ioctl_default_assign")
    got = analyse(s)[s]
    assert (got.reach, got.visible) == ("no", "unreachable")
    assert got.guard == "line 6: cmd -> -EINVAL (every command)"
    # v4l2_compat_ioctl32() passes only 'V' commands below BASE_VIDIOC_PRIVATE on
    assert got.paths == "native+V-compat"


def test_guard_for_named_known_commands_is_not_a_guard():
    s = site("fs/udf/file.c", 29, "udf_ioctl", from_="ENOIOCTLCMD", rule="ioctl_leaf_enoioctlcmd")
    got = analyse(s)[s]
    # the EINVAL check names known commands only: no guard; the permission
    # check before the switch answers every command first: a state check
    assert got.reach == "partly" and "UDF_GETVOLIDENT" not in got.guard
    assert got.guard.startswith("line 8: file_permission(filp, MAY_READ) != 0 -> -EPERM (state check)")


def test_state_check_before_second_switch_and_compat_ptr_ioctl():
    s = site("drivers/char/ppdev.c", 38, "pp_do_ioctl")
    got = analyse(s)[s]
    assert got.reach == "partly"
    assert got.guard == "line 22: (pp->flags & PP_CLAIMED) == 0 -> -EINVAL (state check)"
    assert got.paths == "both"       # pp_ioctl() and .compat_ioctl = compat_ptr_ioctl
    # PPGETTIME is handled as PPGETTIME32 (same number); PPGETMODES has no case
    assert got.uncased == "PPGETMODES"


def test_no_compat_ioctl_is_native():
    s = site("drivers/char/ppdev.c", 68, "nocompat_ioctl")
    got = analyse(s)[s]
    # PPEXCL and PPRSTATUS are pp_do_ioctl()'s cases: another function's
    # commands of the file are not listed as this handler's
    assert (got.paths, got.reach, got.branches, got.uncased) == ("native", "yes", "all", "PPGETMODES")


def test_missing_file_or_function_is_unknown_not_a_guess():
    s = site("drivers/none.c", 3, "x_ioctl")
    got = analyse(s)[s]
    assert (got.paths, got.reach, got.visible) == ("unknown", "unknown", "unknown")


@pytest.mark.parametrize("cond,terms", [
    ("!arg && ((cmd == A) || (cmd == B))", ["!arg", "((cmd == A) || (cmd == B))"]),
    ("(a || b)", ["a", "b"]),
    ("f(x && y)", ["f(x && y)"]),
])
def test_operands(cond, terms):
    assert effects.operands(cond) == terms


GENWQE_GUARD = site("drivers/misc/genwqe/card_dev.c", 15, "genwqe_ioctl", rule="ioctl_ioc_guard")
GENWQE_DEFAULT = site("drivers/misc/genwqe/card_dev.c", 22, "genwqe_ioctl")


def test_type_guard_answers_first_unless_the_series_converts_it():
    alone = analyse(GENWQE_DEFAULT)[GENWQE_DEFAULT]
    assert alone.reach == "partly"
    assert alone.guard == ("line 11: pci_channel_offline(pci_dev) -> -EIO (state check); "
                           "line 14: _IOC_TYPE(cmd) != GENWQE_IOC_CODE -> -EINVAL (unknown-command answer)")
    both = analyse(GENWQE_GUARD, GENWQE_DEFAULT)[GENWQE_DEFAULT]
    # the series converts the type guard; a dead PCI channel still answers first
    assert (both.reach, both.guard) == ("partly", "line 11: pci_channel_offline(pci_dev) -> -EIO (state check)")
    # genwqe_compat_ioctl() is not in the file: no verdict on the compat path
    assert both.paths == "unknown"


def test_main_summary_and_one_line_errors(tmp_path, capsys):
    tsv = tmp_path / "sites.tsv"
    tsv.write_text("\t".join(("file", "line", "function", "interface", "from", "to", "rule",
                              "subsystem", "series")) + "\n"
                   "drivers/block/floppy.c\t84\tfd_locked_ioctl\tblock_device_operations.ioctl\t"
                   "EINVAL\tENOTTY\tioctl_default_return\tFLOPPY DRIVER\tfloppy\n")
    assert cli.main(["effects", str(tsv), "--kdir", str(TREE), "--summary"]) == 0
    out = capsys.readouterr().out
    assert "reach: no 1" in out and "drivers/block/floppy.c:84 fd_locked_ioctl() paths=native reach=no" in out
    assert cli.main(["effects", str(tsv), "--kdir", str(TREE)]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].endswith("\tpaths\treach\tguard\tbranches\tuncased\tforward\tfallback\tvisible"
                             "\tentry")
    assert table[1].split("\t")[9:11] == ["native", "no"]
    assert cli.main(["effects", str(tmp_path / "none.tsv"), "--kdir", str(TREE)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("enotty: ") and err.count("\n") == 1


def test_case_groups_join_a_fallthrough_to_the_next_group():
    code = ctext.blank_lexemes("""int f(int cmd)
{
	switch (cmd) {
	case A:
		return 0;
	case B:
		if (!capable(CAP_NET_ADMIN))
			return -EPERM;
		fallthrough;
	case C:
	default:
		return dev->ops->ioctl(dev, cmd);
	}
}
""")
    cf = effects.CFile("x.c", code)
    (fn,) = effects.functions(cf, "f")
    (sw,) = effects.switches(cf.code, fn)
    groups = [(labels, "ops->ioctl" in text) for labels, text in effects.case_groups(cf.code, sw)]
    assert groups == [(["A"], False), (["B", "C", "default"], True)]


def test_an_error_set_before_a_jump_is_the_guard_answer(tmp_path):
    # tun: `ret = -EBADFD; if (!tun) goto unlock;` answers every command on
    # an fd not attached to a device yet, before the switch
    c = tmp_path / "drivers" / "net" / "tun.c"
    c.parent.mkdir(parents=True)
    c.write_text("static long __tun_chr_ioctl(struct file *file, unsigned int cmd, unsigned long arg)\n"
                 "{\n\tstruct tun_struct *tun;\n\tint ret;\n\n\ttun = tun_get(file);\n"
                 "\tret = -EBADFD;\n\tif (!tun)\n\t\tgoto unlock;\n\n\tswitch (cmd) {\n"
                 "\tcase TUNGETIFF:\n\t\tret = 0;\n\t\tbreak;\n\tdefault:\n\t\tret = -EINVAL;\n"
                 "\t\tbreak;\n\t}\nunlock:\n\treturn ret;\n}\n")
    s = Site("drivers/net/tun.c", 16, "__tun_chr_ioctl", "file_operations.unlocked_ioctl",
             "EINVAL", "ENOTTY", "ioctl_default_assign")
    got = effects.analyse_sites([s], tmp_path)[s]
    assert got.reach == "partly" and got.guard == "line 8: !tun -> -EBADFD (state check)"


def test_a_split_command_and_state_test_is_no_guard_and_names_its_command(tmp_path):
    # net/sunrpc/cache.c cache_ioctl(): if (cmd != FIONREAD || !rp) return
    # -EINVAL; ioctl_cmd_state_split tests the command first, so the state
    # test answers no unknown command; FIONREAD is the command it knows
    c = tmp_path / "net" / "sunrpc" / "cache.c"
    c.parent.mkdir(parents=True)
    c.write_text("static int cache_ioctl(struct inode *ino, struct file *filp,\n"
                 "\t\t       unsigned int cmd, unsigned long arg,\n\t\t       struct cache_detail *cd)\n"
                 "{\n\tint len = 0;\n\tstruct cache_reader *rp = filp->private_data;\n\n"
                 "\tif (cmd != FIONREAD || !rp)\n\t\treturn -EINVAL;\n\n\tlen = cache_len(cd, rp);\n"
                 "\treturn put_user(len, (int __user *)arg);\n}\n")
    s = Site("net/sunrpc/cache.c", 9, "cache_ioctl", "file_operations.unlocked_ioctl",
             "EINVAL", "ENOTTY", "ioctl_cmd_state_split")
    got = effects.analyse_sites([s], tmp_path)[s]
    assert (got.reach, got.guard, got.visible) == ("yes", "-", "yes")
    cf = effects.CFile(s.file, c.read_text())
    fn = effects.functions(cf, "cache_ioctl")[0]
    assert effects.dispatch_labels(cf, fn, s) == ({"FIONREAD"}, {})


GPIO = "drivers/gpio/gpiolib-cdev.c"


def test_gpio_if_chain_leaves_the_commands_of_other_handlers_out():
    # lineevent_ioctl() handles GPIOHANDLE_GET_LINE_VALUES_IOCTL only; the
    # SET_* ones belong to linehandle_ioctl() of the same file, another fd:
    # listing them read as if working commands broke (cxl, vduse reviews)
    s = site(GPIO, 96, "lineevent_ioctl", rule="ioctl_if_chain")
    got = analyse(s)[s]
    names = got.uncased_commands()
    assert "GPIOHANDLE_SET_CONFIG_IOCTL" not in names
    assert "GPIOHANDLE_SET_LINE_VALUES_IOCTL" not in names
    assert "GPIOHANDLE_GET_LINE_VALUES_IOCTL" not in names


def test_gpio_cases_under_ifdef_are_uncased_in_that_configuration():
    s = site(GPIO, 135, "gpio_ioctl")
    got = analyse(s)[s]
    conditional = [c for c in got.uncased.split(",") if "[" in c]
    assert conditional == [f"GPIO_GET_{n}_IOCTL[CONFIG_GPIO_CDEV_V1=n]"
                           for n in ("LINEEVENT", "LINEHANDLE", "LINEINFO", "LINEINFO_WATCH")]
    assert "GPIO_GET_CHIPINFO_IOCTL" not in got.uncased_commands()
    # the line fds' commands have no case on the chip fd
    assert "GPIO_V2_LINE_SET_VALUES_IOCTL" in got.uncased_commands()
    assert "GPIO_GET_LINEHANDLE_IOCTL" in got.uncased_commands()   # the name, without its condition
    assert got.entry == "-"                                        # .unlocked_ioctl = gpio_ioctl


@pytest.mark.parametrize("directive,negate,absent", [
    ("#ifdef CONFIG_GPIO_CDEV_V1", False, "CONFIG_GPIO_CDEV_V1=n"),
    ("#ifdef CONFIG_GPIO_CDEV_V1", True, "CONFIG_GPIO_CDEV_V1=y"),
    ("#ifndef CONFIG_COMPAT", False, "CONFIG_COMPAT=y"),
    ("#if IS_ENABLED(CONFIG_PPC64)", False, "CONFIG_PPC64=n"),
    ("#ifdef __sparc__", False, "__sparc__ undefined"),
    ("#if defined(A) && defined(B)", False, "config"),
])
def test_absent_when(directive, negate, absent):
    assert effects.absent_when(directive, negate) == absent


def test_atm_socket_level_commands_are_not_the_drivers():
    # do_vcc_ioctl() and svc_ioctl() take ATM_SETBACKEND, ATM_NEWBACKENDIF,
    # ATM_ADDPARTY and ATM_DROPPARTY (socket level, for protocol modules);
    # atm_dev_ioctl() passes ATM_SETCIRANGE and SONET_* on to the driver
    s = site("drivers/atm/fore200e.c", 28, "fore200e_ioctl", "atmdev_ops.ioctl", from_="ENOSYS",
             rule="ioctl_switch_no_default")
    got = analyse(s)[s]
    names = got.uncased_commands()
    assert not {"ATM_SETBACKEND", "ATM_NEWBACKENDIF", "ATM_ADDPARTY", "ATM_DROPPARTY",
                "ATM_SETSC", "ATM_GETNAMES", "ATM_GETTYPE"} & set(names)
    assert sorted(names) == ["ATM_SETCIRANGE", "SONET_CLRDIAG", "SONET_GETFRAMING",
                             "SONET_GETFRSENSE", "SONET_GETSTATZ", "SONET_SETDIAG",
                             "SONET_SETFRAMING"]


def test_atm_without_the_core_files_no_command_is_called_uncased(tmp_path):
    # a tree without net/atm/: no filter, so no guess either way is made
    # about the core; the family's other commands are listed
    for rel in ("drivers/atm/fore200e.c", "include/uapi/linux/atmdev.h",
                "include/uapi/linux/sonet.h"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text((TREE / rel).read_text())
    s = site("drivers/atm/fore200e.c", 28, "fore200e_ioctl", "atmdev_ops.ioctl", from_="ENOSYS",
             rule="ioctl_switch_no_default")
    got = effects.analyse_sites([s], tmp_path)[s]
    assert "ATM_SETBACKEND" in got.uncased_commands()


def test_entry_is_the_bound_function_of_a_helper():
    # floppy: .ioctl = fd_ioctl, which calls fd_locked_ioctl()
    got = analyse(FLOPPY_NATIVE)[FLOPPY_NATIVE]
    assert got.entry == "fd_ioctl"
    bound = site("drivers/char/ppdev.c", 68, "nocompat_ioctl")
    assert analyse(bound)[bound].entry == "-"


@pytest.mark.parametrize("body, op", [
    ("\tdefault:\n\t\tif (d->ops->ioctl)\n\t\t\tret = d->ops->ioctl(d, cmd, arg);\n\t\telse\n"
     "\t\t\tret = -EINVAL;\n\t}\n\treturn ret;\n", "d->ops->ioctl"),
    ("\tdefault:\n\t\tif (unlikely(!d->ops->ioctl))\n\t\t\tret = -EINVAL;\n\t\telse\n"
     "\t\t\tret = d->ops->ioctl(d, cmd, arg);\n\t}\n\treturn ret;\n", "d->ops->ioctl"),
    ("\t}\n\tif (mach.mixer_ioctl)\n\t\treturn mach.mixer_ioctl(cmd, arg);\n\treturn -EINVAL;\n",
     "mach.mixer_ioctl"),
    ("\tdefault:\n\t\tret = -EINVAL;\n\t}\n\treturn ret;\n", ""),
])
def test_an_answer_only_a_driver_without_the_operation_gets(tmp_path, body, op):
    """uacce's default and dmasound's mixer_ioctl(): the line answers only
    when the driver behind the dispatcher has no operation."""
    text = ("static long d_ioctl(struct file *f, unsigned int cmd, unsigned long arg)\n{\n"
            "\tlong ret;\n\n\tswitch (cmd) {\n\tcase D_GET:\n\t\treturn d_get(f);\n" + body + "}\n")
    (tmp_path / "d.c").write_text(text)
    line = next(i for i, l in enumerate(text.splitlines(), 1) if "-EINVAL" in l)
    s = site("d.c", line, "d_ioctl", rule="ioctl_default_assign")
    got = effects.analyse_sites([s], tmp_path)[s]
    if op:
        assert got.reach == "no-operation"
        assert f"!{op} -> -EINVAL (no operation)" in got.guard
    else:
        assert got.reach == "yes" and got.guard == "-"


def test_a_check_under_another_case_label_is_not_on_the_way(tmp_path):
    """loop: lo_ioctl() checks the open mode under case LOOP_SET_BLOCK_SIZE:
    only; an unknown command reaches lo_simple_ioctl() from default: with no
    check, so the helper's site is reached, not 'partly'."""
    text = ("static int lo_simple_ioctl(struct loop_device *lo, unsigned int cmd, unsigned long arg)\n{\n"
            "\tswitch (cmd) {\n\tcase LOOP_SET_CAPACITY:\n\t\treturn 0;\n\tdefault:\n"
            "\t\treturn -EINVAL;\n\t}\n}\n\n"
            "static int lo_ioctl(struct block_device *bdev, blk_mode_t mode, unsigned int cmd,\n"
            "\t\t    unsigned long arg)\n{\n\tswitch (cmd) {\n\tcase LOOP_SET_BLOCK_SIZE:\n"
            "\t\tif (!(mode & BLK_OPEN_WRITE) && !capable(CAP_SYS_ADMIN))\n\t\t\treturn -EPERM;\n"
            "\t\treturn lo_set_block_size(bdev, arg);\n\tdefault:\n"
            "\t\treturn lo_simple_ioctl(bdev->bd_disk->private_data, cmd, arg);\n\t}\n}\n")
    (tmp_path / "loop.c").write_text(text)
    s = site("loop.c", 7, "lo_simple_ioctl", "block_device_operations.ioctl")
    got = effects.analyse_sites([s], tmp_path)[s]
    assert (got.reach, got.guard) == ("yes", "-")


def test_a_line_of_one_configuration_only_says_which(tmp_path):
    """drivers/atm/he.c: the #else branch of #ifdef CONFIG_ATM_HE_USE_SUNI
    answers -EINVAL, the #ifdef one hands the command to the PHY."""
    text = ("static int he_ioctl(struct atm_dev *atm_dev, unsigned int cmd, void __user *arg)\n{\n"
            "\tint err = 0;\n\n\tswitch (cmd) {\n\tcase HE_GET_REG:\n\t\treturn he_get_reg(arg);\n"
            "\tdefault:\n#ifdef CONFIG_ATM_HE_USE_SUNI\n\t\tif (atm_dev->phy && atm_dev->phy->ioctl)\n"
            "\t\t\terr = atm_dev->phy->ioctl(atm_dev, cmd, arg);\n#else /* CONFIG_ATM_HE_USE_SUNI */\n"
            "\t\terr = -EINVAL;\n#endif /* CONFIG_ATM_HE_USE_SUNI */\n\t\tbreak;\n\t}\n\treturn err;\n}\n")
    (tmp_path / "he.c").write_text(text)
    s = site("he.c", 13, "he_ioctl", "atmdev_ops.ioctl", rule="ioctl_default_assign")
    got = effects.analyse_sites([s], tmp_path)[s]
    assert got.branches == ("only with CONFIG_ATM_HE_USE_SUNI=n (the other branch of "
                            "#ifdef CONFIG_ATM_HE_USE_SUNI answers otherwise)")


def test_a_helper_bound_in_another_file_of_its_folder_takes_its_callers_paths(tmp_path):
    """rfcomm_dev_ioctl() (rfcomm/tty.c) is called from rfcomm/sock.c's
    .ioctl, which its .compat_ioctl calls too: both paths reach it."""
    (tmp_path / "rfcomm").mkdir()
    (tmp_path / "rfcomm" / "tty.c").write_text(
        "int rfcomm_dev_ioctl(struct sock *sk, unsigned int cmd, void __user *arg)\n{\n"
        "\tswitch (cmd) {\n\tcase RFCOMMCREATEDEV:\n\t\treturn rfcomm_create_dev(sk, arg);\n\t}\n\n"
        "\treturn -EINVAL;\n}\n")
    (tmp_path / "rfcomm" / "sock.c").write_text(
        "static int rfcomm_sock_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg)\n{\n"
        "\tint err = bt_sock_ioctl(sock, cmd, arg);\n\n\tif (err == -ENOIOCTLCMD)\n"
        "\t\terr = rfcomm_dev_ioctl(sock->sk, cmd, (void __user *)arg);\n\treturn err;\n}\n\n"
        "static int rfcomm_sock_compat_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg)\n{\n"
        "\treturn rfcomm_sock_ioctl(sock, cmd, (unsigned long)compat_ptr(arg));\n}\n\n"
        "static const struct proto_ops rfcomm_sock_ops = {\n\t.ioctl\t\t= rfcomm_sock_ioctl,\n"
        "\t.compat_ioctl\t= rfcomm_sock_compat_ioctl,\n};\n")
    s = site("rfcomm/tty.c", 8, "rfcomm_dev_ioctl", "proto_ops.ioctl", to="ENOIOCTLCMD",
             rule="ioctl_switch_no_default")
    assert effects.analyse_sites([s], tmp_path)[s].paths == "both"


def test_a_header_copied_from_the_argument_is_an_argument_check():
    # mptctl copies its header from the argument before it looks at the command
    s = site("drivers/message/fusion/mptctl.c", 29, "__mptctl_ioctl", rule="ioctl_default_assign")
    got = analyse(s)[s]
    assert got.guard.startswith("line 12: copy_from_user(&khdr, uhdr, sizeof(khdr)) -> -EFAULT (argument check)")


def test_functions_reads_every_branch_and_attributed_heads():
    code = ("#ifdef CONFIG_PM\nstatic int foo(struct usb_hub *hub)\n{\n\treturn 1;\n}\n#else\n"
            "static int foo(struct usb_hub *hub)\n{\n\treturn 0;\n}\n#endif\n"
            "int __attribute__((weak)) bar(struct kvm *kvm,\n\t\tstruct kvm_enable_cap *cap)\n{\n\treturn -EINVAL;\n}\n"
            "#define baz(x) { return x; }\n")
    cf = effects.CFile("x.c", code)
    assert [(f.name, cf.line_of(f.start)) for f in effects.functions(cf)] == [("foo", 2), ("foo", 7), ("bar", 12)]
    assert [f.params for f in effects.functions(cf, "bar")] == ["struct kvm *kvm,\n\t\tstruct kvm_enable_cap *cap"]


def _one(tmp_path, rel, code, line, function, rule, from_="EINVAL"):
    c = tmp_path / rel
    c.parent.mkdir(parents=True, exist_ok=True)
    c.write_text(code)
    s = Site(rel, line, function, "file_operations.unlocked_ioctl", from_, "ENOTTY", rule)
    return effects.analyse_sites([s], tmp_path)[s]


def test_a_check_between_the_initialiser_and_its_switch_answers_first(tmp_path):
    # userfaultfd: `int ret = -EINVAL;` is what the switch without default
    # returns, but every command but UFFDIO_API gets -EINVAL before it
    # until UFFDIO_API has run
    code = ("static long userfaultfd_ioctl(struct file *file, unsigned cmd, unsigned long arg)\n{\n"
            "\tint ret = -EINVAL;\n\tstruct userfaultfd_ctx *ctx = file->private_data;\n\n"
            "\tif (cmd != UFFDIO_API && !userfaultfd_is_initialized(ctx))\n\t\treturn -EINVAL;\n\n"
            "\tswitch(cmd) {\n\tcase UFFDIO_API:\n\t\tret = userfaultfd_api(ctx, arg);\n\t\tbreak;\n\t}\n"
            "\treturn ret;\n}\n")
    got = _one(tmp_path, "fs/userfaultfd.c", code, 3, "userfaultfd_ioctl", "ioctl_switch_no_default")
    assert got.reach == "partly"
    assert got.guard == "line 6: cmd != UFFDIO_API && !userfaultfd_is_initialized(ctx) -> -EINVAL (state check)"


def test_a_check_of_a_local_named_data_is_a_state_check(tmp_path):
    # usbtmc: `data` is the device's, not the ioctl argument
    code = ("static long usbtmc_ioctl(struct file *file, unsigned int cmd, unsigned long arg)\n{\n"
            "\tstruct usbtmc_device_data *data;\n\tint retval = -EBADRQC;\n\n"
            "\tdata = file_data->data;\n\tif (data->zombie) {\n\t\tretval = -ENODEV;\n"
            "\t\tgoto skip;\n\t}\n\n\tswitch (cmd) {\n\tcase USBTMC_IOCTL_ABORT:\n\t\tretval = 0;\n"
            "\t\tbreak;\n\t}\nskip:\n\treturn retval;\n}\n")
    got = _one(tmp_path, "drivers/usb/class/usbtmc.c", code, 4, "usbtmc_ioctl", "ioctl_switch_no_default",
               from_="EBADRQC")
    assert got.guard == "line 7: data->zombie -> -ENODEV (state check)"
    assert effects.argument_names(effects.CFile("x.c", code).code,
                                  effects.functions(effects.CFile("x.c", code))[0]) == {"arg"}


def test_no_32_bit_callers_on_an_architecture_without_compat(tmp_path):
    # ubd binds blkdev_compat_ptr_ioctl, but UML has no CONFIG_COMPAT
    code = ("static int ubd_ioctl(struct block_device *bdev, blk_mode_t mode, unsigned int cmd,\n"
            "\t\t     unsigned long arg)\n{\n\tswitch (cmd) {\n\tcase HDIO_GET_IDENTITY:\n\t\treturn 0;\n"
            "\t}\n\treturn -EINVAL;\n}\n"
            "static const struct block_device_operations ubd_blops = {\n\t.ioctl\t\t= ubd_ioctl,\n"
            "\t.compat_ioctl\t= blkdev_compat_ptr_ioctl,\n};\n")
    for arch, kconfig, paths in (("um", "config UML\n\tbool\n", "native"),
                                 ("x86", "config COMPAT\n\tdef_bool y\n", "both")):
        (tmp_path / "arch" / arch).mkdir(parents=True, exist_ok=True)
        (tmp_path / "arch" / arch / "Kconfig").write_text(kconfig)
        rel = f"arch/{arch}/drivers/ubd_kern.c"
        c = tmp_path / rel
        c.parent.mkdir(parents=True, exist_ok=True)
        c.write_text(code)
        s = Site(rel, 8, "ubd_ioctl", "block_device_operations.ioctl", "EINVAL", "ENOTTY", "ioctl_switch_no_default")
        assert effects.analyse_sites([s], tmp_path)[s].paths == paths, arch
    # a folder only s390 builds, on a tree whose s390 has no COMPAT (7.2's vfio_ap)
    (tmp_path / "arch" / "s390").mkdir()
    (tmp_path / "arch" / "s390" / "Kconfig").write_text("config S390\n\tdef_bool y\n")
    (tmp_path / "drivers" / "s390" / "block").mkdir(parents=True)
    (tmp_path / "drivers" / "Makefile").write_text("obj-$(CONFIG_S390)\t\t+= s390/\n")
    (tmp_path / "drivers" / "s390" / "Makefile").write_text("obj-y += block/\n")
    (tmp_path / "drivers" / "s390" / "block" / "Makefile").write_text("obj-$(CONFIG_X) += x.o\n")
    c = tmp_path / "drivers" / "s390" / "block" / "x.c"
    c.write_text(code)
    s = Site("drivers/s390/block/x.c", 8, "ubd_ioctl", "block_device_operations.ioctl", "EINVAL", "ENOTTY",
             "ioctl_switch_no_default")
    assert effects.analyse_sites([s], tmp_path)[s].paths == "native"


def test_a_command_with_the_number_of_a_handled_one_is_not_uncased(tmp_path):
    # vfio: VFIO_IOMMU_DIRTY_PAGES is _IO(VFIO_TYPE, VFIO_BASE + 17), as is
    # VFIO_DEVICE_FEATURE, which the handler takes
    h = tmp_path / "include" / "uapi" / "linux" / "demo.h"
    h.parent.mkdir(parents=True)
    h.write_text("#define DEMO_FEATURE\t_IO(DEMO_TYPE, DEMO_BASE + 17)\n"
                 "#define DEMO_OTHER_NAME\t_IO(DEMO_TYPE, DEMO_BASE + 17)\n"
                 "#define DEMO_MISSING\t_IO(DEMO_TYPE, DEMO_BASE + 18)\n")
    got = analyse_one(tmp_path, "drivers/demo.c",
                      "static long demo_ioctl(struct file *f, unsigned int cmd, unsigned long arg)\n{\n"
                      "\tswitch (cmd) {\n\tcase DEMO_FEATURE:\n\t\treturn 0;\n\tdefault:\n\t\treturn -EINVAL;\n"
                      "\t}\n}\nstatic const struct file_operations demo_fops = { .unlocked_ioctl = demo_ioctl, };\n",
                      7, "demo_ioctl", "ioctl_default_return")
    assert got.uncased == "DEMO_MISSING"


VNET_H = """static inline long demo_vnet_ioctl(int *size, unsigned int cmd, int __user *sp)
{
	switch (cmd) {
	case DEMO_GET:
		return put_user(*size, sp);
	default:
		return -EINVAL;
	}
}
"""
TAP_C = """#include "vnet.h"

static long tap_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case DEMO_SET:
		return 0;
	default:
		return demo_vnet_ioctl(&size, cmd, (int __user *)arg);
	}
}

static const struct file_operations tap_fops = {
	.unlocked_ioctl	= tap_ioctl,
};
"""
TUN_C = """#include "vnet.h"

static long __tun_chr_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct tun_struct *tun = file->private_data;
	long ret;

	if (!tun)
		return -EBADFD;
	switch (cmd) {
	default:
		ret = demo_vnet_ioctl(&tun->size, cmd, (int __user *)arg);
		break;
	}
	return ret;
}

static long tun_chr_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return __tun_chr_ioctl(file, cmd, arg);
}

static const struct file_operations tun_fops = {
	.unlocked_ioctl	= tun_chr_ioctl,
};
"""


def test_a_helper_in_a_header_has_the_handlers_of_the_files_beside_it(tmp_path):
    """7.2's tun_vnet_ioctl() in drivers/net/tun_vnet.h: its entries are the
    bound functions of the .c files beside it that include it and reach it
    (tun.c through a helper), each with its file; their checks before the
    call are the site's (tun's unattached fd)."""
    folder = tmp_path / "drivers/demo"
    folder.mkdir(parents=True)
    (folder / "vnet.h").write_text(VNET_H)
    (folder / "tap.c").write_text(TAP_C)
    (folder / "tun.c").write_text(TUN_C)
    (folder / "other.c").write_text(TAP_C.replace('#include "vnet.h"', '#include "other.h"')
                                    .replace("tap_", "other_"))
    uapi = tmp_path / "include/uapi/linux"
    uapi.mkdir(parents=True)
    (uapi / "demo.h").write_text("".join(f"#define {name} _IOW('D', {nr}, int)\n" for nr, name in enumerate(
        ("DEMO_GET", "DEMO_SET", "DEMO_TUN_ONLY", "DEMO_NOWHERE"))))
    (folder / "tun.c").write_text(TUN_C.replace("\tdefault:", "\tcase DEMO_SET:\n\tcase DEMO_TUN_ONLY:\n"
                                                "\t\treturn 0;\n\tdefault:"))
    header_site = site("drivers/demo/vnet.h", 7, "demo_vnet_ioctl")
    got = effects.analyse_sites([header_site], tmp_path)[header_site]
    assert got.entry == "drivers/demo/tap.c:tap_ioctl,drivers/demo/tun.c:tun_chr_ioctl"
    assert got.guard == "line 8: !tun -> -EBADFD (state check)" and got.reach == "partly"
    # DEMO_SET: both handle it first; DEMO_TUN_ONLY reaches the helper only
    # through tap_ioctl(): "get ENOTTY too" would be false for tun, so it is
    # tagged with tap_ioctl() (a reviewer asked for tap's TUNSET* by name)
    assert got.uncased == "DEMO_NOWHERE,DEMO_TUN_ONLY[through tap_ioctl]"


AUTOFS = ("static int autofs_root_ioctl_unlocked(struct inode *inode, struct file *filp,\n"
          "\t\t\t\t       unsigned int cmd, unsigned long arg)\n{\n"
          "\tstruct autofs_sb_info *sbi = autofs_sbi(inode->i_sb);\n\n"
          "\tif (_IOC_TYPE(cmd) != _IOC_TYPE(AUTOFS_IOC_FIRST) ||\n"
          "\t     _IOC_NR(cmd) - _IOC_NR(AUTOFS_IOC_FIRST) >= AUTOFS_IOC_COUNT)\n"
          "\t\treturn -ENOTTY;\n\n"
          "\tif (!autofs_oz_mode(sbi) && !capable(CAP_SYS_ADMIN))\n\t\treturn -EPERM;\n\n"
          "\tswitch (cmd) {\n\tcase AUTOFS_IOC_CATATONIC:\n\t\treturn 0;\n"
          "\tdefault:\n\t\treturn -EINVAL;\n\t}\n}\n")


def test_an_enotty_command_filter_before_the_dispatch_is_recorded(tmp_path):
    # 7.2's autofs: a command of another type or number range already got
    # ENOTTY; the message must not say that every unknown command changes
    got = _one(tmp_path, "fs/autofs/root.c", AUTOFS, 17, "autofs_root_ioctl_unlocked",
               "ioctl_default_return")
    assert got.reach == "partly"
    assert got.guard == ("line 6: by _IOC_TYPE(cmd), _IOC_NR(cmd) -> -ENOTTY (command filter); "
                         "line 10: !autofs_oz_mode(sbi) && !capable(CAP_SYS_ADMIN) -> -EPERM (state check)")


def test_an_enotty_answer_on_state_is_no_command_filter(tmp_path):
    code = AUTOFS.replace("if (_IOC_TYPE(cmd) != _IOC_TYPE(AUTOFS_IOC_FIRST) ||\n"
                          "\t     _IOC_NR(cmd) - _IOC_NR(AUTOFS_IOC_FIRST) >= AUTOFS_IOC_COUNT)",
                          "if (!sbi->pipe ||\n\t     !sbi)")
    got = _one(tmp_path, "fs/autofs/root.c", code, 17, "autofs_root_ioctl_unlocked", "ioctl_default_return")
    assert "command filter" not in got.guard


HELPER = ("int n_tty_ioctl_helper(struct tty_struct *tty, unsigned int cmd, unsigned long arg)\n{\n"
          "\tswitch (cmd) {\n\tcase TCXONC:\n\t\treturn 0;\n\tdefault:\n"
          "\t\treturn tty_mode_ioctl(tty, cmd, arg);\n\t}\n}\n"
          "int tty_mode_ioctl(struct tty_struct *tty, unsigned int cmd, unsigned long arg)\n{\n"
          "\tswitch (cmd) {\n\tcase TCGETS:\n\t\treturn 0;\n\tcase TCSETS:\n\t\treturn 0;\n\t}\n"
          "\treturn -ENOIOCTLCMD;\n}\n")
SERPORT = ("static int serport_ldisc_ioctl(struct tty_struct *tty, unsigned int cmd,\n"
           "\t\t\t       unsigned long arg)\n{\n\tif (cmd == SPIOCSTYPE)\n\t\treturn 0;\n\n"
           "\treturn -EINVAL;\n}\n")


def test_a_line_discipline_without_the_termios_helper_gets_its_commands(tmp_path):
    # tty_ioctl() hands a line discipline TCGETS and the other termios
    # commands; serport does not call n_tty_ioctl_helper(), so they reach
    # its -EINVAL, and the message must say that tcgetattr() changes too
    (tmp_path / "drivers/tty").mkdir(parents=True)
    (tmp_path / "drivers/tty/tty_ioctl.c").write_text(HELPER)
    (tmp_path / "drivers/input").mkdir(parents=True)
    (tmp_path / "drivers/input/serport.c").write_text(SERPORT)
    s = Site("drivers/input/serport.c", 7, "serport_ldisc_ioctl", "tty_ldisc_ops.ioctl", "EINVAL",
             "ENOIOCTLCMD", "ioctl_if_chain")
    got = effects.analyse_sites([s], tmp_path)[s]
    assert got.uncased == ("TCXONC[tty_ioctl>n_tty_ioctl_helper],TCGETS[tty_ioctl>n_tty_ioctl_helper],"
                           "TCSETS[tty_ioctl>n_tty_ioctl_helper]")
    # n_gsm calls the helper: nothing to say
    (tmp_path / "drivers/input/serport.c").write_text(SERPORT.replace(
        "\treturn -EINVAL;", "\tif (cmd == 1)\n\t\treturn -EINVAL;\n\treturn n_tty_ioctl_helper(tty, cmd, arg);"))
    assert effects.analyse_sites([s], tmp_path)[s].uncased == "-"


def test_commands_defined_through_a_header_wrapper_are_uapi_commands() -> None:
    # omapfb.h: OMAP_IOW(num, dtype) is _IOW('O', num, dtype); soundcard.h's
    # wrappers take the type as a parameter and name no family
    text = ("#define OMAP_IOW(num, dtype)\t_IOW('O', num, dtype)\n"
            "#define OMAPFB_MIRROR\t\tOMAP_IOW(31, int)\n"
            "#define SIOW(x, y)\t_IOW(x, y, int)\n"
            "#define SNDCTL_X\tSIOW('P', 1)\n")
    assert effects._wrapped_commands(text) == [("OMAPFB_MIRROR", "'O'")]


# dvb-core's frontend (7.2): the handler is handed to dvb_usercopy() with the
# command, a read-only fd takes _IOR() commands only, and the compat entry
# calls the native one
DVB_FRONTEND = """\
static int fe_handle_ioctl(struct file *file, unsigned int cmd, void *parg)
{
\tswitch (cmd) {
\tcase FE_GET_INFO:
\t\treturn 0;
\tdefault:
\t\treturn -ENOTSUPP;
\t}
}

static int fe_do_ioctl(struct file *file, unsigned int cmd, void *parg)
{
\tint err;

\tif ((file->f_flags & O_ACCMODE) == O_RDONLY
\t    && (_IOC_DIR(cmd) != _IOC_READ || cmd == FE_GET_EVENT)) {
\t\treturn -EPERM;
\t}
\terr = fe_handle_ioctl(file, cmd, parg);
\treturn err;
}

static long fe_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
\treturn dvb_usercopy(file, cmd, arg, fe_do_ioctl);
}

static long fe_compat_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
\treturn fe_ioctl(file, cmd, (unsigned long)compat_ptr(arg));
}

static const struct file_operations fe_fops = {
\t.unlocked_ioctl = fe_ioctl,
\t.compat_ioctl = fe_compat_ioctl,
};
"""


def test_a_handler_handed_on_with_the_command_is_reached_and_checked(tmp_path):
    c = tmp_path / "drivers" / "media" / "fe.c"
    c.parent.mkdir(parents=True)
    c.write_text(DVB_FRONTEND)
    line = DVB_FRONTEND.splitlines().index("\t\treturn -ENOTSUPP;") + 1
    s = Site("drivers/media/fe.c", line, "fe_handle_ioctl", "file_operations.unlocked_ioctl",
             "ENOTSUPP", "ENOTTY", "ioctl_default_return")
    got = effects.analyse_sites([s], tmp_path)[s]
    assert got.paths == "both" and got.entry == "fe_ioctl"
    # tested by its direction only: an unknown command of that direction fails it first
    assert got.reach == "partly" and "-> -EPERM (state check)" in got.guard
    # a function handed on without the command is no caller
    cf = effects.CFile("x.c", "static void f(void)\n{\n\tINIT_WORK(&w, fe_do_ioctl);\n}\n")
    assert effects.callers(cf, "fe_do_ioctl") == []


def analyse_one(tmp_path, rel, code, line, function, rule, interface="file_operations.unlocked_ioctl"):
    """The effects of one site of the C text code, written at rel under tmp_path."""
    c = tmp_path / rel
    c.parent.mkdir(parents=True, exist_ok=True)
    c.write_text(code)
    s = Site(rel, line, function, interface, "EINVAL", "ENOTTY", rule)
    return effects.analyse_sites([s], tmp_path)[s]


def test_a_check_inside_a_known_command_branch_is_no_guard(tmp_path):
    # s390 tape: the copy_from_user() of MTIOCTOP's struct sits in `if (no
    # == MTIOCTOP) {`, above its switch on op.mt_op; an unknown command
    # never meets it on its way to the final return
    got = analyse_one(tmp_path, "drivers/s390/char/tape_char.c",
                      "static int tape_ioctl(struct file *f, unsigned int no, unsigned long data)\n{\n"
                      "\tif (no == MTIOCTOP) {\n\t\tstruct mtop op;\n\n"
                      "\t\tif (copy_from_user(&op, (void __user *)data, sizeof(op)) != 0)\n"
                      "\t\t\treturn -EFAULT;\n\t\tswitch (op.mt_op) {\n\t\tcase MTWEOF:\n\t\t\treturn 1;\n"
                      "\t\t}\n\t\treturn 0;\n\t}\n\treturn -EINVAL;\n}\n"
                      "static const struct file_operations t_fops = { .unlocked_ioctl = tape_ioctl, };\n",
                      14, "tape_ioctl", "ioctl_final_return")
    assert got.guard == "-" and got.reach == "yes"


def test_a_compat_handler_that_translates_known_commands_only_leaves_native(tmp_path):
    # via-pmu: compat_pmu_ioctl() maps its 32-bit commands and answers the
    # rest -ENOIOCTLCMD before it calls the native handler
    body = ("static long pmu_ioctl(struct file *f, u_int cmd, u_long arg)\n{\n\tswitch (cmd) {\n"
            "\tcase PMU_IOC_SLEEP:\n\t\treturn 0;\n\t}\n\treturn -EINVAL;\n}\n"
            "static long compat_pmu_ioctl(struct file *f, u_int cmd, u_long arg)\n{\n\tswitch (cmd) {\n"
            "\tcase PMU_IOC_SLEEP:\n\t\tbreak;\n\tcase PMU_IOC_GET_MODEL32:\n\t\tcmd = PMU_IOC_GET_MODEL;\n"
            "\t\tbreak;\n\tdefault:\n\t\treturn %s;\n\t}\n\treturn pmu_ioctl(f, cmd, arg);\n}\n"
            "static const struct file_operations pmu_fops = {\n\t.unlocked_ioctl = pmu_ioctl,\n"
            "\t.compat_ioctl = compat_pmu_ioctl,\n};\n")
    rel = "drivers/macintosh/via-pmu.c"
    assert analyse_one(tmp_path, rel, body % "-ENOIOCTLCMD", 7, "pmu_ioctl", "ioctl_final_return").paths == "native"
    # a default that only breaks passes every command on
    assert analyse_one(tmp_path, rel, body.replace("\t\treturn %s;\n", "\t\tbreak;\n"), 7, "pmu_ioctl",
                       "ioctl_final_return").paths == "both"


def write(tmp_path, rel, text):
    path = tmp_path / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_commands_an_enum_defines_are_a_family(tmp_path):
    # xe_drm.h: the observation stream's commands are enum members
    write(tmp_path, "include/uapi/drm/demo.h",
          "enum demo_ioctls {\n\tDEMO_ENABLE = _IO('i', 0x0),\n\tDEMO_DISABLE = _IO('i', 0x1),\n"
          "\tDEMO_STATUS = _IO('i', 0x3),\n};\n")
    got = analyse_one(tmp_path, "drivers/demo.c",
                      "static long demo_ioctl(struct file *f, unsigned int cmd, unsigned long arg)\n{\n"
                      "\tswitch (cmd) {\n\tcase DEMO_ENABLE:\n\t\treturn 0;\n\tcase DEMO_DISABLE:\n"
                      "\t\treturn 0;\n\t}\n\treturn -EINVAL;\n}\n", 10, "demo_ioctl", "ioctl_switch_no_default")
    assert got.uncased == "DEMO_STATUS"


FB_CORE = """static long do_fb_ioctl(struct fb_info *info, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case FBIO_CURSOR:
		return -EINVAL;
	default:
		return info->fbops->fb_ioctl(info, cmd, arg);
	}
}
"""
FB_H = ("#define FBIO_CURSOR\t_IOWR('F', 0x08, struct fb_cursor)\n"
        "#define FBIOGET_VBLANK\t_IOR('F', 0x12, struct fb_vblank)\n")
PRIVATE_FB = ("#define DEMOFB_SET\t_IOW('F', 0xdd, __u32)\n"
              "static int demofb_ioctl(struct fb_info *info, unsigned int cmd, unsigned long arg)\n{\n"
              "\tswitch (cmd) {\n\tcase DEMOFB_SET:\n\t\treturn 0;\n\t}\n\treturn -EINVAL;\n}\n")


def test_the_commands_a_core_hands_on_are_the_handlers_family(tmp_path):
    # sstfb: its cases are private, but do_fb_ioctl() hands it every <linux/fb.h>
    # command it does not answer itself
    write(tmp_path, "drivers/video/fbdev/core/fb_chrdev.c", FB_CORE)
    write(tmp_path, "include/uapi/linux/fb.h", FB_H)
    got = analyse_one(tmp_path, "drivers/video/fbdev/demofb.c", PRIVATE_FB, 8, "demofb_ioctl",
                      "ioctl_switch_no_default", interface="fb_ops.fb_ioctl")
    assert got.uncased == "FBIOGET_VBLANK"


def test_the_vfs_commands_are_no_device_family(tmp_path):
    write(tmp_path, "fs/ioctl.c", FB_CORE.replace("do_fb_ioctl", "do_vfs_ioctl"))
    write(tmp_path, "include/uapi/linux/fb.h", FB_H)
    got = analyse_one(tmp_path, "drivers/char/demo.c", PRIVATE_FB, 8, "demofb_ioctl", "ioctl_switch_no_default")
    assert got.uncased == "-"


def test_an_arch_command_is_not_named_where_its_arch_is_absent(tmp_path):
    # atyfb: FBIOGTYPE exists in arch/sparc's uapi only
    write(tmp_path, "include/uapi/linux/fb.h", FB_H)
    write(tmp_path, "arch/sparc/include/uapi/asm/fbio.h", "#define FBIOGTYPE\t_IOR('F', 0, struct fbtype)\n")
    got = analyse_one(tmp_path, "drivers/video/fbdev/demofb.c",
                      "static int demofb_ioctl(struct fb_info *info, unsigned int cmd, unsigned long arg)\n{\n"
                      "\tswitch (cmd) {\n#ifdef __sparc__\n\tcase FBIOGTYPE:\n\t\treturn 0;\n#endif\n"
                      "\tcase FBIOGET_VBLANK:\n\t\treturn 0;\n\t}\n\treturn -EINVAL;\n}\n",
                      12, "demofb_ioctl", "ioctl_switch_no_default")
    assert "FBIOGTYPE" not in got.uncased
    assert effects._arch_only_absent("arch/sparc/include/uapi/asm/fbio.h", "__sparc__ undefined")
    assert not effects._arch_only_absent("arch/sparc/include/uapi/asm/fbio.h", "__sparc__ defined")
    assert not effects._arch_only_absent("include/uapi/linux/fb.h", "__sparc__ undefined")


VME = """static int demo_ioctl(struct inode *inode, struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (type[minor]) {
	case CONTROL_MINOR:
		switch (cmd) {
		case DEMO_GEN:
			return 0;
		}
		break;
	case MASTER_MINOR:
		switch (cmd) {
		case DEMO_GET_MASTER:
			return 0;
		case DEMO_SET_MASTER:
			return 0;
		}
		break;
	}

	return -EINVAL;
}
"""


def test_commands_of_another_branch_of_a_selector_switch_reach_the_line(tmp_path):
    # vme_user: VME_SET_MASTER on a control minor falls out to the return
    got = analyse_one(tmp_path, "drivers/staging/demo.c", VME, 20, "demo_ioctl", "ioctl_switch_no_default")
    assert got.uncased == ("DEMO_GEN[branch type[minor]],DEMO_GET_MASTER[branch type[minor]],"
                           "DEMO_SET_MASTER[branch type[minor]]")


def test_a_selector_branch_that_answers_by_itself_names_no_command(tmp_path):
    code = VME.replace("\t\tbreak;\n\tcase MASTER_MINOR:", "\t\treturn -EPERM;\n\tcase MASTER_MINOR:")
    got = analyse_one(tmp_path, "drivers/staging/demo.c", code, 20, "demo_ioctl", "ioctl_switch_no_default")
    assert got.uncased == "-"


PCM_OSS = """static long demo_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
#if IS_REACHABLE(CONFIG_DEMO_MIXER)
	if (((cmd >> 8) & 0xff) == 'M') {
		if (snd_BUG_ON(!file))
			return -ENXIO;
		return demo_mixer_ioctl(file, cmd, arg);
	}
#endif
	if (((cmd >> 8) & 0xff) != 'P')
		return -EINVAL;
	switch (cmd) {
	case DEMO_P:
		return 0;
	}
	return -EINVAL;
}
"""


def test_a_class_of_commands_handed_to_another_handler_is_a_hand_off(tmp_path):
    # pcm_oss: 'M' commands go to the OSS mixer before the 'P' test
    got = analyse_one(tmp_path, "sound/demo.c", PCM_OSS, 11, "demo_ioctl", "ioctl_type_guard")
    assert got.reach == "partly"
    assert got.guard == ("line 4: #if IS_REACHABLE(CONFIG_DEMO_MIXER): ((cmd >> 8) & 0xff) == 'M' "
                         "-> -demo_mixer_ioctl (hand-off)")


def test_a_named_command_handed_on_is_no_hand_off(tmp_path):
    code = PCM_OSS.replace("((cmd >> 8) & 0xff) == 'M'", "cmd == DEMO_M")
    got = analyse_one(tmp_path, "sound/demo.c", code, 11, "demo_ioctl", "ioctl_type_guard")
    assert got.guard == "-"


def test_numbered_commands_join_their_headers_family_and_if_0_hides_commands(tmp_path):
    # fb.h: FBIO_ALLOC 0x4613 beside FBIOGET_VBLANK _IOR('F', 0x12, ...);
    # fs.h: BLKELVGET inside #if 0
    write(tmp_path, "include/uapi/linux/fb.h", FB_H + "#define FBIO_ALLOC\t0x4613\n#define FB_TYPE_X\t0x0003\n"
          "#if 0\n#define FBIO_GONE\t_IO('F', 0x30)\n#endif\n")
    write(tmp_path, "include/uapi/asm-generic/ioctls.h", "#define TCGETS\t0x5401\n#define TCGETS2\t_IOR('T', 0x2A, int)\n")
    uapi = effects.Uapi(tmp_path)
    assert uapi.commands["FBIO_ALLOC"] == ("include/uapi/linux/fb.h", "'F'")
    assert "FB_TYPE_X" not in uapi.commands and "FBIO_GONE" not in uapi.commands
    assert "TCGETS" not in uapi.commands        # asm-generic's numbers are every file's


PINNED = Path.home() / ".cache" / "enotty" / "src" / "linux-source-6.12"


@pytest.fixture(scope="module")
def pinned() -> Path:
    if not (PINNED / "Kconfig").is_file():
        pytest.skip("the 6.12 tree is not unpacked (python3 -m enotty.kernel.tree 6.12)")
    return PINNED


@pytest.mark.parametrize("file,line,function,rule,uncased", [
    # lp.c #undefs LP_STATS: LPGETSTATS's case is never built
    ("drivers/char/lp.c", 663, "lp_do_ioctl", "ioctl_default_assign", "LPGETSTATS[never LP_STATS]"),
    # the initialiser before the switch: that switch's #ifdef'd cases;
    # GRAB_BACKLIGHT's #ifdef CONFIG_INPUT_ADBHID sits inside
    # CONFIG_PMAC_BACKLIGHT_LEGACY's, so either =n leaves it out (a reviewer)
    ("drivers/macintosh/via-pmu.c", 2355, "pmu_ioctl", "ioctl_switch_no_default",
     "PMU_IOC_CAN_SLEEP[CONFIG_PPC_PMAC=n],PMU_IOC_GET_BACKLIGHT[CONFIG_PMAC_BACKLIGHT_LEGACY=n],"
     "PMU_IOC_GRAB_BACKLIGHT[CONFIG_INPUT_ADBHID=n],PMU_IOC_GRAB_BACKLIGHT[CONFIG_PMAC_BACKLIGHT_LEGACY=n],"
     "PMU_IOC_SET_BACKLIGHT[CONFIG_PMAC_BACKLIGHT_LEGACY=n],PMU_IOC_SLEEP[CONFIG_PPC_PMAC=n]"),
    # OCXL needs PPC_POWERNV, which needs PPC64: its #ifdef CONFIG_PPC64 case is always built
    ("drivers/misc/ocxl/file.c", 281, "afu_ioctl", "ioctl_default_assign", "-"),
])
def test_conditional_cases_say_only_configurations_that_exist(pinned, file, line, function, rule,
                                                              uncased):
    s = site(file, line, function, rule=rule)
    assert effects.analyse_sites([s], pinned)[s].uncased == uncased


def test_a_helper_bound_through_two_native_members_names_both_entries(tmp_path):
    """sunrpc's cache_ioctl() is reached from an .unlocked_ioctl and a
    .proc_ioctl of its file: both callers see the change."""
    code = """
static int cache_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case FIONREAD:
		return 0;
	default:
		return -EINVAL;
	}
}

static long cache_ioctl_procfs(struct file *filp, unsigned int cmd, unsigned long arg)
{
	return cache_ioctl(filp, cmd, arg);
}

static long cache_ioctl_pipefs(struct file *filp, unsigned int cmd, unsigned long arg)
{
	return cache_ioctl(filp, cmd, arg);
}

static const struct proc_ops cache_channel_proc_ops = {
	.proc_ioctl	= cache_ioctl_procfs,
};

static const struct file_operations cache_channel_pipefs_ops = {
	.unlocked_ioctl	= cache_ioctl_pipefs,
};
"""
    got = analyse_one(tmp_path, "net/sunrpc/cache.c", code, 8, "cache_ioctl", "ioctl_default_return")
    assert got.entry == "cache_ioctl_pipefs,cache_ioctl_procfs"


def test_a_copy_only_some_command_numbers_make_is_an_argument_check(tmp_path):
    """landisk's gio_ioctl() copies the argument of every odd number first."""
    code = """
static long gio_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	unsigned int data;

	if (cmd & 0x01) {
		if (copy_from_user(&data, (int *)arg, sizeof(int))) {
			return -EFAULT;
		}
	}

	switch (cmd) {
	case 0x10:
		return 0;
	default:
		return -EFAULT;
	}
}

static const struct file_operations gio_fops = {
	.unlocked_ioctl	= gio_ioctl,
};
"""
    got = analyse_one(tmp_path, "arch/sh/boards/mach-landisk/gio.c", code, 16, "gio_ioctl",
                      "ioctl_default_return")
    assert got.reach == "partly"
    assert got.guard == ("line 6: cmd & 0x01 && copy_from_user(&data, (int *)arg, sizeof(int)) "
                         "-> -EFAULT (argument check)")


def test_a_test_that_refuses_every_command_names_the_cases_behind_it(tmp_path):
    """atomisp's vidioc_default: `if (cmd) return -EINVAL;` before a switch
    whose cases are all disabled: converting the test changes them too."""
    code = ("static long cam_default(struct file *file, void *fh, bool valid_prio,\n"
            "\t\t\tunsigned int cmd, void *arg)\n{\n\tif (cmd)\n\t\treturn -EINVAL;\n\n"
            "\tswitch (cmd) {\n\tcase CAM_IOC_G_X:\n\t\treturn 0;\n\tcase CAM_IOC_S_X:\n\t\treturn 1;\n"
            "\tdefault:\n\t\treturn -EINVAL;\n\t}\n}\n")
    write(tmp_path, "drivers/cam.c", code)
    guard = site("drivers/cam.c", 5, "cam_default", rule="ioctl_if_chain")
    assert effects.analyse_sites([guard], tmp_path)[guard].uncased == \
        "CAM_IOC_G_X[refused first],CAM_IOC_S_X[refused first]"
    other = site("drivers/cam.c", 13, "cam_default", rule="ioctl_default_return")
    assert "refused first" not in effects.analyse_sites([other], tmp_path)[other].uncased


def test_an_exported_helper_has_the_pasted_handlers_of_its_folder(tmp_path):
    """sbusfb_ioctl_helper() in sbuslib.c: the SBUS framebuffers' fb_ioctl,
    stored by FB_DEFAULT_SBUS_OPS(cg3) (sbuslib.h), return it."""
    from ..find.facts_test import PASTING_DRIVER, PASTING_HEADER, PASTING_LIB
    write(tmp_path, "drivers/video/demo/demolib.h", PASTING_HEADER)
    write(tmp_path, "drivers/video/demo/cg9.c", PASTING_DRIVER)
    write(tmp_path, "drivers/video/demo/demolib.c", PASTING_LIB)
    s = site("drivers/video/demo/demolib.c", 9, "demofb_ioctl_helper", interface="fb_ops.fb_ioctl",
             rule="ioctl_default_return")
    assert effects.analyse_sites([s], tmp_path)[s].entry == "drivers/video/demo/cg9.c:cg9_demofb_ioctl"


def test_an_exported_helper_names_the_entries_of_every_native_member_of_its_folder(tmp_path):
    """esas2r_ioctl_handler() in esas2r_ioctl.c: esas2r_main.c binds
    esas2r_proc_ioctl() to a file_operations' .unlocked_ioctl and
    esas2r_ioctl() of esas2r_ioctl.c to the SCSI host template's .ioctl;
    both reach it, so the message names both."""
    write(tmp_path, "drivers/scsi/demo/demo_ioctl.c", """\
int demo_ioctl_handler(void *hostdata, unsigned int cmd, void __user *arg)
{
	if (cmd < 0x4500 || cmd > 0x450F)
		return -EINVAL;
	return 0;
}

int demo_ioctl(struct scsi_device *sd, unsigned int cmd, void __user *arg)
{
	return demo_ioctl_handler(sd->host->hostdata, cmd, arg);
}
""")
    write(tmp_path, "drivers/scsi/demo/demo_main.c", """\
static const struct scsi_host_template demo_template = {
	.ioctl = demo_ioctl,
};

long demo_proc_ioctl(struct file *fp, unsigned int cmd, unsigned long arg)
{
	return demo_ioctl_handler(NULL, cmd, (void __user *)arg);
}

static const struct file_operations demo_fops = {
	.unlocked_ioctl = demo_proc_ioctl,
};
""")
    s = site("drivers/scsi/demo/demo_ioctl.c", 4, "demo_ioctl_handler", rule="ioctl_cmd_guard")
    got = effects.analyse_sites([s], tmp_path)[s]
    assert got.entry == "demo_ioctl,drivers/scsi/demo/demo_main.c:demo_proc_ioctl"
    # the SCSI host template has no .compat_ioctl: scsi_ioctl() answers a
    # 32-bit caller through demo_ioctl() itself
    assert got.fallback == ("compat: through demo_ioctl(), scsi_ioctl() in drivers/scsi/scsi_ioctl.c"
                            " answers -EINVAL (no .compat_ioctl)")
    main = (tmp_path / "drivers/scsi/demo/demo_main.c").read_text()
    for other in (main.replace(".ioctl = demo_ioctl,", ".ioctl = demo_ioctl,\n\t.compat_ioctl = demo_ioctl,"),
                  # wavefront: the .ioctl of a struct of another interface
                  main.replace("struct scsi_host_template demo_template", "struct snd_hwdep_ops demo_template")):
        write(tmp_path, "drivers/scsi/demo/demo_main.c", other)
        assert effects.analyse_sites([s], tmp_path)[s].fallback == "-"


NESTED = """\
static long t_ioctl(struct file *f, unsigned int code, void *buf)
{
	int retval = -EOPNOTSUPP;

	if (dev->alt >= 0) {
		if (intf->number) {
			retval = -ENODEV;
			goto out;
		}
	}
	for (i = 0; i < n; i++) {
		if (busy(i))
			return -EBUSY;
	}
	if (x) {
	} else {
		if (y)
			return -EIO;
	}
	switch (code) {
	case 1:
		retval = 0;
		break;
	default:
		retval = -EOPNOTSUPP;
	}
out:
	return retval;
}
"""


def test_a_check_one_plain_if_deep_is_a_guard_with_both_conditions():
    """usbtest_ioctl(): a reviewer named its -ENODEV for an interface other
    than the first, inside `if (dev->info->alt >= 0) { ... }`; a check in a
    loop or an else branch is no such guard."""
    cf = effects.CFile("x.c", NESTED)
    (fn,) = effects.functions(cf, "t_ioctl")
    anchor = cf.offset(NESTED.splitlines().index("\t\tretval = -EOPNOTSUPP;") + 1)
    got = effects.guards(cf, fn, anchor, set())
    assert [(g.text, g.errno) for g in got] == [("dev->alt >= 0 && intf->number", "ENODEV")]


FORWARDING = """\
int helper_ioctl(struct fb_info *info, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case FBIOGTYPE:
		return 0;
	default:
		return -EINVAL;
	}
}

int compat_ioctl(struct fb_info *info, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case FBIOGTYPE:
	case FBIOSATTR:
		return info->fbops->fb_ioctl(info, cmd, arg);
	case FBIOPUTCMAP32:
		return put_cmap(info, arg);
	default:
		return -ENOIOCTLCMD;
	}
}
"""


def test_a_label_only_forwarded_by_the_compat_path_is_not_handled():
    """sbuslib: sbusfb_compat_ioctl() hands FBIOSATTR on to the helper,
    which has no case for it (a reviewer); FBIOPUTCMAP32 is handled there."""
    cf = effects.CFile("x.c", FORWARDING)
    (fn,) = effects.functions(cf, "helper_ioctl")
    assert effects._only_forwarded(cf, fn) == {"FBIOSATTR"}
