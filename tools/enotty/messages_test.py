"""Subject prefixes, commit message wrapping, sign-off parsing."""
from __future__ import annotations

import pytest

from enotty import messages
from enotty.sites import Effects, Site


def _site(file, line, function, interface, from_="EINVAL", to="ENOTTY", rule="ioctl_default_return",
          **effects):
    e = None
    if effects:
        fields = dict(paths="both", reach="yes", guard="-", branches="all", uncased="-",
                      forward="-", fallback="-", visible="yes", entry="-")
        fields.update(effects)
        e = Effects(**fields)
    return Site(file, line, function, interface, from_, to, rule, effects=e)


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_commit_message_is_wrapped_and_complete() -> None:
    sites = [_site("drivers/tty/x.c", 10, "x_tty_ioctl_with_a_rather_long_name", "tty_operations.ioctl",
                   to="ENOIOCTLCMD")]
    subj = messages.subject("tty: x:", sites)
    assert subj == "tty: x: Return -ENOIOCTLCMD for unknown ioctl commands"
    msg = messages.commit_message(subj, sites, {}, ["ioctl_default_return"], "A <a@b.c>")
    lines = msg.splitlines()
    assert lines[0] == subj and lines[1] == ""
    assert lines[-2:] == [f"Link: {messages.LINK}", "Signed-off-by: A <a@b.c>"]
    assert all(len(ln) <= 75 for ln in lines[1:])
    body = _flat(msg)
    # the INTERFACES.rst fact, not "goes on to its generic handling"
    gpio = [_site("drivers/gpio/gpiolib-cdev.c", n, f, "file_operations.unlocked_ioctl")
            for n, f in ((1, "gpio_ioctl"), (2, "linereq_ioctl"))]
    assert ("vfs_ioctl() in fs/ioctl.c returns the value of each of them to user space"
            in _flat(messages.commit_message("s", gpio, {}, ["r"], "A <a@b.c>")))
    assert ("tty_ioctl() in drivers/tty/tty_io.c goes on to the line discipline, where TCGETS "
            "and the other termios commands are handled, only when the driver answers "
            "-ENOIOCTLCMD") in body
    assert "generic handling" not in body
    assert "cocci/" not in body and "(ioctl_enotty.cocci of the enotty toolkit, rule ioctl_default_return; not part of the kernel tree)" in body
    # no effects known: no claim about paths
    assert "ENOTTY instead of EINVAL." in body and "callers" not in body


def test_subdev_wording_names_the_walk_that_needs_enoioctlcmd() -> None:
    sites = [_site("drivers/staging/media/x.c", 5, "x_ioctl", "v4l2_subdev_core_ops.ioctl", to="ENOIOCTLCMD")]
    body = _flat(messages.commit_message("s", sites, {}, ["r"], "A <a@b.c>"))
    assert "subdev_do_ioctl() in drivers/media/v4l2-core/v4l2-subdev.c returns the value of x_ioctl()" in body
    assert "v4l2_device_call_until_err() skips a subdevice only when it answers -ENOIOCTLCMD" in body
    assert "generic handling" not in body
    known = [_site("drivers/staging/media/x.c", 5, "x_ioctl", "v4l2_subdev_core_ops.ioctl", to="ENOIOCTLCMD",
                   paths="native+V-compat")]
    assert ("ENOTTY instead of EINVAL for native callers, and for 32-bit callers on a 64-bit kernel "
            "with 'V' commands below BASE_VIDIOC_PRIVATE") in _flat(messages.user_visible(known))


def test_interface_without_a_table_sentence_uses_the_dispatch_row() -> None:
    info = {"rtc_class_ops.ioctl": messages.InterfaceInfo("rtc_class_ops.ioctl", "ENOTTY",
                                                          "drivers/rtc/dev.c:rtc_dev_ioctl")}
    sites = [_site("drivers/rtc/x.c", 5, "x_rtc_ioctl", "rtc_class_ops.ioctl")]
    body = _flat(messages.commit_message("s", sites, info, ["r"], "A <a@b.c>"))
    assert ("rtc_dev_ioctl() in drivers/rtc/dev.c returns the value of x_rtc_ioctl(); no handler "
            "is tried after it.") in body


def test_floppy_effects_are_told_not_hidden() -> None:
    native = _site("drivers/block/floppy.c", 3564, "fd_locked_ioctl", "block_device_operations.ioctl",
                   paths="native", reach="no", visible="unreachable",
                   guard="line 3425: !((cmd & 0xff00) == 0x0200) -> -EINVAL (unknown-command answer); "
                         "line 3430: normalize_ioctl(&cmd, &size) -> -EINVAL (command normaliser)")
    compat = _site("drivers/block/floppy.c", 3914, "fd_compat_ioctl", "block_device_operations.compat_ioctl",
                   paths="compat")
    body = _flat(messages.commit_message("s", [native, compat], {}, ["a", "b"], "A <a@b.c>"))
    assert body.count("fd_compat_ioctl() and fd_locked_ioctl() answer an ioctl command they do not know "
                      "with -EINVAL.") == 1
    assert ("an unknown command now fails with ENOTTY instead of EINVAL for 32-bit callers on a "
            "64-bit kernel (the compat ioctl path)") in body
    assert ("No unknown command reaches the changed line 3564 of fd_locked_ioctl(): it answers -EINVAL "
            "first when `!((cmd & 0xff00) == 0x0200)` (line 3425) or `normalize_ioctl(&cmd, &size)` fails "
            "(line 3430)") in body
    assert "rules a and b;" in body


def test_a_converted_guard_before_a_check_that_still_answers() -> None:
    # 6.12's floppy with the type guard converted: native commands of
    # another type now get ENOTTY; those of type 0x02 that the table lacks
    # still get EINVAL from normalize_ioctl(), which comes after the guard.
    guard = _site("drivers/block/floppy.c", 3426, "fd_locked_ioctl", "block_device_operations.ioctl",
                  rule="ioctl_ioc_guard", paths="native")
    native = _site("drivers/block/floppy.c", 3564, "fd_locked_ioctl", "block_device_operations.ioctl",
                   paths="native", reach="no", visible="unreachable",
                   guard="line 3430: normalize_ioctl(&cmd, &size) -> -EINVAL (command normaliser)")
    body = _flat(messages.commit_message("s", [guard, native], {}, ["a"], "A <a@b.c>"))
    assert ("In fd_locked_ioctl() an unknown command that gets past the check this patch converts "
            "still fails with -EINVAL when `normalize_ioctl(&cmd, &size)` fails (line 3430), before "
            "the default at line 3564 (also converted)") in body
    assert "No unknown command reaches" not in body


def test_uncased_forward_fallback_twin_and_guard_sentences() -> None:
    opl3 = _site("sound/drivers/opl3/opl3_oss.c", 242, "snd_opl3_ioctl_seq_oss", "snd_seq_oss_callback.ioctl",
                 uncased="SNDCTL_SEQ_PERCMODE,SNDCTL_SEQ_RESETSAMPLES")
    body = _flat(messages.commit_message("s", [opl3], {}, ["r"], "A <a@b.c>"))
    assert ("Known commands of the same family that snd_opl3_ioctl_seq_oss() does not handle "
            "(SNDCTL_SEQ_PERCMODE, SNDCTL_SEQ_RESETSAMPLES) get ENOTTY now too.") in body
    # the OSS sequencer's own conditions on the way to the driver
    assert ("hands a command it has no case for to synth device 0, and only on a /dev/sequencer "
            "or /dev/music file opened for writing (on a file opened read-only it answers -EIO)"
            in body)
    assert ("User-visible change: an unknown command on a sequencer file opened for writing whose "
            "synth device 0 is this driver's now fails with ENOTTY instead of EINVAL") in body
    assert "a few synthesizer commands" not in body
    many = _site("a.c", 1, "f", "file_operations.unlocked_ioctl", uncased="A,B,C,D,E,F,G")
    assert "(A, B, C, D and 3 more)" in _flat(messages.user_visible([many]))
    mctp = _site("net/mctp/af_mctp.c", 529, "mctp_ioctl", "proto_ops.ioctl", to="ENOIOCTLCMD",
                 paths="native", forward="sock_do_ioctl() passes SIOC* commands on")
    body = _flat(messages.user_visible([mctp]))
    assert "SIOCGIFINDEX on this socket can now succeed where it failed with EINVAL" in body
    assert "for native callers" in body
    pqi = _site("drivers/scsi/smartpqi/smartpqi_init.c", 1, "pqi_ioctl", "scsi_host_template.ioctl",
                paths="native",
                fallback="compat: scsi_ioctl() in drivers/scsi/scsi_ioctl.c answers -EINVAL (no .compat_ioctl)")
    assert ("32-bit callers on a 64-bit kernel still get EINVAL: scsi_ioctl() in "
            "drivers/scsi/scsi_ioctl.c answers -EINVAL (no .compat_ioctl).") in _flat(messages.user_visible([pqi]))
    sis = _site("drivers/video/fbdev/sis/sis_main.c", 1832, "sisfb_ioctl", "fb_ops.fb_ioctl",
                from_="ENOIOCTLCMD", rule="ioctl_leaf_enoioctlcmd", visible="invisible",
                branches="#else branch (of #ifdef SIS_NEW_CONFIG_COMPAT) keeps -EINVAL at line 1834")
    body = _flat(messages.user_visible([sis]))
    assert body.startswith("User-visible change: none.")
    assert "the #else branch (of #ifdef SIS_NEW_CONFIG_COMPAT) keeps -EINVAL at line 1834" in body
    diu = _site("d.c", 1, "fsl_x_ioctl", "fb_ops.fb_ioctl", reach="partly",
                guard="line 1277: !arg -> -EINVAL (argument check)")
    assert "A command on its way to fsl_x_ioctl() still fails with -EINVAL first when `!arg` (line 1277)." in \
        _flat(messages.user_visible([diu]))


def test_mixed_paths_name_the_functions_compat_callers_reach() -> None:
    sites = [_site("a.c", 1, "f_ioctl", "file_operations.unlocked_ioctl", paths="native"),
             _site("a.c", 9, "g_ioctl", "file_operations.unlocked_ioctl", paths="both")]
    assert ("ENOTTY instead of EINVAL for native callers, and for 32-bit compat callers in g_ioctl()."
            in _flat(messages.user_visible(sites)))


def test_a_leaf_enoioctlcmd_is_no_user_visible_change() -> None:
    # vfs_ioctl() turned -ENOIOCTLCMD into ENOTTY already: the message must
    # not promise user space a change it will not see.
    sites = [_site("sound/usb/x.c", 10, "x_hwdep_ioctl", "snd_hwdep_ops.ioctl", from_="ENOIOCTLCMD",
                   rule="ioctl_leaf_enoioctlcmd")]
    msg = _flat(messages.commit_message("ALSA: x: Return -ENOTTY", sites, {}, ["r"], "A <a@b.c>"))
    assert "User-visible change: none." in msg and "vfs_ioctl()" in msg
    assert "errno 515" not in msg and "argument is wrong" not in msg
    assert messages.abi_note(sites).startswith("ABI note: none.")
    assert "before Linux 5.5" not in msg
    compat = [_site("fs/f2fs/file.c", 5446, "f2fs_compat_ioctl", "file_operations.compat_ioctl",
                    from_="ENOIOCTLCMD", rule="ioctl_leaf_enoioctlcmd")]
    assert ("before Linux 5.5 a compat_ioctl handler had to return -ENOIOCTLCMD"
            in _flat(messages.commit_message("s", compat, {}, ["r"], "A <a@b.c>")))


def test_a_mixed_patch_names_only_the_visible_old_values() -> None:
    sites = [_site("sound/usb/x.c", 10, "x_hwdep_ioctl", "snd_hwdep_ops.ioctl", from_="ENOIOCTLCMD",
                   rule="ioctl_leaf_enoioctlcmd"),
             _site("sound/usb/x.c", 20, "y_hwdep_ioctl", "snd_hwdep_ops.ioctl", from_="ENOSYS")]
    msg = _flat(messages.commit_message("ALSA: x: Return -ENOTTY", sites, {}, ["r"], "A <a@b.c>"))
    assert "y_hwdep_ioctl() answers an ioctl command it does not know with -ENOSYS." in msg
    assert "x_hwdep_ioctl() answers an unknown command with -ENOIOCTLCMD" in msg
    assert "now fails with ENOTTY instead of ENOSYS." in msg
    assert "change in x_hwdep_ioctl() is not visible" in msg
    note = messages.abi_note(sites)
    assert "tested for ENOSYS after" in note


def test_plural() -> None:
    assert messages.plural(1, "site") == "1 site"
    assert messages.plural(2, "site") == "2 sites"
    assert messages.plural(3, "patch", "patches") == "3 patches"


AUDIT = (
    "target\tsource\tfunction\tcommand\tabi\tbefore\tafter\tpatch\n"
    "/dev/fd0\tdrivers/block/floppy.c\tfd_compat_ioctl\tforeign\tnative\tEINVAL\tEINVAL\tblock/0003-floppy.patch\n"
    "/dev/fd0\tdrivers/block/floppy.c\tfd_compat_ioctl\tforeign\tcompat\tEINVAL\tENOTTY\tblock/0003-floppy.patch\n"
    "/dev/fd0\tdrivers/block/floppy.c\tfd_compat_ioctl\town\tnative\tEINVAL\tEINVAL\tblock/0003-floppy.patch\n"
    "/dev/fd0\tdrivers/block/floppy.c\tfd_compat_ioctl\town\tcompat\tEINVAL\tENOTTY\tblock/0003-floppy.patch\n"
    # the probe's own spelling: check:command-name
    "/dev/loop-control\tdrivers/block/loop.c\tloop_control_ioctl\tforeign:FOREIGN_E1_FE\tnative\tENOSYS\tENOTTY\tblock/0004-loop.patch\n"
    "/dev/loop-control\tdrivers/block/loop.c\tloop_control_ioctl\tforeign:FOREIGN_E1_FE\tcompat\tENOSYS\tENOTTY\tblock/0004-loop.patch\n"
    "/dev/loop-control\tdrivers/block/loop.c\tloop_control_ioctl\tsmoke:FIGETBSZ\tnative\t0\t0\tblock/0004-loop.patch\n"
    "/dev/fb0\tdrivers/media/x.c\tvivid_fb_ioctl\tforeign\tnative\tENOTTY\tENOTTY\tmedia/0001-vivid.patch\n"
    "/dev/fb1\tdrivers/media/x.c\tvivid_fb_ioctl\tforeign\tnative\t-\tENOTTY\tmedia/0001-vivid.patch\n"
    "/dev/rtc\tarch/x/rtc.c\trtc_ioctl\tforeign\tnative\tmissing\tmissing\tm68k/0001-rtc.patch\n"
)


def test_tested_line_from_audit_rows() -> None:
    import io
    rows = messages.read_audit(io.StringIO(AUDIT))
    assert len(rows) == 10
    assert messages.tested_line(rows, "0004-loop.patch") == (
        "Tested in QEMU (x86_64; 64-bit and 32-bit callers): an unknown command on "
        "/dev/loop-control now fails with ENOTTY (was ENOSYS). A known command answers as before.")
    # floppy: the guard keeps EINVAL for native callers, only compat changes
    assert messages.tested_line(rows, "block/0003-floppy.patch") == (
        "Tested in QEMU (x86_64): an unknown command on /dev/fd0 still fails with EINVAL for "
        "64-bit callers and now fails with ENOTTY (was EINVAL) for 32-bit callers.")
    assert messages.tested_line(rows, "0001-vivid.patch") == (
        "Tested in QEMU (x86_64; 64-bit callers): an unknown command on /dev/fb0 still fails "
        "with ENOTTY.")
    assert messages.tested_line(rows, "0001-rtc.patch") == ""      # not measured
    assert messages.tested_line(rows, "0009-none.patch") == ""
    msg = messages.commit_message("s", [_site("a.c", 1, "f", "file_operations.unlocked_ioctl")], {}, ["r"],
                                  "A <a@b.c>", tested=messages.tested_line(rows, "0004-loop.patch"))
    assert "Tested in QEMU (x86_64; 64-bit and 32-bit callers): an unknown command on\n/dev/loop-control" in msg


def test_read_audit_rejects_other_headers_and_short_rows() -> None:
    import io
    with pytest.raises(ValueError, match="header"):
        messages.read_audit(io.StringIO("target\tsource\n"))
    with pytest.raises(ValueError, match="line 2"):
        messages.read_audit(io.StringIO(AUDIT.splitlines()[0] + "\nx86_64\t/dev/x\n"))


def test_parse_signoff() -> None:
    assert messages.parse_signoff("Jane Doe <jane@example.org>") == ("Jane Doe", "jane@example.org")
    for bad in ("jane@example.org", "<jane@example.org>", "Jane <nope>"):
        with pytest.raises(ValueError):
            messages.parse_signoff(bad)


def test_socket_forward_is_said_once_with_its_compat_route():
    from enotty.sites import Effects
    eff = Effects("native+SIOC-compat", "yes", "-", "all", "-",
                  "sock_do_ioctl() passes SIOC* commands on to dev_ioctl()", "-", "yes")
    sites = [Site("drivers/isdn/mISDN/socket.c", n, fn, "proto_ops.ioctl", "EINVAL", "ENOIOCTLCMD",
                  "ioctl_default_return", effects=eff)
             for n, fn in ((10, "base_sock_ioctl"), (20, "data_sock_ioctl"))]
    text = " ".join(messages.effects_sentences(sites))
    assert text.count("sock_do_ioctl() passes SIOC*") == 1
    assert "base_sock_ioctl() and data_sock_ioctl()" in text
    assert "compat ioctl path does not reach" not in text
    assert "compat_sock_ioctl_trans() in net/socket.c" in text


def test_tested_line_groups_numbered_nodes_and_says_which_command_got_what() -> None:
    import io
    head = AUDIT.splitlines()[0] + "\n"
    rows = []
    for n in (0, 1, 2, 10):
        for abi in ("native", "compat"):
            rows.append(f"/dev/nbd{n}\tdrivers/block/nbd.c\tnbd_ioctl\tforeign:FOREIGN_E1_FE\t{abi}\t"
                        f"EINVAL\tENOTTY\tblock/0006-nbd.patch\n")
            rows.append(f"/dev/nbd{n}\tdrivers/block/nbd.c\tnbd_ioctl\town:NBD_UNUSED\t{abi}\t"
                        f"EINVAL\tEINVAL\tblock/0006-nbd.patch\n")
    line = messages.tested_line(messages.read_audit(io.StringIO(head + "".join(rows))), "0006-nbd.patch")
    assert line == ("Tested in QEMU (x86_64): on /dev/nbd0 to /dev/nbd10, a command with a foreign "
                    "magic now fails with ENOTTY (was EINVAL); an unused command of the driver's own "
                    "magic still fails with EINVAL.")


def test_cases_an_if_leaves_out_are_named_with_their_configuration() -> None:
    gpio = _site("drivers/gpio/gpiolib-cdev.c", 2620, "gpio_ioctl", "file_operations.unlocked_ioctl",
                 uncased="GPIO_V2_LINE_SET_VALUES_IOCTL,GPIO_GET_LINEEVENT_IOCTL[CONFIG_GPIO_CDEV_V1=n],"
                         "GPIO_GET_LINEHANDLE_IOCTL[CONFIG_GPIO_CDEV_V1=n],FBIOGTYPE[__sparc__ undefined]")
    body = _flat(messages.user_visible([gpio]))
    assert ("Known commands of the same family that gpio_ioctl() does not handle "
            "(GPIO_V2_LINE_SET_VALUES_IOCTL) get ENOTTY now too.") in body
    assert ("With CONFIG_GPIO_CDEV_V1=n, GPIO_GET_LINEEVENT_IOCTL and GPIO_GET_LINEHANDLE_IOCTL have "
            "no case in gpio_ioctl() and get ENOTTY now too.") in body
    assert "When __sparc__ undefined, FBIOGTYPE has no case in gpio_ioctl()" in body
    assert "[" not in body


def test_the_message_names_the_function_the_ops_table_binds() -> None:
    # amiflop: .ioctl = fd_ioctl, which calls fd_locked_ioctl()
    ami = _site("drivers/block/amiflop.c", 1652, "fd_locked_ioctl", "block_device_operations.ioctl",
                from_="ENOSYS", paths="native", entry="fd_ioctl")
    body = _flat(messages.commit_message("s", [ami], {}, ["r"], "A <a@b.c>"))
    assert body.startswith("s fd_ioctl(), through its helper fd_locked_ioctl(), answers an ioctl "
                           "command it does not know with -ENOSYS.")
    assert "blkdev_ioctl() in block/ioctl.c calls fd_ioctl() after the generic block commands" in body
    assert "Commands the driver handles behave as before." in body


@pytest.mark.parametrize("file,interface,entry,said", [
    ("kernel/seccomp.c", "file_operations.unlocked_ioctl", "-",
     "Commands seccomp_notify_ioctl() handles behave as before."),
    ("fs/eventpoll.c", "file_operations.unlocked_ioctl", "-",
     "Commands seccomp_notify_ioctl() handles behave as before."),
    ("net/mctp/af_mctp.c", "proto_ops.ioctl", "-", "Commands the protocol handles behave as before."),
    ("net/bluetooth/bnep/sock.c", "file_operations.unlocked_ioctl", "bnep_sock_ioctl",
     "Commands bnep_sock_ioctl() handles behave as before."),
    ("sound/drivers/x.c", "file_operations.unlocked_ioctl", "-",
     "Commands the driver handles behave as before."),
])
def test_known_commands_sentence_names_who_handles_them(file, interface, entry, said) -> None:
    s = _site(file, 1, "seccomp_notify_ioctl", interface, entry=entry)
    body = _flat(messages.commit_message("s", [s], {}, ["r"], "A <a@b.c>"))
    assert said in body and ("the driver handles" in body) == file.startswith("sound/")


def test_documentation_the_patch_changes_is_said() -> None:
    s = _site("drivers/gpio/gpiolib-cdev.c", 1, "gpio_ioctl", "file_operations.unlocked_ioctl")
    body = _flat(messages.commit_message("s", [s], {}, ["r"], "A <a@b.c>",
                                         docs=["Documentation/userspace-api/gpio/error-codes.rst"]))
    assert ("Documentation/userspace-api/gpio/error-codes.rst, the list of common GPIO error codes, "
            "gets ENOTTY") in body
    assert "error-codes.rst" not in _flat(messages.commit_message("s", [s], {}, ["r"], "A <a@b.c>"))


def test_several_handlers_uncased_commands_are_one_sentence() -> None:
    sites = [_site("drivers/gpio/gpiolib-cdev.c", 2081, "lineevent_ioctl", "file_operations.unlocked_ioctl",
                   rule="ioctl_if_chain",
                   uncased="GPIOHANDLE_SET_CONFIG_IOCTL,GPIOHANDLE_SET_LINE_VALUES_IOCTL,A,B,C"),
             _site("drivers/gpio/gpiolib-cdev.c", 258, "linehandle_ioctl", "file_operations.unlocked_ioctl",
                   uncased="D,E")]
    body = _flat(messages.user_visible(sites))
    assert ("Known commands of the same family that a handler does not handle get ENOTTY now too: "
            "linehandle_ioctl() D and E; lineevent_ioctl() GPIOHANDLE_SET_CONFIG_IOCTL, "
            "GPIOHANDLE_SET_LINE_VALUES_IOCTL and 3 more.") in body
    assert body.count("Known commands") == 1


def test_one_sentence_for_the_same_answer_before_several_dispatches() -> None:
    sites = [_site("drivers/gpio/gpiolib-cdev.c", n, f, "file_operations.unlocked_ioctl", reach="partly",
                   guard=f"line {g}: !rcu_access_pointer({v}->chip) -> -ENODEV (state check)")
             for n, f, g, v in ((258, "linehandle_ioctl", 213, "lh"), (2620, "gpio_ioctl", 2594, "gdev"))]
    body = _flat(messages.user_visible(sites))
    assert ("A command on its way to linehandle_ioctl() and gpio_ioctl() still fails with -ENODEV first, "
            "each when its check before the dispatch holds: linehandle_ioctl() `!rcu_access_pointer(lh->chip)` "
            "(line 213); gpio_ioctl() `!rcu_access_pointer(gdev->chip)` (line 2594).") in body


def test_socket_forward_names_the_bound_handler() -> None:
    bnep = _site("net/bluetooth/bnep/sock.c", 100, "do_bnep_sock_ioctl", "proto_ops.ioctl", to="ENOIOCTLCMD",
                 paths="native", forward="sock_do_ioctl() passes SIOC* commands on", entry="bnep_sock_ioctl")
    body = _flat(messages.commit_message("s", [bnep], {}, ["r"], "A <a@b.c>"))
    assert body.startswith("s bnep_sock_ioctl(), through its helper do_bnep_sock_ioctl(), answers")
    assert "With -ENOIOCTLCMD from bnep_sock_ioctl(), sock_do_ioctl() passes SIOC* commands" in body
    assert "Commands the protocol handles behave as before." in body


def test_each_bound_handler_names_its_own_helper() -> None:
    # loop: lo_ioctl() reaches lo_simple_ioctl(); loop_control_ioctl() is bound itself
    sites = [_site("drivers/block/loop.c", 1540, "lo_simple_ioctl", "block_device_operations.ioctl",
                   entry="lo_ioctl"),
             _site("drivers/block/loop.c", 2240, "loop_control_ioctl", "file_operations.unlocked_ioctl",
                   from_="ENOSYS")]
    body = _flat(messages.commit_message("s", sites, {}, ["r"], "A <a@b.c>"))
    assert body.startswith("s lo_ioctl() (through its helper lo_simple_ioctl()) and loop_control_ioctl() "
                           "answer an ioctl command they do not know with -EINVAL/-ENOSYS.")


def test_atm_dispatch_says_which_commands_need_cap_net_admin() -> None:
    fore = _site("drivers/atm/fore200e.c", 1881, "fore200e_ioctl", "atmdev_ops.ioctl", from_="ENOSYS",
                 paths="native", uncased="SONET_GETSTATZ,ATM_SETCIRANGE")
    body = _flat(messages.commit_message("s", [fore], {}, ["r"], "A <a@b.c>"))
    assert ("atm_dev_ioctl() in net/atm/resources.c calls fore200e_ioctl() for a command it has no case "
            "for, and for ATM_SETLOOP, ATM_SETCIRANGE, SONET_GETSTATZ, SONET_SETDIAG, SONET_CLRDIAG and "
            "SONET_SETFRAMING only when the caller has CAP_NET_ADMIN (-EPERM otherwise)") in body


def test_a_missing_operation_answer_says_it_is_the_drivers_without_one() -> None:
    # uacce's default hands the command to the parent driver's ->ioctl();
    # its -EINVAL answers only when that driver has none (hisi_qm has one).
    s = _site("drivers/misc/uacce/uacce.c", 103, "uacce_fops_unl_ioctl", "file_operations.unlocked_ioctl",
              rule="ioctl_default_assign", reach="no-operation",
              guard="line 103: !uacce->ops->ioctl -> -EINVAL (no operation)")
    msg = _flat(messages.commit_message("uacce: Return -ENOTTY", [s], {}, ["r"], "A <a@b.c>"))
    assert ("uacce_fops_unl_ioctl() answers an ioctl command it does not handle itself with -EINVAL "
            "when the driver behind it provides no uacce->ops->ioctl operation.") in msg
    assert ("User-visible change only where the driver behind uacce_fops_unl_ioctl() provides no "
            "uacce->ops->ioctl operation") in msg
    assert "an unknown command now fails with ENOTTY" not in msg


def test_checks_before_the_dispatch_are_said_with_their_own_errno() -> None:
    # toshiba: `!argp` answers -EINVAL, a failed copy_from_user() -EFAULT
    s = _site("drivers/char/toshiba.c", 278, "tosh_ioctl", "file_operations.unlocked_ioctl", reach="partly",
              guard="line 250: !argp -> -EINVAL (argument check); "
                    "line 254: copy_from_user(&regs, argp, sizeof(SMMRegisters)) -> -EFAULT (argument check)")
    body = _flat(messages.user_visible([s]))
    assert "still fails with -EINVAL first when `!argp` (line 250)." in body
    assert ("still fails with -EFAULT first when `copy_from_user(&regs, argp, sizeof(SMMRegisters))` "
            "(line 254).") in body


def test_the_checks_of_several_sites_of_one_function_are_said_once() -> None:
    # usblp_ioctl(): three converted guards, one `!usblp->present` check
    sites = [_site("drivers/usb/class/usblp.c", n, "usblp_ioctl", "file_operations.unlocked_ioctl",
                   rule="ioctl_ioc_guard", reach="partly",
                   guard="line 529: !usblp->present -> -ENODEV (state check)") for n in (544, 591, 678)]
    body = _flat(messages.user_visible(sites))
    assert ("A command on its way to usblp_ioctl() still fails with -ENODEV first when "
            "`!usblp->present` (line 529).") in body
    assert body.count("line 529") == 1
