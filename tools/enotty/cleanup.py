"""The words of the cleanup patch that closes a series (enotty.split).

Its sites turn a leaf -ENOIOCTLCMD into -ENOTTY.  Nothing after those
handlers tries another handler on -ENOIOCTLCMD (cocci/INTERFACES.rst), and
user space sees ENOTTY before and after: the ioctl system call in
fs/ioctl.c, or the core on the way (video_usercopy() for V4L2), turns the
value into -ENOTTY.  So the patch says it is a cleanup, that it changes
nothing user space sees, and that it can be dropped on its own.
Documentation/driver-api/ioctl.rst adds a warning for compat handlers:
before Linux 5.5 they had to return -ENOIOCTLCMD to get the fallback
conversion into native commands, which matters for backports.
"""
from __future__ import annotations

from . import messages
from .sites import Site

DOC = "Documentation/driver-api/ioctl.rst"

# Where the -ENOIOCTLCMD of each interface becomes ENOTTY (INTERFACES.rst).
TURNED_INTO_ENOTTY = {
    "file_operations.unlocked_ioctl": "vfs_ioctl() in fs/ioctl.c",
    "file_operations.compat_ioctl": "the compat ioctl system call in fs/ioctl.c",
    "snd_hwdep_ops.ioctl": "vfs_ioctl() in fs/ioctl.c (snd_hwdep_ioctl() passes it on)",
    "snd_hwdep_ops.ioctl_compat": "the compat ioctl system call in fs/ioctl.c",
    "fb_ops.fb_ioctl": "vfs_ioctl() in fs/ioctl.c (do_fb_ioctl() passes it on)",
    "fb_ops.fb_compat_ioctl": "the compat ioctl system call in fs/ioctl.c",
    "v4l2_ioctl_ops.vidioc_default": "video_usercopy() in drivers/media/v4l2-core/v4l2-ioctl.c",
}


def is_compat(site: Site) -> bool:
    """A site in a 32-bit compat handler."""
    field_name = site.interface.rpartition(".")[2]
    return "compat" in field_name or field_name.endswith("ioctl32")


def subject(prefix: str) -> str:
    """The cleanup patch's subject line."""
    return f"{prefix} Return -ENOTTY instead of -ENOIOCTLCMD"


def compat_note(sites: list[Site]) -> str:
    """What ioctl.rst says about older kernels, for compat sites ('' without)."""
    compat = sorted({s.function + "()" for s in sites if is_compat(s)})
    if not compat:
        return ""
    return (f"{', '.join(compat)} {'is a compat handler' if len(compat) == 1 else 'are compat handlers'}. "
            f"{DOC} notes that before Linux 5.5, compat_ioctl handlers were required to "
            "return -ENOIOCTLCMD in order to use the fallback conversion into native commands, "
            "which may be important when backporting to older kernels. On such a kernel this "
            "change would end that fallback, so it is not meant for them and carries no Fixes: "
            "or stable tag.")


def body(sites: list[Site], alone: bool = False) -> str:
    """The commit message body (wrapped, without subject and sign-off);
    alone: the patch is its series' only one."""
    by_iface: dict[str, list[Site]] = {}
    for site in sorted(sites, key=Site.sort_key):
        by_iface.setdefault(site.interface, []).append(site)
    handlers = sorted({s.function + "()" for s in sites})
    paras = [
        "This is a cleanup: it changes nothing user space sees" + (
            "." if alone else ", and it can be dropped without affecting the other patches "
            "of the series."),
        f"{', '.join(handlers)} {'answers' if len(handlers) == 1 else 'answer'} an ioctl command "
        f"{'it does' if len(handlers) == 1 else 'they do'} not know with -ENOIOCTLCMD. Nothing "
        "after these handlers tries another handler on that value; it becomes ENOTTY before "
        "user space sees it:\n" + "\n".join(
            f"- {name}: {TURNED_INTO_ENOTTY.get(name, 'the core on the way to the ioctl system call')}"
            for name in sorted(by_iface)),
        f"{DOC} allows either value for an unknown command. Return -ENOTTY where the answer "
        "is decided" + ("." if alone else ", as the rest of the series does."),
    ]
    note = compat_note(sites)
    if note:
        paras.append(note)
    twins = [s for s in sorted(sites, key=Site.sort_key)
             if s.effects and s.effects.branches not in ("all", "unknown")]
    if twins:
        paras.append(" ".join(f"In {s.function}() the {s.effects.branches}; this patch does not "
                              "change it." for s in twins if s.effects))
    guarded = [s for s in sorted(sites, key=Site.sort_key)
               if s.effects and s.effects.guard not in ("-", "unknown")]
    if guarded:
        paras.append(" ".join(f"{s.function}() answers some commands earlier, before its "
                              f"dispatch ({s.effects.guard.split(' -> ')[0]}); that stays."
                              for s in guarded if s.effects))
    paras.append("Functions changed:\n" + "\n".join(
        f"- {func}() in {file}" for file, func in sorted({(s.file, s.function) for s in sites})))
    return messages.wrap("\n\n".join(paras))


def commit_message(prefix: str, sites: list[Site], signoff: str, alone: bool = False) -> str:
    """Subject, body and Signed-off-by of the cleanup patch; alone: it is
    the only patch of its series (a series of cleanups only)."""
    return f"{subject(prefix)}\n\n{body(sites, alone)}\nSigned-off-by: {signoff}\n"


def cover_note(sites: list[Site], series_patches: int) -> str:
    """A sentence for the cover letter about the closing cleanup patch."""
    compat = " It touches compat handlers: see its note on kernels before 5.5." \
        if any(is_compat(s) for s in sites) else ""
    return (f"Patch {series_patches}/{series_patches} is a cleanup without user-visible change "
            f"(-ENOIOCTLCMD -> -ENOTTY where user space already saw ENOTTY); it can be dropped "
            f"on its own.{compat}")
