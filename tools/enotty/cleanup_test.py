"""The cleanup patch's words: no user-visible change, where ENOTTY comes from, compat backports."""
from __future__ import annotations

from enotty import cleanup
from enotty.sites import Site


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
    assert "This is a cleanup: it changes nothing user space sees" in text
    assert "hda_hwdep_ioctl(), media_request_ioctl() answer an ioctl command they do not know" in text
    assert "- snd_hwdep_ops.ioctl: vfs_ioctl() in fs/ioctl.c (snd_hwdep_ioctl() passes it on)" in text
    assert "- file_operations.unlocked_ioctl: vfs_ioctl() in fs/ioctl.c\n" in msg
    assert "- media_request_ioctl() in drivers/media/mc/mc-request.c\n" in msg
    assert "dropped without affecting the other patches" in text and "as the rest of the series does" in text
    assert "5.5" not in msg                       # no compat handler, no backport note


def test_compat_handlers_get_the_ioctl_rst_backport_note() -> None:
    assert cleanup.is_compat(COMPAT) and not cleanup.is_compat(NATIVE[0])
    assert cleanup.is_compat(leaf("a.c", "f", "snd_hwdep_ops.ioctl_compat"))
    msg = unwrap(cleanup.commit_message("xen:", [COMPAT], "J <j@kernel.org>", alone=True))
    # the only patch of its series claims no other patches
    assert "other patches" not in msg and "rest of the series" not in msg
    assert "gntdev_compat_ioctl() is a compat handler." in msg
    assert ("before Linux 5.5, compat_ioctl handlers were required to return -ENOIOCTLCMD in order "
            "to use the fallback conversion into native commands") in msg
    assert "no Fixes: or stable tag" in msg
    assert "the compat ioctl system call in fs/ioctl.c" in msg
    note = cleanup.cover_note([COMPAT] + NATIVE, 4)
    assert note.startswith("Patch 4/4 is a cleanup without user-visible change") and "before 5.5" in note
    assert "5.5" not in cleanup.cover_note(NATIVE, 3)
