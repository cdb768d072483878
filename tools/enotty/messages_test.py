"""Subject prefixes, commit message wrapping, sign-off parsing."""
from __future__ import annotations

import pytest

from enotty import messages
from enotty.sites import Site


@pytest.mark.parametrize("path, driver, prefix", [
    ("drivers/media/usb/uvc/uvc_v4l2.c", "uvc", "media: uvc:"),
    ("drivers/staging/media/atomisp/pci/atomisp_ioctl.c", "atomisp", "media: atomisp:"),
    ("drivers/misc/genwqe/card_dev.c", "genwqe", "misc: genwqe:"),
    ("drivers/platform/x86/toshiba_acpi.c", "toshiba_acpi", "platform/x86: toshiba_acpi:"),
    ("drivers/watchdog/cpwd.c", "cpwd", "watchdog: cpwd:"),
    ("sound/core/hwdep.c", "hwdep", "ALSA: hwdep:"),
    ("sound/soc/codecs/x.c", "x", "ASoC: x:"),
    ("fs/ext4/ioctl.c", "ioctl", "ext4:"),
    ("drivers/tty/vt/vt_ioctl.c", "vt", "tty: vt:"),
    ("drivers/tty/serial/8250/x.c", "8250", "serial: 8250:"),
    ("net/bluetooth/hci_sock.c", "hci_sock", "Bluetooth: hci_sock:"),
    ("net/appletalk/ddp.c", "ddp", "net: appletalk: ddp:"),
    ("net/mctp/af_mctp.c", "mctp", "net: mctp:"),
    ("drivers/video/fbdev/sis/sis_main.c", "sis", "fbdev: sis:"),
    ("drivers/usb/gadget/x.c", "gadget", "usb: gadget:"),
    ("drivers/scsi/sg.c", "sg", "scsi: sg:"),
    ("block/ioctl.c", "ioctl", "block:"),
    ("drivers/watchdog/watchdog.c", "watchdog", "watchdog:"),
    ("fs/pipe.c", "pipe", "pipe:"),
    ("kernel/dma/map_benchmark.c", "map_benchmark", "dma: map_benchmark:"),
    ("mm/gup_test.c", "gup_test", "mm/gup_test:"),
    ("arch/s390/pci/pci_clp.c", "pci_clp", "s390/pci_clp:"),
    ("security/loadpin/loadpin.c", "loadpin", "loadpin:"),
    ("virt/kvm/kvm_main.c", "kvm_main", "KVM:"),
])
def test_path_prefix(path: str, driver: str, prefix: str) -> None:
    assert messages.path_prefix(path, driver) == prefix


def test_commit_message_is_wrapped_and_complete() -> None:
    sites = [Site("drivers/tty/x.c", 10, "x_tty_ioctl_with_a_rather_long_name", "tty_operations.ioctl",
                  "EINVAL", "ENOIOCTLCMD", "ioctl_default_return")]
    info = {"tty_operations.ioctl": messages.InterfaceInfo("tty_operations.ioctl", "ENOIOCTLCMD",
                                                           "drivers/tty/tty_io.c:tty_ioctl")}
    subj = messages.subject("tty: x:", sites)
    assert subj == "tty: x: Return -ENOIOCTLCMD for unknown ioctl commands"
    msg = messages.commit_message(subj, sites, info, ["ioctl_default_return"], "A <a@b.c>")
    lines = msg.splitlines()
    assert lines[0] == subj and lines[1] == "" and lines[-1] == "Signed-off-by: A <a@b.c>"
    assert all(len(ln) <= 75 for ln in lines[1:])
    body = " ".join(lines)
    assert "tty_ioctl() in drivers/tty/tty_io.c" in body and "ENOTTY instead of EINVAL" in body
    assert "- x_tty_ioctl_with_a_rather_long_name() in drivers/tty/x.c: -EINVAL ->\n  -ENOIOCTLCMD" in msg
    assert "Documentation/driver-api/ioctl.rst" in msg


def test_a_leaf_enoioctlcmd_is_no_user_visible_change() -> None:
    # vfs_ioctl() turned -ENOIOCTLCMD into ENOTTY already: the message must
    # not promise user space a change it will not see.
    sites = [Site("sound/usb/x.c", 10, "x_hwdep_ioctl", "snd_hwdep_ops.ioctl", "ENOIOCTLCMD", "ENOTTY",
                  "ioctl_leaf_enoioctlcmd")]
    msg = " ".join(messages.commit_message("ALSA: x: Return -ENOTTY", sites, {}, ["r"], "A <a@b.c>").split())
    assert "User-visible change: none." in msg and "vfs_ioctl()" in msg
    assert "errno 515" not in msg and "argument is wrong" not in msg
    assert messages.abi_note(sites).startswith("ABI note: none.")


def test_a_mixed_patch_names_only_the_visible_old_values() -> None:
    sites = [Site("sound/usb/x.c", 10, "x_hwdep_ioctl", "snd_hwdep_ops.ioctl", "ENOIOCTLCMD", "ENOTTY",
                  "ioctl_leaf_enoioctlcmd"),
             Site("sound/usb/x.c", 20, "y_hwdep_ioctl", "snd_hwdep_ops.ioctl", "ENOSYS", "ENOTTY",
                  "ioctl_default_return")]
    msg = " ".join(messages.commit_message("ALSA: x: Return -ENOTTY", sites, {}, ["r"], "A <a@b.c>").split())
    assert "y_hwdep_ioctl() (snd_hwdep_ops.ioctl) answers an ioctl command it does not know with -ENOSYS." in msg
    assert "x_hwdep_ioctl() (snd_hwdep_ops.ioctl) answers an unknown command with -ENOIOCTLCMD" in msg
    assert "now fails with ENOTTY instead of ENOSYS, so" in msg
    note = messages.abi_note(sites)
    assert "tested for ENOSYS after" in note and "not visible" in note


def test_parse_signoff() -> None:
    assert messages.parse_signoff("Jane Doe <jane@example.org>") == ("Jane Doe", "jane@example.org")
    for bad in ("jane@example.org", "<jane@example.org>", "Jane <nope>"):
        with pytest.raises(ValueError):
            messages.parse_signoff(bad)


def test_history_prefix_from_a_git_checkout(tmp_path) -> None:
    import subprocess
    from enotty.series import git_env
    env = git_env("A", "a@example.org")
    (tmp_path / "drivers" / "x").mkdir(parents=True)
    git = lambda *a: subprocess.run(["git", *a], cwd=tmp_path, env=env, check=True,  # noqa: E731
                                    capture_output=True)
    git("init", "-q")
    for n, subject in enumerate(["media: uvcvideo: Fix a", "media: uvcvideo: Fix b",
                                 "media: uvc: Fix c", "Revert \"media: x: y\""]):
        (tmp_path / "drivers" / "x" / "f.c").write_text(str(n))
        git("add", ".")
        git("commit", "-qm", subject)
    assert messages.is_git_checkout(tmp_path)
    assert not messages.is_git_checkout(tmp_path / "drivers")
    assert messages.history_prefix(tmp_path, ["drivers/x/f.c"]) == "media: uvcvideo:"
    assert messages.history_prefix(tmp_path, ["drivers/none"]) is None
