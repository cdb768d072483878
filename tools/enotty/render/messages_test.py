"""Commit messages from facts: wording, wrapping, the QEMU line, the golden set."""
from __future__ import annotations
import dataclasses

import os
import re
from pathlib import Path

import pytest

from . import cleanup, messages
from ..find import interfaces
from ..partition import prefixes
from ..find.sites import Effects, Site, read_tsv

TABLE = interfaces.by_name()     # the committed table's rows: their words


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


def _sentences(sites: list[Site]) -> str:
    """What a commit message says a program sees change."""
    return " ".join(messages.effects_sentences(sites, TABLE))


def _msg(sites, info=None, **kw) -> str:
    """The commit message, with the committed table's rows unless info gives others."""
    return messages.commit_message("s: Return -ENOTTY", sites, TABLE if info is None else info, ["r"], "A <a@b.c>", **kw)


def test_commit_message_is_wrapped_and_complete() -> None:
    sites = [_site("drivers/tty/x.c", 10, "x_tty_ioctl_with_a_rather_long_name", "tty_operations.ioctl",
                   to="ENOIOCTLCMD")]
    subj = messages.subject("tty: x:", sites)
    assert subj == "tty: x: Return -ENOIOCTLCMD for unknown ioctl commands"
    # a handler of the file kept: the subject names the patch's own
    assert messages.subject("mm/userfaultfd:", sites, ["userfaultfd_dev_ioctl"]) == \
        "mm/userfaultfd: Return -ENOIOCTLCMD from userfaultfd_dev_ioctl() for unknown commands"
    # Input keeps the summary lower case after its "driver -"
    assert messages.subject("Input: joydev -", sites) == \
        "Input: joydev - return -ENOIOCTLCMD for unknown ioctl commands"
    msg = messages.commit_message(subj, sites, TABLE, ["ioctl_default_return"], "A <a@b.c>")
    lines = msg.splitlines()
    assert lines[0] == subj and lines[1] == ""
    assert lines[-1] == "Signed-off-by: A <a@b.c>" and not lines[-2].startswith("Link:")
    assert all(len(ln) <= 75 for ln in lines[1:])
    body = _flat(msg)
    assert ("tty_ioctl() goes on to the line discipline, where TCGETS and the other termios commands "
            "are handled, only when x_tty_ioctl_with_a_rather_long_name() answers -ENOIOCTLCMD.") in body
    assert ("Documentation/driver-api/ioctl.rst says that a handler answers an unknown command with "
            "-ENOTTY or -ENOIOCTLCMD, and that -EINVAL there is wrong.") in body
    # no sentence true of every patch: no tool, no rule, no "behave as before"
    assert "Coccinelle" not in body and "ioctl_default_return" not in body and "as before" not in body
    # no effects known: no claim about paths
    assert "An unknown command that reaches it now gets ENOTTY instead of EINVAL." in body
    # a plain file_operations handler: the system call's part goes without saying
    gpio = [_site("drivers/gpio/gpiolib-cdev.c", n, f, "file_operations.unlocked_ioctl")
            for n, f in ((1, "gpio_ioctl"), (2, "linereq_ioctl"))]
    assert _flat(_msg(gpio)).startswith(
        "s: Return -ENOTTY gpio_ioctl() and linereq_ioctl() answer an ioctl command they do not know "
        "with -EINVAL. Documentation/driver-api/ioctl.rst says that a handler answers an unknown "
        "command with -ENOTTY or -ENOIOCTLCMD, and that -EINVAL there is wrong.")


def test_subdev_wording_names_the_walk_that_needs_enoioctlcmd() -> None:
    sites = [_site("drivers/staging/media/x.c", 5, "x_ioctl", "v4l2_subdev_core_ops.ioctl", to="ENOIOCTLCMD")]
    body = _flat(_msg(sites))
    assert ("subdev_do_ioctl() returns the answer of x_ioctl() for the commands the sub-device core "
            "does not handle, and video_usercopy() turns -ENOIOCTLCMD into ENOTTY; -ENOIOCTLCMD is "
            "what v4l2_subdev_call() answers for an operation that is missing.") in body
    known = [_site("drivers/staging/media/x.c", 5, "x_ioctl", "v4l2_subdev_core_ops.ioctl", to="ENOIOCTLCMD",
                   paths="native+V-compat")]
    assert ("Native callers, and 32-bit callers with 'V' commands below BASE_VIDIOC_PRIVATE (the "
            "ones v4l2_compat_ioctl32() hands to the native handler), now get ENOTTY instead of EINVAL") in \
        _flat(_sentences(known))


def test_interface_without_a_table_sentence_says_the_dispatch_only_when_it_goes_on() -> None:
    info = {"rtc_class_ops.ioctl": interfaces.Interface("rtc_class_ops", "ioctl", 1, "ENOTTY", True,
                                                        "drivers/rtc/dev.c:rtc_dev_ioctl")}
    sites = [_site("drivers/rtc/x.c", 5, "x_rtc_ioctl", "rtc_class_ops.ioctl")]
    assert "rtc_dev_ioctl()" not in _msg(sites, info)
    info = {"x_ops.ioctl": interfaces.Interface("x_ops", "ioctl", 1, "ENOIOCTLCMD", True,
                                                "drivers/x/core.c:x_core_ioctl")}
    sites = [_site("drivers/x/y.c", 5, "y_ioctl", "x_ops.ioctl", to="ENOIOCTLCMD")]
    assert ("x_core_ioctl() in drivers/x/core.c tries its next handler only when y_ioctl() answers "
            "-ENOIOCTLCMD.") in _flat(_msg(sites, info))


def test_floppy_effects_are_told_not_hidden() -> None:
    native = _site("drivers/block/floppy.c", 3564, "fd_locked_ioctl", "block_device_operations.ioctl",
                   paths="native", reach="no", visible="unreachable",
                   guard="line 3425: !((cmd & 0xff00) == 0x0200) -> -EINVAL (unknown-command answer); "
                         "line 3430: normalize_ioctl(&cmd, &size) -> -EINVAL (command normaliser)")
    compat = _site("drivers/block/floppy.c", 3914, "fd_compat_ioctl", "block_device_operations.compat_ioctl",
                   paths="compat")
    body = _flat(messages.commit_message("s", [native, compat], TABLE, ["a", "b"], "A <a@b.c>"))
    assert body.count("fd_compat_ioctl() and fd_locked_ioctl() answer an ioctl command they do not know "
                      "with -EINVAL.") == 1
    assert "32-bit callers on a 64-bit kernel now get ENOTTY instead of EINVAL for an unknown command." in body
    # the C condition is not pasted: no words for it, the check is named as one
    assert ("In fd_locked_ioctl() a check before the dispatch answers -EINVAL first, so no unknown "
            "command reaches the changed default; this patch leaves that check alone.") in body
    assert "0x0200" not in body and "line" not in body.replace("line discipline", "")
    assert "rules a and b" not in body


def test_a_converted_guard_before_a_check_that_still_answers() -> None:
    # 6.12's floppy with the type guard converted: native commands of
    # another type now get ENOTTY; those of type 0x02 that the table lacks
    # still get EINVAL from normalize_ioctl(), which comes after the guard.
    guard = _site("drivers/block/floppy.c", 3426, "fd_locked_ioctl", "block_device_operations.ioctl",
                  rule="ioctl_ioc_guard", paths="native")
    native = _site("drivers/block/floppy.c", 3564, "fd_locked_ioctl", "block_device_operations.ioctl",
                   paths="native", reach="no", visible="unreachable",
                   guard="line 3430: normalize_ioctl(&cmd, &size) -> -EINVAL (command normaliser)")
    body = _flat(messages.commit_message("s", [guard, native], TABLE, ["a"], "A <a@b.c>"))
    assert ("In fd_locked_ioctl(), past the check this patch converts, a command fails with -EINVAL "
            "first when normalize_ioctl() does not know it; this patch leaves that check alone.") in body
    assert "no unknown command reaches" not in body and "3430" not in body


def test_uncased_forward_fallback_twin_and_guard_sentences() -> None:
    opl3 = _site("sound/drivers/opl3/opl3_oss.c", 242, "snd_opl3_ioctl_seq_oss", "snd_seq_oss_callback.ioctl",
                 uncased="SNDCTL_SEQ_PERCMODE,SNDCTL_SEQ_RESETSAMPLES")
    body = _flat(_msg([opl3]))
    assert ("The uapi commands SNDCTL_SEQ_PERCMODE and SNDCTL_SEQ_RESETSAMPLES, which "
            "snd_opl3_ioctl_seq_oss() has no case for, get ENOTTY too.") in body
    # the OSS sequencer's own conditions on the way to the driver
    assert ("snd_seq_oss_ioctl() hands a command it has no case for to synth device 0, on a "
            "/dev/sequencer or /dev/sequencer2 file opened for writing.") in body
    assert ("now get ENOTTY instead of EINVAL for an unknown command on a sequencer file opened for "
            "writing whose synth device 0 is this driver's.") in body
    many = _site("a.c", 1, "f", "file_operations.unlocked_ioctl", uncased="A,B,C,D,E,F,G")
    assert "The uapi commands A, B, C, D, E, F and G, which f() has no case for" in _flat(_sentences([many]))
    mctp = _site("net/mctp/af_mctp.c", 529, "mctp_ioctl", "proto_ops.ioctl", to="ENOIOCTLCMD",
                 paths="native", forward="sock_do_ioctl() passes SIOC* commands on")
    body = _flat(_sentences([mctp]))
    assert "SIOCGIFINDEX on this socket can succeed where it failed with EINVAL" in body
    assert body.startswith("Native callers now get ENOTTY")
    pqi = _site("drivers/scsi/smartpqi/smartpqi_init.c", 1, "pqi_ioctl", "scsi_host_template.ioctl",
                paths="native",
                fallback="compat: scsi_ioctl() in drivers/scsi/scsi_ioctl.c answers -EINVAL (no .compat_ioctl)")
    assert ("32-bit callers on a 64-bit kernel still get EINVAL: scsi_ioctl() in "
            "drivers/scsi/scsi_ioctl.c answers -EINVAL (no .compat_ioctl).") in _flat(_sentences([pqi]))
    esas2r = _site("drivers/scsi/esas2r/esas2r_ioctl.c", 1, "esas2r_ioctl_handler", "file_operations.unlocked_ioctl",
                   paths="both", fallback="compat: through esas2r_ioctl(), scsi_ioctl() in "
                   "drivers/scsi/scsi_ioctl.c answers -EINVAL (no .compat_ioctl)")
    assert ("32-bit callers on a 64-bit kernel through esas2r_ioctl() still get EINVAL: scsi_ioctl() in "
            "drivers/scsi/scsi_ioctl.c answers -EINVAL (no .compat_ioctl).") in _flat(_sentences([esas2r]))
    sis = _site("drivers/video/fbdev/sis/sis_main.c", 1832, "sisfb_ioctl", "fb_ops.fb_ioctl",
                from_="ENOIOCTLCMD", rule="ioctl_leaf_enoioctlcmd", visible="invisible",
                branches="#else branch (of #ifdef SIS_NEW_CONFIG_COMPAT) keeps -EINVAL at line 1834")
    body = _flat(_sentences([sis]))
    assert body.startswith("User space sees no change.")
    assert ("In sisfb_ioctl() the #else branch (of #ifdef SIS_NEW_CONFIG_COMPAT) keeps -EINVAL; "
            "this patch does not change it.") in body
    diu = _site("d.c", 1, "fsl_x_ioctl", "fb_ops.fb_ioctl", reach="partly",
                guard="line 1277: !arg -> -EINVAL (argument check)")
    assert "A command still fails with -EINVAL first for a NULL argument." in _flat(_sentences([diu]))


def test_mixed_paths_name_the_functions_compat_callers_reach() -> None:
    sites = [_site("a.c", 1, "f_ioctl", "file_operations.unlocked_ioctl", paths="native"),
             _site("a.c", 9, "g_ioctl", "file_operations.unlocked_ioctl", paths="both")]
    assert ("Native callers, and 32-bit callers of g_ioctl(), now get ENOTTY instead of EINVAL for an "
            "unknown command." in _flat(_sentences(sites)))


def test_a_leaf_enoioctlcmd_is_no_user_visible_change() -> None:
    # vfs_ioctl() turned -ENOIOCTLCMD into ENOTTY already: the message must
    # not promise user space a change it will not see.
    sites = [_site("sound/usb/x.c", 10, "x_hwdep_ioctl", "snd_hwdep_ops.ioctl", from_="ENOIOCTLCMD",
                   rule="ioctl_leaf_enoioctlcmd")]
    msg = _flat(messages.commit_message("ALSA: x: Return -ENOTTY", sites, TABLE, ["r"], "A <a@b.c>"))
    assert "User space sees no change." in msg and "the ioctl system call turns into -ENOTTY" in msg
    assert "errno 515" not in msg and "argument is wrong" not in msg
    assert "before Linux 5.5" not in msg.replace("Before", "before")
    compat = [_site("fs/f2fs/file.c", 5446, "f2fs_compat_ioctl", "file_operations.compat_ioctl",
                    from_="ENOIOCTLCMD", rule="ioctl_leaf_enoioctlcmd")]
    assert ("Before Linux 5.5 a compat_ioctl handler had to return -ENOIOCTLCMD"
            in _flat(messages.commit_message("s", compat, TABLE, ["r"], "A <a@b.c>")))


def test_a_mixed_patch_names_only_the_visible_old_values() -> None:
    sites = [_site("sound/usb/x.c", 10, "x_hwdep_ioctl", "snd_hwdep_ops.ioctl", from_="ENOIOCTLCMD",
                   rule="ioctl_leaf_enoioctlcmd"),
             _site("sound/usb/x.c", 20, "y_hwdep_ioctl", "snd_hwdep_ops.ioctl", from_="ENOSYS")]
    msg = _flat(messages.commit_message("ALSA: x: Return -ENOTTY", sites, TABLE, ["r"], "A <a@b.c>"))
    assert "y_hwdep_ioctl() answers an ioctl command it does not know with -ENOSYS." in msg
    assert "and that -ENOSYS there is wrong." in msg
    assert "now gets ENOTTY instead of ENOSYS." in msg
    assert "In x_hwdep_ioctl() -ENOIOCTLCMD becomes -ENOTTY; user space already saw ENOTTY there." in msg


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
        "/dev/loop-control now fails with ENOTTY (was ENOSYS).")
    # floppy: the guard keeps EINVAL for native callers, only compat changes
    assert messages.tested_line(rows, "block/0003-floppy.patch") == (
        "Tested in QEMU (x86_64): an unknown command on /dev/fd0 still fails with EINVAL for "
        "64-bit callers and now fails with ENOTTY (was EINVAL) for 32-bit callers.")
    assert messages.tested_line(rows, "0001-vivid.patch") == (
        "Tested in QEMU (x86_64; 64-bit callers): an unknown command on /dev/fb0 still fails "
        "with ENOTTY.")
    assert messages.tested_line(rows, "0001-rtc.patch") == ""      # not measured
    # Another guest's rows ("[ppc] /dev/apm_bios") name that guest, not x86_64's ABIs.
    ppc = [dict(r, target="[ppc] " + r["target"], abi="native") for r in rows
           if r["patch"].endswith("0004-loop.patch")]
    assert messages.tested_line(ppc, "0004-loop.patch") == (
        "Tested in QEMU (ppc): an unknown command on /dev/loop-control now fails with ENOTTY "
        "(was ENOSYS).")
    # A guest that ran native and -m32 (sparc64) names its callers as x86_64's does.
    sparc = [dict(r, target="[sparc64] " + r["target"]) for r in rows
             if r["patch"].endswith("0004-loop.patch")]
    assert messages.tested_line(sparc, "0004-loop.patch") == (
        "Tested in QEMU (sparc64; 64-bit and 32-bit callers): an unknown command on "
        "/dev/loop-control now fails with ENOTTY (was ENOSYS).")
    assert messages.tested_line(rows + ppc, "0004-loop.patch") == (
        messages.tested_line(rows, "0004-loop.patch") + " " + messages.tested_line(ppc, "0004-loop.patch"))
    assert messages.tested_line(rows, "0009-none.patch") == ""
    msg = messages.commit_message("s", [_site("a.c", 1, "f", "file_operations.unlocked_ioctl")], TABLE, ["r"],
                                  "A <a@b.c>", tested=messages.tested_line(rows, "0004-loop.patch"))
    assert "Tested in QEMU (x86_64; 64-bit and 32-bit callers): an unknown command on\n/dev/loop-control" in msg


def test_read_audit_rejects_other_headers_and_short_rows() -> None:
    import io
    with pytest.raises(ValueError, match="header"):
        messages.read_audit(io.StringIO("target\tsource\n"))
    with pytest.raises(ValueError, match="line 2"):
        messages.read_audit(io.StringIO(AUDIT.splitlines()[0] + "\nx86_64\t/dev/x\n"))


def test_socket_forward_is_said_once_with_its_compat_route():
    from ..find.sites import Effects
    eff = Effects("native+SIOC-compat", "yes", "-", "all", "-",
                  "sock_do_ioctl() passes SIOC* commands on to dev_ioctl()", "-", "yes")
    sites = [Site("drivers/isdn/mISDN/socket.c", n, fn, "proto_ops.ioctl", "EINVAL", "ENOIOCTLCMD",
                  "ioctl_default_return", effects=eff)
             for n, fn in ((10, "base_sock_ioctl"), (20, "data_sock_ioctl"))]
    text = " ".join(messages.effects_sentences(sites, TABLE))
    assert text.count("passes SIOC*") == 1
    assert text.startswith("Native callers now get ENOTTY")
    assert ("32-bit callers reach this code only with the SIOC* commands compat_sock_ioctl_trans() "
            "passes on, and take the same way.") in text
    body = _flat(_msg(sites))
    assert body.count("base_sock_ioctl() and data_sock_ioctl()") == 1
    assert ("sock_do_ioctl() hands a command on to dev_ioctl() only when each of them answers "
            "-ENOIOCTLCMD.") in body


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
    body = _flat(_sentences([gpio]))
    assert ("The uapi command GPIO_V2_LINE_SET_VALUES_IOCTL, which gpio_ioctl() has no case for, "
            "gets ENOTTY too.") in body
    assert ("With CONFIG_GPIO_CDEV_V1=n, GPIO_GET_LINEEVENT_IOCTL and GPIO_GET_LINEHANDLE_IOCTL have "
            "no case in gpio_ioctl() and get ENOTTY too.") in body
    assert "When __sparc__ is not defined, FBIOGTYPE has no case in gpio_ioctl()" in body
    assert "[" not in body


def test_commands_of_another_selector_branch_are_named_with_the_selector() -> None:
    vme = _site("drivers/staging/vme_user/vme_user.c", 432, "vme_user_ioctl", "file_operations.unlocked_ioctl",
                uncased="VME_IRQ_GEN[branch type[minor]],VME_GET_MASTER[branch type[minor]]")
    body = _flat(_sentences([vme]))
    assert ("VME_IRQ_GEN and VME_GET_MASTER also get ENOTTY instead of EINVAL when the switch on "
            "type[minor] in vme_user_ioctl() takes a branch that has no case for them.") in body


def test_a_hand_off_says_where_the_class_of_commands_goes() -> None:
    pcm = _site("sound/core/oss/pcm_oss.c", 2626, "snd_pcm_oss_ioctl", "file_operations.unlocked_ioctl",
                reach="partly", guard="line 2612: #if IS_REACHABLE(CONFIG_SND_MIXER_OSS): ((cmd >> 8) & 0xff) == 'M'"
                " -> -snd_mixer_oss_ioctl_card (hand-off)")
    body = _flat(_sentences([pcm]))
    assert ("A command of type 'M' still goes to snd_mixer_oss_ioctl_card() before snd_pcm_oss_ioctl() "
            "looks at it, and gets its answer in kernels where IS_REACHABLE(CONFIG_SND_MIXER_OSS) "
            "holds.") in body
    assert "first" not in body


def test_the_message_names_the_function_the_ops_table_binds() -> None:
    # amiflop: .ioctl = fd_ioctl, which calls fd_locked_ioctl()
    ami = _site("drivers/block/amiflop.c", 1652, "fd_locked_ioctl", "block_device_operations.ioctl",
                from_="ENOSYS", paths="native", entry="fd_ioctl")
    body = _flat(messages.commit_message("s", [ami], TABLE, ["r"], "A <a@b.c>"))
    assert body.startswith("s fd_ioctl(), through fd_locked_ioctl(), answers an ioctl "
                           "command it does not know with -ENOSYS.")
    assert "blkdev_ioctl() calls fd_ioctl() after the generic block commands." in body


def test_documentation_the_patch_changes_is_said() -> None:
    s = _site("drivers/gpio/gpiolib-cdev.c", 1, "gpio_ioctl", "file_operations.unlocked_ioctl")
    body = _flat(messages.commit_message("s", [s], TABLE, ["r"], "A <a@b.c>",
                                         docs=["Documentation/userspace-api/gpio/error-codes.rst"]))
    assert ("Documentation/userspace-api/gpio/error-codes.rst, the list of common GPIO error codes, "
            "gets ENOTTY") in body
    assert "error-codes.rst" not in _flat(messages.commit_message("s", [s], TABLE, ["r"], "A <a@b.c>"))


def test_several_handlers_name_only_the_commands_none_of_them_has() -> None:
    # cxl: afu_ioctl()'s list holds device_ioctl()'s commands and the other
    # way round; said together they read as if working commands broke
    sites = [_site("drivers/gpio/gpiolib-cdev.c", 2081, "lineevent_ioctl", "file_operations.unlocked_ioctl",
                   rule="ioctl_if_chain",
                   uncased="GPIOHANDLE_SET_CONFIG_IOCTL,GPIOHANDLE_SET_LINE_VALUES_IOCTL,D,E,C"),
             _site("drivers/gpio/gpiolib-cdev.c", 258, "linehandle_ioctl", "file_operations.unlocked_ioctl",
                   uncased="D,E,F")]
    body = _flat(_sentences(sites))
    assert "The uapi commands D and E, which none of these handlers has a case for, get ENOTTY too." in body
    assert body.count("The uapi commands") == 1
    apart = [dataclasses.replace(sites[0], effects=dataclasses.replace(sites[0].effects, uncased="A,B")),
             dataclasses.replace(sites[1], effects=dataclasses.replace(sites[1].effects, uncased="C"))]
    assert "uapi command" not in _flat(_sentences(apart))


def test_one_sentence_for_the_same_answer_before_several_dispatches() -> None:
    sites = [_site("drivers/gpio/gpiolib-cdev.c", n, f, "file_operations.unlocked_ioctl", reach="partly",
                   guard=f"line {g}: !rcu_access_pointer({v}->chip) -> -ENODEV (state check)")
             for n, f, g, v in ((258, "linehandle_ioctl", 213, "lh"), (2620, "gpio_ioctl", 2594, "gdev"))]
    body = _flat(_sentences(sites))
    assert "A command still fails with -ENODEV first once the device is gone." in body
    assert body.count("ENODEV") == 1 and "rcu_access_pointer" not in body


def test_a_check_without_words_of_its_own_is_left_out_not_pasted() -> None:
    s = _site("drivers/demo/demo.c", 1, "demo_ioctl", "file_operations.unlocked_ioctl", reach="partly",
              guard="line 2204: !demo_master || !demo_master->data -> -ENODEV (state check)")
    body = _flat(_sentences([s]))
    assert "demo_master" not in body and "2204" not in body
    # no words of its own: left out rather than said vaguely
    assert "ENODEV" not in body
    # a check of no known kind is left out
    s = _site("a.c", 1, "f", "file_operations.unlocked_ioctl", reach="partly",
              guard="line 9: x->y == 3 -> -EIO (other)")
    assert "EIO" not in _flat(_sentences([s]))


def test_socket_forward_names_the_bound_handler() -> None:
    bnep = _site("net/bluetooth/bnep/sock.c", 100, "do_bnep_sock_ioctl", "proto_ops.ioctl", to="ENOIOCTLCMD",
                 paths="native", forward="sock_do_ioctl() passes SIOC* commands on", entry="bnep_sock_ioctl")
    body = _flat(messages.commit_message("s", [bnep], TABLE, ["r"], "A <a@b.c>"))
    assert body.startswith("s bnep_sock_ioctl(), through do_bnep_sock_ioctl(), answers")
    assert ("sock_do_ioctl() hands a command on to dev_ioctl() only when bnep_sock_ioctl() answers "
            "-ENOIOCTLCMD.") in body
    assert "sock_do_ioctl() now passes SIOC* commands on to dev_ioctl()" in body


def test_each_bound_handler_names_its_own_helper() -> None:
    # loop: lo_ioctl() reaches lo_simple_ioctl(); loop_control_ioctl() is bound itself
    sites = [_site("drivers/block/loop.c", 1540, "lo_simple_ioctl", "block_device_operations.ioctl",
                   entry="lo_ioctl"),
             _site("drivers/block/loop.c", 2240, "loop_control_ioctl", "file_operations.unlocked_ioctl",
                   from_="ENOSYS")]
    body = _flat(messages.commit_message("s", sites, TABLE, ["r"], "A <a@b.c>"))
    # each with its own answer, not "-EINVAL/-ENOSYS" of both
    assert body.startswith("s lo_ioctl() (through lo_simple_ioctl()) answers an ioctl command it does not "
                           "know with -EINVAL and loop_control_ioctl() with -ENOSYS.")


def test_atm_dispatch_names_the_core_that_calls_the_driver() -> None:
    fore = _site("drivers/atm/fore200e.c", 1881, "fore200e_ioctl", "atmdev_ops.ioctl", from_="ENOSYS",
                 paths="native", uncased="SONET_GETSTATZ,ATM_SETCIRANGE")
    body = _flat(messages.commit_message("s", [fore], TABLE, ["r"], "A <a@b.c>"))
    assert ("atm_dev_ioctl() calls fore200e_ioctl() for a command it has no case for, and for ATM_SETLOOP,"
            " ATM_SETCIRANGE, SONET_GETSTATZ, SONET_SETDIAG, SONET_CLRDIAG and SONET_SETFRAMING once the"
            " caller has CAP_NET_ADMIN (without it they fail with EPERM).") in body


def test_the_cores_own_exit_gets_no_sentence_of_the_core_calling_itself() -> None:
    core = _site("net/atm/resources.c", 327, "atm_dev_ioctl", "atmdev_ops.ioctl", paths="native")
    body = _flat(messages.commit_message("s", [core], TABLE, ["r"], "A <a@b.c>"))
    assert "atm_dev_ioctl() calls atm_dev_ioctl()" not in body


def test_a_missing_operation_answer_says_it_is_the_drivers_without_one() -> None:
    # uacce's default hands the command to the parent driver's ->ioctl();
    # its -EINVAL answers only when that driver has none (hisi_qm has one).
    s = _site("drivers/misc/uacce/uacce.c", 103, "uacce_fops_unl_ioctl", "file_operations.unlocked_ioctl",
              rule="ioctl_default_assign", reach="no-operation",
              guard="line 103: !uacce->ops->ioctl -> -EINVAL (no operation)")
    msg = _flat(messages.commit_message("uacce: Return -ENOTTY", [s], TABLE, ["r"], "A <a@b.c>"))
    assert ("uacce_fops_unl_ioctl() answers an ioctl command it does not handle itself with -EINVAL "
            "when the driver behind it provides no uacce->ops->ioctl operation.") in msg
    assert ("Where the driver behind uacce_fops_unl_ioctl() provides no uacce->ops->ioctl operation, a "
            "command uacce_fops_unl_ioctl() does not handle itself now gets ENOTTY instead of EINVAL.") in msg
    assert "for an unknown command" not in msg


def test_checks_before_the_dispatch_are_said_with_their_own_errno() -> None:
    # toshiba: `!argp` answers -EINVAL, a failed copy_from_user() -EFAULT
    s = _site("drivers/char/toshiba.c", 278, "tosh_ioctl", "file_operations.unlocked_ioctl", reach="partly",
              guard="line 250: !argp -> -EINVAL (argument check); "
                    "line 254: copy_from_user(&regs, argp, sizeof(SMMRegisters)) -> -EFAULT (argument check)")
    body = _flat(_sentences([s]))
    assert ("A command still fails with -EINVAL first for a NULL argument and -EFAULT first when its "
            "argument cannot be copied from user space.") in body
    assert "line" not in body and "`" not in body


def test_the_checks_of_several_sites_of_one_function_are_said_once() -> None:
    # usblp_ioctl(): three converted guards, one `!usblp->present` check
    sites = [_site("drivers/usb/class/usblp.c", n, "usblp_ioctl", "file_operations.unlocked_ioctl",
                   rule="ioctl_ioc_guard", reach="partly",
                   guard="line 529: !usblp->present -> -ENODEV (state check)") for n in (544, 591, 678)]
    body = _flat(_sentences(sites))
    assert body.count("A command still fails with -ENODEV first once the device is gone.") == 1
    assert body.count("ENODEV") == 1


def test_without_line_numbers() -> None:
    assert messages.without_line_numbers("keeps -EINVAL at line 1834") == "keeps -EINVAL"
    assert messages.without_line_numbers("`!arg` (line 12) fails") == "`!arg` fails"


# Golden messages: tools/enotty/testdata/golden/NAME.sites.tsv holds a
# patch's rows of a generated sites.tsv (NAME.audit.tsv its audit.tsv rows,
# when it was measured); NAME.txt is the message written from them,
# reviewed by reading.  Any change to the words shows up as a diff of the
# .txt files: regenerate them with
#   ENOTTY_GOLDEN=write PYTHONPATH=tools python3 -m pytest tools/enotty/render/messages_test.py -k golden
# and read the diff before committing it.
GOLDEN = Path(__file__).parents[1].joinpath("testdata") / "golden"
GOLDEN_SIGNOFF = "Jane Developer <jane@example.org>"


def golden_message(name: str) -> str:
    """The commit message of golden case name, from its facts alone."""
    with open(GOLDEN / f"{name}.sites.tsv") as fh:
        sites = read_tsv(fh)
    paths = sorted({s.file for s in sites})
    prefix = prefixes.patch_prefix(None, paths)
    if name.startswith("cleanup-"):
        return cleanup.commit_message(prefix, sites, GOLDEN_SIGNOFF)
    tested = ""
    audit = GOLDEN / f"{name}.audit.tsv"
    if audit.is_file():
        with open(audit) as fh:
            rows = messages.read_audit(fh)
        tested = messages.tested_line(rows, rows[0]["patch"])
    ifaces = TABLE
    return messages.commit_message(messages.subject(prefix, sites), sites, ifaces,
                                   sorted({s.rule for s in sites}), GOLDEN_SIGNOFF, tested=tested)


GOLDEN_CASES = sorted(p.name[:-len(".sites.tsv")] for p in GOLDEN.glob("*.sites.tsv"))


def test_golden_set_is_varied() -> None:
    assert len(GOLDEN_CASES) >= 12
    assert any(n.startswith("cleanup-") for n in GOLDEN_CASES)
    assert sum((GOLDEN / f"{n}.audit.tsv").is_file() for n in GOLDEN_CASES) >= 3


@pytest.mark.parametrize("name", GOLDEN_CASES)
def test_golden_message(name: str) -> None:
    made = golden_message(name)
    expected = GOLDEN / f"{name}.txt"
    if os.environ.get("ENOTTY_GOLDEN") == "write":
        expected.write_text(made)
    assert expected.is_file(), f"no {expected.name}: run with ENOTTY_GOLDEN=write and review it"
    assert made == expected.read_text()


@pytest.mark.parametrize("name", GOLDEN_CASES)
def test_golden_message_reads_like_an_upstream_one(name: str) -> None:
    """What message-hygiene checks, on each golden message: a short body,
    no line numbers, no file a maintainer does not receive, 75 columns."""
    text = (GOLDEN / f"{name}.txt").read_text()
    body = [ln for ln in text.split("\n\n", 1)[1].splitlines() if not ln.startswith("Signed-off-by:")]
    while body and not body[-1].strip():
        body.pop()
    assert len(body) <= 25
    assert not re.search(r"\blines? \d{2,5}\b|\.[ch]:\d{2,5}\b", text)
    assert not re.search(r"AUDIT\.md|SUMMARY\.md|sites\.tsv|failed\.tsv|Coccinelle|enotty", text)
    assert all(len(ln) <= 75 for ln in text.splitlines()[1:])


def test_probe_targets_are_said_in_a_maintainers_words() -> None:
    assert messages.target_words("tun:attached") == "a /dev/net/tun fd after TUNSETIFF"
    assert messages.target_words("socket:bluetooth/hidp") == "a Bluetooth hidp socket"
    assert messages.target_words("debugfs:gup_test") == "/sys/kernel/debug/gup_test"
    assert messages.target_words("socket:mctp") == "an AF_MCTP socket"
    assert messages.target_words("/dev/fd0") == "/dev/fd0"
    rows = [{"target": "tun:attached", "source": "drivers/net/tun.c", "function": "f",
             "command": "foreign:X", "abi": "native", "before": "EINVAL", "after": "ENOTTY", "patch": "p"}]
    assert "on a /dev/net/tun fd after TUNSETIFF now fails with ENOTTY" in messages.tested_line(rows, "p")


def test_a_joined_condition_is_not_called_the_check_of_its_first_function() -> None:
    autofs = _site("fs/autofs/root.c", 1, "autofs_root_ioctl_unlocked", "file_operations.unlocked_ioctl",
                   reach="partly", guard="line 867: !autofs_oz_mode(sbi) && !capable(CAP_SYS_ADMIN) -> -EPERM "
                                         "(state check)")
    body = _flat(_sentences([autofs]))
    assert ("A command still fails with -EPERM first unless the caller is in the automount daemon's process "
            "group, the mount is catatonic, or the caller has CAP_SYS_ADMIN.") in body
    other = _site("a.c", 1, "f", "file_operations.unlocked_ioctl", reach="partly",
                  guard="line 9: !ready(x) && !capable(CAP_SYS_ADMIN) -> -EPERM (state check)")
    assert "ready() check" not in _flat(_sentences([other]))


def test_a_line_built_in_one_configuration_makes_no_abi_claim() -> None:
    sis = _site("drivers/video/fbdev/sis/sis_main.c", 1834, "sisfb_ioctl", "fb_ops.fb_ioctl",
                branches="only with SIS_NEW_CONFIG_COMPAT undefined")
    body = _flat(_sentences([sis]))
    assert body.startswith("The changed line of sisfb_ioctl() is built only with SIS_NEW_CONFIG_COMPAT "
                           "undefined. There, callers now get ENOTTY instead of EINVAL")
    assert "32-bit" not in body and body.count("is built only with") == 1


def test_a_range_check_measured_answering_enotty_narrows_the_claim() -> None:
    rows = [{"target": "dir:/autofs", "source": "fs/autofs/root.c", "function": "f", "command": c,
             "abi": abi, "before": b, "after": "ENOTTY", "patch": "p"}
            for c, b in (("foreign:X", "ENOTTY"), ("own:Y", "EINVAL")) for abi in ("native", "compat")]
    assert messages.changed_type(rows) == "own"
    assert messages.changed_type([dict(r, before="EINVAL") for r in rows]) == ""
    s = _site("fs/autofs/root.c", 1, "autofs_root_ioctl", "file_operations.unlocked_ioctl")
    body = _flat(messages.commit_message("s", [s], TABLE, ["r"], "A <a@b.c>", changed_type="own"))
    assert ("autofs_root_ioctl() answers some unknown ioctl commands of its own type with -EINVAL; "
            "commands of other types already get -ENOTTY.") in body
    assert "Such a command now gets ENOTTY instead of EINVAL." in body


def test_a_type_guard_measured_changing_foreign_commands_alone_says_so() -> None:
    # nbd: __nbd_ioctl() answered an unused nbd command ENOTTY before the patch
    rows = [{"target": "/dev/nbd0", "source": "drivers/block/nbd.c", "function": "f", "command": c,
             "abi": abi, "before": b, "after": "ENOTTY", "patch": "p"}
            for c, b in (("foreign:X", "EINVAL"), ("own:Y", "ENOTTY")) for abi in ("native", "compat")]
    assert messages.changed_type(rows) == "foreign"
    assert messages.changed_type([dict(r, before="ENOTTY") for r in rows]) == ""
    s = _site("drivers/block/nbd.c", 1, "nbd_ioctl", "file_operations.unlocked_ioctl")
    body = _flat(messages.commit_message("s", [s], TABLE, ["r"], "A <a@b.c>", changed_type="foreign"))
    assert "nbd_ioctl() answers an ioctl command of another type with -EINVAL." in body
    assert "does not know" not in body
    assert "Such a command now gets ENOTTY instead of EINVAL." in body


def test_a_command_of_an_arch_header_is_said_for_that_arch() -> None:
    s = _site("drivers/video/fbdev/aty/atyfb_base.c", 1, "atyfb_ioctl", "fb_ops.fb_ioctl",
              uncased="FBIOGET_VBLANK,FBIO_WID_ALLOC[on sparc],FBIO_WID_FREE[on sparc]")
    body = _flat(_sentences([s]))
    assert "On sparc, FBIO_WID_ALLOC and FBIO_WID_FREE have no case in atyfb_ioctl() and get ENOTTY too." in body
    assert "The uapi command FBIOGET_VBLANK, which atyfb_ioctl() has no case for" in body


def test_numbered_targets_that_answer_alike_are_named_together() -> None:
    def rows(*targets: str) -> list[dict[str, str]]:
        return [dict(target=t, source="d.c", function="f", command="foreign", abi="native",
                     before="EINVAL", after="ENOTTY", patch="s/0001-x.patch") for t in targets]
    two = messages.tested_line(rows("[arm] /dev/ipmi-kcs3", "[arm] /dev/ipmi-kcs2"), "0001-x.patch")
    assert two == ("Tested in QEMU (arm): an unknown command on /dev/ipmi-kcs2 and /dev/ipmi-kcs3 "
                   "now fails with ENOTTY (was EINVAL).")
    three = messages.tested_line(rows("/dev/nbd0", "/dev/nbd1", "/dev/nbd2"), "0001-x.patch")
    assert "on /dev/nbd0 to /dev/nbd2 now fails" in three


@pytest.mark.parametrize("guard, sentence", [
    ("line 3178: !tun -> -EBADFD (state check)",
     # tun's check only: tun_vnet.h's helper also serves tap_ioctl()
     "A command still fails with -EBADFD first on a tun fd that TUNSETIFF has not attached to a device."),
    ("line 264: !as->suser || !as->writer -> -EPERM (state check)",
     "A command still fails with -EPERM first unless the file was opened for writing with CAP_SYS_ADMIN."),
    ("line 2086: data->zombie -> -ENODEV (state check)",
     "A command still fails with -ENODEV first once the device is gone."),
    # evdev: EVIOCREVOKE also turns a client away (a reviewer)
    ("line 1272: !evdev->exist || client->revoked -> -ENODEV (state check)",
     "A command still fails with -ENODEV first once the device is gone or the client has been revoked."),
    # mptctl: three checks before the dispatch, each said (three reviews asked)
    ("line 628: copy_from_user(&khdr, uhdr, sizeof(khdr)) -> -EFAULT (argument check); "
     "line 640: (mpt_verify_adapter(iocnumX, &iocp) < 0) || (iocp == NULL) -> -ENODEV (state check); "
     "line 643: !iocp->active -> -EFAULT (state check)",
     "A command still fails with -EFAULT first when its argument cannot be copied from user space,"
     " -ENODEV first when the header's iocnum names no adapter and -EFAULT first while the controller"
     " is disabled."),
    # aspeed-lpc-ctrl: a test of the struct it copied, with no words of its own
    ("line 81: copy_from_user(&map, p, sizeof(map)) -> -EFAULT (argument check); "
     "line 84: map.flags != 0 -> -EINVAL (argument check)",
     "A command still fails with -EFAULT first when its argument cannot be copied from user space"
     " and -EINVAL first when its argument fails the check `map.flags != 0`."),
])
def test_a_state_check_is_said_in_words(guard: str, sentence: str) -> None:
    s = _site("drivers/x/y.c", 10, "y_ioctl", "file_operations.unlocked_ioctl", reach="partly", guard=guard)
    assert sentence in _flat(_sentences([s]))


def test_why_sentence_says_what_enotsupp_is() -> None:
    plain = messages.why_sentence({"EINVAL"}, {"ENOTTY"})
    assert plain.endswith("and that -EINVAL there is wrong.") and "524" not in plain
    both = messages.why_sentence({"EINVAL", "ENOTSUPP"}, {"ENOTTY"})
    assert both.startswith(plain) and both.endswith('sees as "Unknown error 524".')


def test_a_helper_in_a_header_names_each_handler_and_its_file() -> None:
    """One site in a header (7.2's tun_vnet_ioctl() in drivers/net/tun_vnet.h)
    changes the answer of handlers in other files: the message names each
    with its file."""
    site = _site("drivers/net/tun_vnet.h", 108, "tun_vnet_ioctl", "file_operations.unlocked_ioctl",
                 entry="drivers/net/tap.c:tap_ioctl,drivers/net/tun.c:tun_chr_ioctl")
    assert messages.entries(site) == ["tap_ioctl", "tun_chr_ioctl"]
    assert ("tap_ioctl() in drivers/net/tap.c and tun_chr_ioctl() in drivers/net/tun.c (through "
            "tun_vnet_ioctl()) answer an ioctl command they do not know with -EINVAL.") in _flat(_msg([site]))
    # a helper of its own file's handler names no file
    beside = _site("drivers/block/amiflop.c", 1652, "fd_locked_ioctl", "block_device_operations.ioctl",
                   entry="fd_ioctl")
    assert "fd_ioctl(), through fd_locked_ioctl(), answers" in _flat(_msg([beside]))


def test_uncased_commands_are_said_with_the_argument_check_that_answers_first() -> None:
    """rpmsg_ctrldev_ioctl() copies its struct before the switch: the usual
    argument of RPMSG_DESTROY_EPT_IOCTL (0) gets EFAULT, so "ENOTTY too"
    holds only for an argument that passes (a reviewer asked for toshiba's
    TOSHIBA_ACPI_SCI to be named); without the check they are said plainly."""
    guarded = _site("drivers/rpmsg/rpmsg_ctrl.c", 114, "rpmsg_ctrldev_ioctl", "file_operations.unlocked_ioctl",
                    reach="partly", uncased="RPMSG_DESTROY_EPT_IOCTL,RPMSG_SET_INCOMING_FLOWCONTROL",
                    guard="line 84: copy_from_user(&eptinfo, argp, sizeof(eptinfo)) -> -EFAULT (argument check)")
    body = _flat(_sentences([guarded]))
    assert "-EFAULT first when its argument cannot be copied from user space" in body
    assert ("The uapi commands RPMSG_DESTROY_EPT_IOCTL and RPMSG_SET_INCOMING_FLOWCONTROL, which"
            " rpmsg_ctrldev_ioctl() has no case for, get ENOTTY too with an argument that passes those"
            " checks.") in body
    plain = _site("drivers/rpmsg/rpmsg_ctrl.c", 114, "rpmsg_ctrldev_ioctl", "file_operations.unlocked_ioctl",
                  uncased="RPMSG_DESTROY_EPT_IOCTL,RPMSG_SET_INCOMING_FLOWCONTROL")
    said = _flat(_sentences([plain]))
    assert "get ENOTTY too." in said and "passes those checks" not in said


def test_a_command_filter_read_from_the_code_narrows_the_claim() -> None:
    # 7.2's autofs without an audit: its type and number range test already
    # answers -ENOTTY, so "an unknown command" would overstate the change
    s = _site("fs/autofs/root.c", 904, "autofs_root_ioctl_unlocked", "file_operations.unlocked_ioctl",
              reach="partly", entry="autofs_root_ioctl",
              guard="line 866: by _IOC_TYPE(cmd), _IOC_NR(cmd) -> -ENOTTY (command filter); "
                    "line 870: !autofs_oz_mode(sbi) && !capable(CAP_SYS_ADMIN) -> -EPERM (state check)")
    body = _flat(messages.commit_message("s", [s], TABLE, ["r"], "A <a@b.c>"))
    assert ("autofs_root_ioctl(), through autofs_root_ioctl_unlocked(), answers -ENOTTY for a command of "
            "another type or with a number outside its range, but -EINVAL for an unknown command that "
            "passes that check.") in body
    assert "Native and 32-bit callers now get ENOTTY instead of EINVAL for such a command." in body
    assert "for an unknown command." not in body and "-ENOTTY first" not in body
    assert "A command still fails with -EPERM first unless the caller is in the automount daemon's process group" in body


def test_commands_the_core_hands_a_handler_that_skips_their_helper_are_said() -> None:
    cell = ",".join(f"{n}[tty_ioctl>n_tty_ioctl_helper]" for n in ("TCXONC", "TCFLSH", "TCSETS", "TCGETS", "TCGETA"))
    s = _site("drivers/input/serio/serport.c", 215, "serport_ldisc_ioctl", "tty_ldisc_ops.ioctl",
              to="ENOIOCTLCMD", rule="ioctl_if_chain", uncased=cell)
    body = _flat(_sentences([s]))
    assert ("tty_ioctl() also hands serport_ldisc_ioctl() the commands that n_tty_ioctl_helper() answers "
            "(TCGETS, TCSETS, TCXONC, TCFLSH and TCGETA) when the tty driver does not take them; "
            "serport_ldisc_ioctl() does not call n_tty_ioctl_helper(), so these get ENOTTY too.") in body
    assert "uapi command" not in body


def test_gpib_board_checks_are_said_in_words() -> None:
    # ibioctl(): an unknown command passes switches between checks of the board
    assert messages._guard_words("!board->online", "state check") == "until the board is brought online with IBONL"
    assert messages._guard_words("current->pid != board->locking_pid", "state check") == \
        "unless the caller holds the board lock (IBMUTEX)"


def test_a_sub_feature_loop_says_that_a_missing_sub_feature_answers_enotty() -> None:
    """dfl's afu_ioctl() and fme_ioctl(): a known command of a sub-feature the
    device lacks reaches the changed return too (review, 2026-12-06); said
    once for the two sites of the patch."""
    sites = [_site("drivers/fpga/dfl-afu-main.c", 802, "afu_ioctl", "file_operations.unlocked_ioctl",
                   rule="ioctl_subhandler_miss", paths="native"),
             _site("drivers/fpga/dfl-fme-main.c", 673, "fme_ioctl", "file_operations.unlocked_ioctl",
                   rule="ioctl_subhandler_miss", paths="native")]
    text = _flat(_sentences(sites))
    assert text.count(messages.SUBHANDLER_SENTENCE) == 1
    plain = _site("drivers/x/y.c", 10, "y_ioctl", "file_operations.unlocked_ioctl", paths="native")
    assert messages.SUBHANDLER_SENTENCE not in _flat(_sentences([plain]))


def test_a_partial_guard_says_which_commands_got_einval() -> None:
    # luo_ioctl(): only a number outside the table answered -EINVAL; the
    # others got -ENOIOCTLCMD already, and the uapi header says ENOTTY
    luo = [_site("kernel/liveupdate/luo_core.c", 397, "luo_ioctl", "file_operations.unlocked_ioctl",
                 rule="ioctl_ioc_guard", paths="native")]
    cite = 'include/uapi/linux/liveupdate.h: "ENOTTY: The IOCTL number itself is not supported at all"'
    body = _flat(_msg(luo, guards=("nr - LIVEUPDATE_CMD_BASE >= ARRAY_SIZE(luo_ioctl_ops)",), cites=(cite,)))
    assert body.startswith(
        "s: Return -ENOTTY luo_ioctl() answers -EINVAL for a command with a number outside its table, "
        "and -ENOIOCTLCMD, which the ioctl system call turns into -ENOTTY, for the other commands it "
        "does not know.")
    assert ('include/uapi/linux/liveupdate.h lists "ENOTTY: The IOCTL number itself is not supported '
            'at all" among the answers of its ioctls.') in body
    assert "for such a command" in body and "for an unknown command" not in body
    # without the guard's facts, the whole handler's sentence
    assert "answers an ioctl command it does not know with -EINVAL" in _flat(_msg(luo))


def test_checks_of_one_handler_among_several_name_it() -> None:
    # tun and tap: only __tun_chr_ioctl() checks the fd before its switch
    sites = [_site("drivers/net/tap.c", 10, "tap_ioctl", "file_operations.unlocked_ioctl"),
             _site("drivers/net/tun.c", 20, "__tun_chr_ioctl", "file_operations.unlocked_ioctl",
                   reach="partly", guard="line 15: !tun -> -EBADFD (state check)")]
    body = _flat(_sentences(sites))
    assert ("On the way to __tun_chr_ioctl(), a command still fails with -EBADFD first on a tun fd "
            "that TUNSETIFF has not attached to a device.") in body
    assert "A command still fails" not in body


def test_sev_dev_s_psp_check_has_words() -> None:
    # a reviewer: the -ENODEV without a PSP answers first and was not said
    assert (messages._guard_words("!psp_master || !psp_master->sev_data", "state check")
            == "once the master PSP's SEV state is gone (for example after SEV firmware initialisation failed)")


def test_an_interface_whose_core_answers_eopnotsupp_is_told_that_value() -> None:
    """ndo_siocdevprivate: dev_siocdevprivate() answers -EOPNOTSUPP for a
    device without the operation, so the patch gives that value, and every
    sentence says what user space gets (sit's #ifdef'd 6RD commands too)."""
    s = _site("net/ipv6/sit.c", 1393, "ipip6_tunnel_siocdevprivate", "net_device_ops.ndo_siocdevprivate",
              to="EOPNOTSUPP", uncased="SIOCGET6RD[CONFIG_IPV6_SIT_6RD=n]")
    said = _flat(_msg([s]))
    assert "now get EOPNOTSUPP instead of EINVAL for an unknown command in the private range." in said
    assert "SIOCGET6RD has no case in ipip6_tunnel_siocdevprivate() and gets EOPNOTSUPP too." in said
    assert "answers -EOPNOTSUPP itself for a device that has no ndo_siocdevprivate." in said
    assert "ENOTTY" not in said.replace("Return -ENOTTY", "")
    assert messages.why_sentence({"EINVAL"}, {"EOPNOTSUPP"}).startswith("-EINVAL tells user space")


def test_a_command_that_reaches_a_header_helper_through_one_caller_is_said_with_it() -> None:
    """tun_vnet_ioctl(): tap_ioctl()'s fd gets the TUNSET* commands tun.c
    handles; tun's copy of a struct ifreq applies to some commands only."""
    s = _site("drivers/net/tun_vnet.h", 108, "tun_vnet_ioctl", "file_operations.unlocked_ioctl",
              reach="partly", uncased="TUNSETNOCSUM[through tap_ioctl],TUNSETDEBUG[through tap_ioctl]",
              guard="line 3078: cmd == TUNSETIFF || cmd == TUNSETQUEUE || (_IOC_TYPE(cmd) == SOCK_IOC_TYPE && "
                    "cmd != SIOCGSKNS) && copy_from_user(&ifr, argp, ifreq_len) -> -EFAULT (argument check)")
    body = _flat(_sentences([s]))
    assert ("Through tap_ioctl(), TUNSETNOCSUM and TUNSETDEBUG have no case there or in tun_vnet_ioctl() "
            "and get ENOTTY too.") in body
    assert "on a tun fd for a command of socket-ioctl type (0x89) other than SIOCGSKNS" in body
    assert "TUNSETIFF" not in body.split("Through")[0]
    assert "when its argument cannot be copied" not in body


def test_cases_a_test_refuses_first_are_said_disabled() -> None:
    s = _site("drivers/staging/media/atomisp/pci/atomisp_ioctl.c", 1361, "atomisp_vidioc_default",
              "v4l2_ioctl_ops.vidioc_default", uncased="A_G[refused first],A_S[refused first]")
    assert ("The commands atomisp_vidioc_default() has cases for (A_G and A_S) get ENOTTY too: the test "
            "before its switch refuses every command, so the device supports none of them.") in _flat(_sentences([s]))


def test_a_program_the_change_helps_is_said_once_with_its_commands() -> None:
    assert messages.helped_sentences([("systemd PID 1 hardware watchdog", ["WDIOC_GETTIMEOUT", "WDIOC_SETTIMEOUT"])]) == [
        'systemd PID 1 hardware watchdog takes ENOTTY from WDIOC_GETTIMEOUT and WDIOC_SETTIMEOUT as '
        '"not supported", where EINVAL was an error.']


@pytest.mark.parametrize("rule, added", [
    ("ioctl_switch_add_default", "a default added to the switch now answers -ENOTTY."),
    ("ioctl_default_add_assign", "its default now answers -ENOTTY to a command it does not take."),
])
def test_a_kept_initialiser_says_why_it_stays_and_what_answers_now(rule: str, added: str) -> None:
    """pci_endpoint_test and hiddev keep their -EINVAL initialiser: the
    message says why, and what the patch adds (a review asked for "to a
    command it does not take": hiddev's default also takes HIDIOCGNAME)."""
    site = _site("drivers/hid/usbhid/hiddev.c", 606, "hiddev_ioctl", "file_operations.unlocked_ioctl",
                 rule=rule, paths="native")
    text = _flat(_sentences([site]))
    assert ("The -EINVAL that hiddev_ioctl() sets before its switch stays, since a known command whose"
            " case sets no value of its own still answers it; " + added) in text
    plain = _site("drivers/x/y.c", 10, "y_ioctl", "file_operations.unlocked_ioctl", paths="native")
    assert "sets before its switch stays" not in _flat(_sentences([plain]))


def test_a_check_below_the_added_test_of_the_command_is_not_said_to_come_first() -> None:
    # test_hmm: the copy of the argument follows the state check that the
    # test of the command now precedes; a check above it still comes first
    guard = ("line 5: !capable(CAP_SYS_ADMIN) -> -EPERM (state check); "
             "line 12: copy_from_user(&cmd, uarg, sizeof(cmd)) -> -EFAULT (argument check)")
    default = _site("lib/m.c", 40, "m_ioctl", "file_operations.unlocked_ioctl", reach="partly", guard=guard)
    valid = _site("lib/m.c", 10, "m_ioctl", "file_operations.unlocked_ioctl", rule="ioctl_valid_first",
                  paths="both")
    body = _flat(_sentences([valid, default]))
    assert "-EPERM first without CAP_SYS_ADMIN" in body
    assert "EFAULT" not in body
    assert "-EFAULT first" in _flat(_sentences([default]))
