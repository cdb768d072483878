"""The words of the cleanup patch that closes a series (enotty.partition.split).

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

import posixpath

from ..find import interfaces
from . import messages
from ..find.sites import Site

DOC = "Documentation/driver-api/ioctl.rst"

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
    return (f"Before Linux 5.5 a compat_ioctl handler such as {compat[0]} had to return "
            "-ENOIOCTLCMD to get the fallback conversion into native commands, so this "
            "cleanup is not meant for older kernels and carries no Fixes: or stable tag.")


def handlers_phrase(sites: list[Site]) -> str:
    """The changed functions by name; a name several files share is said
    once with where they are (the hwdep_ioctl() of 8 drivers in sound/firewire/)."""
    files: dict[str, set[str]] = {}
    for s in sites:
        files.setdefault(s.function, set()).add(s.file)
    words = []
    for name, paths in sorted(files.items(), key=lambda kv: (len(kv[1]) > 1, kv[0])):
        if len(paths) == 1:
            words.append(f"{name}()")
        else:
            folder = posixpath.commonpath([posixpath.dirname(p) for p in paths])
            words.append(f"the {name}() of {len(paths)} drivers" + (f" in {folder}/" if folder else ""))
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _where(sites: list[Site]) -> str:
    """Who turns the sites' -ENOIOCTLCMD into ENOTTY: the enotty_by column
    of their interfaces (cocci/INTERFACES.rst)."""
    rows = [interfaces.row(s.interface) for s in sites]
    return " or ".join(sorted({r.enotty_by if r and r.enotty_by else "the core" for r in rows}))


def body(sites: list[Site], alone: bool = False) -> str:
    """The commit message body (wrapped, without subject and sign-off);
    alone: the patch is its series' only one."""
    functions = {s.function for s in sites}
    one = len(functions) == 1 and len({s.file for s in sites}) == 1
    paras = [
        f"{handlers_phrase(sites)} {'answers' if one else 'answer'} an ioctl command "
        f"{'it does' if one else 'they do'} not know with -ENOIOCTLCMD, which {_where(sites)} "
        "turns into ENOTTY; nothing on the way tries another handler on it. "
        f"{DOC} allows either value: return -ENOTTY where the answer is decided"
        + ("." if alone else ", as the rest of the series does.")
        + " User space sees no change" + ("." if alone else "; the patch can be dropped on its own."),
    ]
    note = compat_note(sites)
    if note:
        paras.append(note)
    twins = [s for s in sorted(sites, key=Site.sort_key)
             if s.effects and s.effects.branches not in ("all", "unknown")]
    if twins:
        paras.append(" ".join(f"In {s.function}() the {messages.without_line_numbers(s.effects.branches)};"
                              " this patch does not "
                              "change it." for s in twins if s.effects))
    return messages.wrap("\n\n".join(paras))


def commit_message(prefix: str, sites: list[Site], signoff: str, alone: bool = False) -> str:
    """Subject, body and Signed-off-by of the cleanup patch; alone: it is
    the only patch of its series (a series of cleanups only)."""
    return f"{subject(prefix)}\n\n{body(sites, alone)}\nSigned-off-by: {signoff}\n"


def cover_note(sites: list[Site], series_patches: int, alone: bool = False) -> str:
    """A sentence for the cover letter about the closing cleanup patch;
    alone: the series has no other patch."""
    compat = " It touches compat handlers: see its note on older kernels." \
        if any(is_compat(s) for s in sites) else ""
    if alone:
        return ("The handlers answer an unknown command with -ENOIOCTLCMD, which user space "
                "already sees as ENOTTY; the series returns -ENOTTY where the answer is decided, "
                f"a cleanup that changes nothing user space sees.{compat}")
    return (f"Patch {series_patches}/{series_patches} is a cleanup that changes nothing user "
            f"space sees (-ENOIOCTLCMD -> -ENOTTY where the ioctl system call already answered "
            f"ENOTTY); it can be dropped on its own.{compat}")
