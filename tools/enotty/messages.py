"""The words of a series: subject prefixes, commit messages, the cover letter.

Subject prefixes follow the subsystem's habit: from the tree's own history
when KDIR is a git checkout (the most common `prefix:` of the last commits
touching the folder), otherwise from PREFIX_RULES, a path table.
Commit messages are wrapped at 75 columns (checkpatch's limit).
"""
from __future__ import annotations

import collections
import re
import subprocess
import textwrap
from dataclasses import dataclass
from pathlib import Path

from .sites import Site

WIDTH = 75
DOC = "Documentation/driver-api/ioctl.rst"

# (path regex, prefix template): first match wins; {driver} is the patch's
# driver name, {1} the first regex group.
PREFIX_RULES: tuple[tuple[str, str], ...] = (
    (r"^(drivers/media|drivers/staging/media|include/media)/", "media: {driver}:"),
    (r"^drivers/staging/", "staging: {driver}:"),
    (r"^drivers/platform/([^/]+)/", "platform/{1}: {driver}:"),
    (r"^drivers/net/wireless/", "wifi: {driver}:"),
    (r"^drivers/net/", "net: {driver}:"),
    (r"^net/bluetooth/", "Bluetooth: {driver}:"),
    (r"^net/([^/]+)/", "net: {1}: {driver}:"),
    (r"^drivers/tty/serial/", "serial: {driver}:"),
    (r"^drivers/tty/", "tty: {driver}:"),
    (r"^drivers/video/fbdev/", "fbdev: {driver}:"),
    (r"^drivers/gpu/drm/", "drm/{driver}:"),
    (r"^drivers/usb/", "usb: {driver}:"),
    (r"^drivers/scsi/", "scsi: {driver}:"),
    (r"^drivers/block/", "block: {driver}:"),
    (r"^drivers/input/", "Input: {driver}:"),
    (r"^sound/soc/", "ASoC: {driver}:"),
    (r"^sound/", "ALSA: {driver}:"),
    (r"^block/", "block:"),
    (r"^fs/([^/]+)/", "{1}:"),
    (r"^fs/", "{driver}:"),
    (r"^kernel/([^/]+)/", "{1}: {driver}:"),
    (r"^mm/([^/]+)/", "mm/{1}:"),
    (r"^(mm|lib)/", "{1}/{driver}:"),
    (r"^arch/([^/]+)/", "{1}/{driver}:"),
    (r"^security/([^/]+)/", "{1}:"),
    (r"^virt/kvm/", "KVM:"),
    (r"^crypto/", "crypto: {driver}:"),
    (r"^drivers/([^/]+)/", "{1}: {driver}:"),
    (r"^([^/]+)/", "{1}: {driver}:"),
)


def path_prefix(path: str, driver: str) -> str:
    """The subject prefix for a file from the path table."""
    for pattern, template in PREFIX_RULES:
        m = re.match(pattern, path)
        if m:
            prefix = template.replace("{driver}", driver)
            if m.groups():
                prefix = prefix.replace("{1}", m.group(1))
            # a driver named like its folder would read "x: x:"
            parts = prefix.rstrip(":").split(": ")
            kept = [p for i, p in enumerate(parts) if i == 0 or p != parts[i - 1]]
            return ": ".join(kept) + ":"
    return f"{driver}:"


_SUBJECT_PREFIX = re.compile(r"^(.*\S):\s+\S")


def history_prefix(root: Path, paths: list[str], limit: int = 100) -> str | None:
    """The most common `prefix:` of recent commits touching paths, if git knows."""
    res = subprocess.run(
        ["git", "-C", str(root), "log", f"-n{limit}", "--no-merges", "--format=%s", "--", *paths],
        capture_output=True, text=True, check=False)
    if res.returncode != 0:
        return None
    counts: collections.Counter[str] = collections.Counter()
    for subject in res.stdout.splitlines():
        m = _SUBJECT_PREFIX.match(subject)
        if m and not subject.lower().startswith(("revert", "merge")):
            counts[m.group(1) + ":"] += 1
    if not counts:
        return None
    best = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
    return best[0]


def is_git_checkout(root: Path) -> bool:
    res = subprocess.run(["git", "-C", str(root), "rev-parse", "--show-toplevel"],
                         capture_output=True, text=True, check=False)
    return res.returncode == 0 and Path(res.stdout.strip()).resolve() == root.resolve()


def wrap(text: str) -> str:
    """Paragraphs wrapped at WIDTH; lines starting with space or '-' kept as lists."""
    out = []
    for para in text.strip("\n").split("\n\n"):
        lines = para.split("\n")
        if any(ln.startswith((" ", "-", "*")) for ln in lines):
            for ln in lines:
                indent = "  " if ln.startswith(("-", "*")) else ""
                out.append(textwrap.fill(ln, WIDTH, subsequent_indent=indent,
                                         break_long_words=False, break_on_hyphens=False))
            out.append("")
        else:
            out.append(textwrap.fill(" ".join(lines), WIDTH, break_long_words=False,
                                     break_on_hyphens=False))
            out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


MEANING = {
    "EINVAL": "-EINVAL means \"this command exists but an argument is wrong\".",
    "ENOSYS": "-ENOSYS means \"no such system call\", not \"no such ioctl command\".",
}


def _meaning(froms: set[str]) -> str:
    return " ".join(MEANING.get(f, f"-{f} is not the answer for an unknown command.")
                    for f in sorted(froms))


def errno_phrase(tos: set[str]) -> str:
    return "/".join(f"-{t}" for t in sorted(tos))


def subject(prefix: str, sites: list[Site]) -> str:
    return f"{prefix} Return {errno_phrase({s.to for s in sites})} for unknown ioctl commands"


@dataclass(frozen=True)
class InterfaceInfo:
    name: str        # struct.field
    to: str
    dispatch: str    # file:function


def is_leaf(site: Site) -> bool:
    """-ENOIOCTLCMD -> -ENOTTY: the VFS already made the first the second."""
    return site.from_ == "ENOIOCTLCMD" and site.to == "ENOTTY"


def _visible_froms(sites: list[Site]) -> list[str]:
    """The old answers user space saw (a leaf's -ENOIOCTLCMD it never did)."""
    return sorted({s.from_ for s in sites if not is_leaf(s)})


def user_visible(sites: list[Site]) -> str:
    """What a program sees change, for a commit message."""
    before = _visible_froms(sites)
    if not before:
        return ("User-visible change: none. The VFS turned -ENOIOCTLCMD into ENOTTY "
                "before; the handler now says so itself.")
    return (f"User-visible change: an unknown command now fails with ENOTTY instead of "
            f"{' or '.join(before)}, so user space can tell a missing command from a bad "
            "argument. Known commands and their argument checks are unchanged.")


def abi_note(sites: list[Site]) -> str:
    """The cover letter's ABI paragraph."""
    before = _visible_froms(sites)
    if not before:
        return ("ABI note: none. Every change turns a -ENOIOCTLCMD that the VFS already "
                "reported as ENOTTY into -ENOTTY; user space sees the same errno.")
    leaf = any(is_leaf(s) for s in sites)
    return (f"ABI note: a program that tested for {' or '.join(before)} after an unknown "
            "command now sees ENOTTY. EINVAL keeps its meaning, a known command with a bad "
            "argument; known commands behave exactly as before."
            + (" The -ENOIOCTLCMD -> -ENOTTY changes are not visible: the VFS already "
               "turned that value into ENOTTY." if leaf else ""))


def _functions(sites: list[Site]) -> list[str]:
    seen: dict[tuple[str, str], list[Site]] = {}
    for s in sorted(sites, key=Site.sort_key):
        seen.setdefault((s.file, s.function), []).append(s)
    lines = []
    for (file, func), group in seen.items():
        changes = sorted({f"-{s.from_} -> -{s.to}" for s in group})
        lines.append(f"- {func}() in {file}: {', '.join(changes)}")
    return lines


def commit_message(subject_line: str, sites: list[Site], interfaces: dict[str, InterfaceInfo],
                   rules: list[str], signoff: str) -> str:
    """Subject, body wrapped at 75 columns, Signed-off-by."""
    paras: list[str] = []
    by_iface: dict[str, list[Site]] = {}
    for s in sites:
        by_iface.setdefault(s.interface, []).append(s)
    for name in sorted(by_iface):
        group = by_iface[name]
        funcs = sorted({s.function + "()" for s in group})
        info = interfaces.get(name)
        froms = errno_phrase({s.from_ for s in group})
        to = group[0].to
        handler = ", ".join(funcs)
        dispatch = ""
        if info and info.dispatch:
            file, _, func = info.dispatch.partition(":")
            dispatch = f"{func}() in {file}" if func else file
        visible = [st for st in group if not is_leaf(st)]
        leaves = [st for st in group if is_leaf(st)]
        if to == "ENOTTY" and visible:
            text = (f"{handler} ({name}) answers an ioctl command it does not know "
                    f"with {errno_phrase({st.from_ for st in visible})}.")
            if dispatch:
                text += f" {dispatch} hands that value straight to user space,"
                text += " so the caller sees it."
            text += " " + _meaning({st.from_ for st in visible})
            text += (" The convention for an unknown command is -ENOTTY "
                     "(\"Inappropriate ioctl for device\"), see " + DOC + ".")
            paras.append(text)
        elif to != "ENOTTY":
            text = (f"{handler} ({name}) answers an ioctl command it does not know "
                    f"with {froms}.")
            if dispatch:
                text += (f" {dispatch} treats -ENOIOCTLCMD as \"not mine\" and goes on to "
                         "its generic handling, which ends in -ENOTTY for a command "
                         "nobody knows;")
            else:
                text += " The core treats -ENOIOCTLCMD as \"not mine\" and tries its fallback;"
            text += (f" {froms} stops that fallback and reaches user space instead. "
                     + _meaning({st.from_ for st in group})
                     + " Return -ENOIOCTLCMD, as " + DOC + " describes.")
            paras.append(text)
        if to == "ENOTTY" and leaves:
            leaf_funcs = ", ".join(sorted({st.function + "()" for st in leaves}))
            paras.append(
                f"{leaf_funcs} ({name}) {'answers' if len(leaves) == 1 else 'answer'} an unknown "
                "command with -ENOIOCTLCMD, a kernel-internal value that nothing on the way "
                "tries another handler on: vfs_ioctl() and the compat ioctl syscall in "
                "fs/ioctl.c only turn it into -ENOTTY for user space. Return that final "
                "answer where it is decided: " + DOC + " names -ENOTTY as the answer "
                "for a command that is not known. User space sees ENOTTY before and after.")
    paras.append(user_visible(sites))
    paras.append("Functions changed:\n" + "\n".join(_functions(sites)))
    paras.append("Found and converted with Coccinelle (" + ", ".join(f"cocci/{r}.cocci" for r in rules)
                 + ").")
    body = wrap("\n\n".join(paras))
    return f"{subject_line}\n\n{body}\nSigned-off-by: {signoff}\n"


_MAILBOX = re.compile(r"^\s*(.*?)\s*<([^<>@\s]+@[^<>\s]+)>\s*$")


def parse_signoff(text: str) -> tuple[str, str]:
    """('Name', 'mail') from 'Name <mail>'; ValueError otherwise."""
    m = _MAILBOX.match(text)
    if not m or not m.group(1):
        raise ValueError(f"not 'Name <mail>': {text!r}")
    return m.group(1), m.group(2)
