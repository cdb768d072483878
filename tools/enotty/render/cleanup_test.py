"""The cleanup patch's words: no user-visible change, where ENOTTY comes from, compat backports."""
from __future__ import annotations

import re

from . import cleanup
from ..find.sites import Site


def leaf(file: str, function: str, interface: str) -> Site:
    return Site(file, 10, function, interface, "ENOIOCTLCMD", "ENOTTY", "ioctl_leaf_enoioctlcmd")


def unwrap(msg: str) -> str:
    """Paragraphs on one line each, list items (and their indented
    continuations) on lines of their own."""
    out: list[str] = []
    for line in msg.splitlines():
        if out and line and not line.startswith("- ") and out[-1]:
            out[-1] += " " + line.strip()
        else:
            out.append(line)
    return "\n".join(out)


NATIVE = [leaf("sound/pci/hda/hda_hwdep.c", "hda_hwdep_ioctl", "snd_hwdep_ops.ioctl"),
          leaf("drivers/media/mc/mc-request.c", "media_request_ioctl", "file_operations.unlocked_ioctl")]
COMPAT = leaf("drivers/xen/gntdev.c", "gntdev_compat_ioctl", "file_operations.compat_ioctl")


def test_message_says_cleanup_and_where_enotty_comes_from() -> None:
    msg = cleanup.commit_message("ALSA:", NATIVE, "Jane Dev <jane@kernel.org>")
    lines = msg.splitlines()
    assert lines[0] == "ALSA: Return -ENOTTY instead of -ENOIOCTLCMD"
    assert len(lines[0]) <= 75 and all(len(ln) <= 75 for ln in lines[2:-1])
    assert lines[-1] == "Signed-off-by: Jane Dev <jane@kernel.org>"
    text = unwrap(msg)
    assert ("hda_hwdep_ioctl() and media_request_ioctl() answer an ioctl command they do not know "
            "with -ENOIOCTLCMD, which the ioctl system call or video_usercopy() turns into ENOTTY"
            not in text)        # media_request_ioctl() is a file_operations handler
    assert ("hda_hwdep_ioctl() and media_request_ioctl() answer an ioctl command they do not know "
            "with -ENOIOCTLCMD, which the ioctl system call turns into ENOTTY; nothing on the way "
            "tries another handler on it.") in text
    assert "User space sees no change; the patch can be dropped on its own." in text
    assert "as the rest of the series does" in text
    assert "5.5" not in msg                       # no compat handler, no backport note
    assert not re.search(r"line \d", msg)


def test_a_name_several_drivers_share_is_said_once_with_their_folder() -> None:
    sites = [leaf(f"sound/firewire/{d}/{d}-hwdep.c", "hwdep_ioctl", "snd_hwdep_ops.ioctl")
             for d in ("dice", "motu", "oxfw")] + [leaf("sound/pci/hda/hda_hwdep.c", "hda_hwdep_ioctl",
                                                       "snd_hwdep_ops.ioctl")]
    assert cleanup.handlers_phrase(sites) == ("hda_hwdep_ioctl() and the hwdep_ioctl() of 3 drivers "
                                              "in sound/firewire/")
    assert unwrap(cleanup.body(sites)).count("hwdep_ioctl()") == 2


def test_compat_handlers_get_the_ioctl_rst_backport_note() -> None:
    assert cleanup.is_compat(COMPAT) and not cleanup.is_compat(NATIVE[0])
    assert cleanup.is_compat(leaf("a.c", "f", "snd_hwdep_ops.ioctl_compat"))
    msg = unwrap(cleanup.commit_message("xen:", [COMPAT], "J <j@kernel.org>", alone=True))
    # the only patch of its series claims no other patches
    assert "dropped on its own" not in msg and "rest of the series" not in msg
    assert ("Before Linux 5.5 a compat_ioctl handler such as gntdev_compat_ioctl() had to return "
            "-ENOIOCTLCMD to get the fallback conversion into native commands") in msg
    assert "no Fixes: or stable tag" in msg
    note = cleanup.cover_note([COMPAT] + NATIVE, 4)
    assert note.startswith("Patch 4/4 is a cleanup that changes nothing user space sees")
    assert "older kernels" in note
    assert "older kernels" not in cleanup.cover_note(NATIVE, 3)
    assert "Patch" not in cleanup.cover_note(NATIVE, 1, alone=True)
