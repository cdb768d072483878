"""The words of a series: commit messages and the cover letter's parts.

Subject prefixes are enotty.prefixes'.  Commit messages are wrapped at 75
columns (checkpatch's limit).
"""
from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

from . import doc_updates
from .sites import Site

WIDTH = 75
DOC = "Documentation/driver-api/ioctl.rst"

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
LINK = "https://docs.kernel.org/driver-api/ioctl.html"
# The semantic patch the messages name (cocci/ in the toolkit, not the kernel).
RULE_NAME = "ioctl_enotty.cocci"


def plural(n: int, one: str, many: str | None = None) -> str:
    """'1 site', '2 sites'; many for irregular forms."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


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


# What the core does with the handler's value, from cocci/INTERFACES.rst
# (each sentence there is backed by a file:line of 6.12).  Kernel paths only.
DISPATCH: dict[str, str] = {
    "file_operations.unlocked_ioctl":
        "vfs_ioctl() in fs/ioctl.c returns the value of {handler} to user space; only "
        "-ENOIOCTLCMD becomes -ENOTTY.",
    "file_operations.compat_ioctl":
        "The compat ioctl syscall in fs/ioctl.c returns the value of {handler} to user "
        "space; only -ENOIOCTLCMD becomes -ENOTTY.",
    "v4l2_ioctl_ops.vidioc_default":
        "__video_do_ioctl() in drivers/media/v4l2-core/v4l2-ioctl.c calls {handler} for commands the "
        "V4L2 core does not know and returns the value to user space.",
    "snd_hwdep_ops.ioctl":
        "snd_hwdep_ioctl() in sound/core/hwdep.c calls {handler} after its own SNDRV_HWDEP_IOCTL_* "
        "commands and returns the value to user space.",
    "fb_ops.fb_ioctl":
        "do_fb_ioctl() in drivers/video/fbdev/core/fb_chrdev.c calls {handler} for commands the fbdev "
        "core does not handle and returns the value to user space.",
    "fb_ops.fb_compat_ioctl":
        "fb_compat_ioctl() in drivers/video/fbdev/core/fb_chrdev.c returns the value of "
        "{handler} to user space.",
    "block_device_operations.ioctl":
        "blkdev_ioctl() in block/ioctl.c calls {handler} after the generic block commands "
        "and returns the value to user space.",
    "block_device_operations.compat_ioctl":
        "compat_blkdev_ioctl() in block/ioctl.c calls {handler} after the generic block "
        "commands and returns the value to user space.",
    "tty_operations.ioctl":
        "tty_ioctl() in drivers/tty/tty_io.c goes on to the line discipline, where TCGETS and "
        "the other termios commands are handled, only when the driver answers -ENOIOCTLCMD; any "
        "other value ends the call.",
    "tty_ldisc_ops.ioctl":
        "tty_ioctl() in drivers/tty/tty_io.c turns -ENOIOCTLCMD from the line discipline into "
        "-ENOTTY and returns any other value as is.",
    "tty_ldisc_ops.compat_ioctl":
        "tty_compat_ioctl() in drivers/tty/tty_io.c calls the line discipline's native "
        "->ioctl() only when ->compat_ioctl() answers -ENOIOCTLCMD; any other value reaches "
        "user space.",
    "watchdog_ops.ioctl":
        "watchdog_ioctl() in drivers/watchdog/watchdog_dev.c runs the core's own WDIOC_* "
        "commands only when the driver answers -ENOIOCTLCMD.",
    "v4l2_subdev_core_ops.ioctl":
        "subdev_do_ioctl() in drivers/media/v4l2-core/v4l2-subdev.c returns the value of "
        "{handler}, which "
        "video_usercopy() turns into -ENOTTY for user space only if it is -ENOIOCTLCMD; "
        "v4l2_device_call_until_err() skips a subdevice only when it answers -ENOIOCTLCMD.",
    "proto_ops.ioctl":
        "sock_do_ioctl() in net/socket.c hands the command on to dev_ioctl() only when the "
        "protocol answers -ENOIOCTLCMD; any other value reaches user space.",
    "proto_ops.compat_ioctl":
        "compat_sock_ioctl() in net/socket.c goes on to its own translations only when the "
        "protocol answers -ENOIOCTLCMD.",
    "scsi_host_template.ioctl":
        "scsi_ioctl() in drivers/scsi/scsi_ioctl.c calls {handler} for commands the SCSI midlayer "
        "does not handle and returns the value.",
    "tape_discipline.ioctl_fn":
        "__tapechar_ioctl() in drivers/s390/char/tape_char.c calls {handler} after MTIOCTOP, MTIOCPOS "
        "and MTIOCGET and returns the value to user space.",
    "atmdev_ops.ioctl":
        "atm_dev_ioctl() in net/atm/resources.c calls {handler} for a command it has no case "
        "for, and for ATM_SETLOOP, ATM_SETCIRANGE, SONET_GETSTATZ, SONET_SETDIAG, SONET_CLRDIAG "
        "and SONET_SETFRAMING only when the caller has CAP_NET_ADMIN (-EPERM otherwise); it turns -ENOIOCTLCMD into -ENOTTY and "
        "returns any other value to user space.",
    "dvb_device.kernel_ioctl":
        "dvb_usercopy() in drivers/media/dvb-core/dvbdev.c turns -ENOIOCTLCMD into -ENOTTY and "
        "returns any other value to user space.",
    "usb_driver.unlocked_ioctl":
        "proc_ioctl() in drivers/usb/core/devio.c (USBDEVFS_IOCTL) turns -ENOIOCTLCMD into "
        "-ENOTTY and returns any other value to user space.",
    "snd_seq_oss_callback.ioctl":
        "snd_seq_oss_ioctl() in sound/core/seq/oss/seq_oss_ioctl.c hands a command it has no "
        "case for to synth device 0, and only on a /dev/sequencer or /dev/music file opened "
        "for writing (on a file opened read-only it answers -EIO); it also hands on "
        "SNDCTL_SEQ_RESETSAMPLES for the synth device the caller names. It returns the value "
        "of {handler} to user space.",
}

# Where the core hands a handler an unknown command only under conditions
# of its own (from the dispatch above): the user-visible sentence says them.
REACHED_ONLY = {
    "snd_seq_oss_callback.ioctl":
        "on a sequencer file opened for writing whose synth device 0 is this driver's",
}


def dispatch_sentence(interface: str, info: InterfaceInfo | None, handler: str = "the handler") -> str:
    """What the core does with handler's value; from INTERFACES.rst or the table row."""
    if interface in DISPATCH:
        return DISPATCH[interface].replace("{handler}", handler)
    if not info or not info.dispatch:
        return ""
    file, _, func = info.dispatch.partition(":")
    where = f"{func}() in {file}" if func else file
    if info.to == "ENOIOCTLCMD":
        return f"{where} tries its next handler only when {handler} answers -ENOIOCTLCMD."
    return f"{where} returns the value of {handler}; no handler is tried after it."


AUDIT_COLUMNS = ("target", "source", "function", "command", "abi", "before", "after", "patch")
# The probe's checks (selftests/ioctl_probe): three unknown commands and one
# known read-only "smoke" command; results that are no answer are skipped.
UNKNOWN_CHECKS = ("foreign", "own", "unlikely")
NOT_MEASURED = ("-", "missing", "absent", "TIMEOUT")
CALLERS = {"native": "64-bit", "compat": "32-bit"}


def read_audit(stream) -> list[dict[str, str]]:
    """Rows of an audit.tsv (header AUDIT_COLUMNS); ValueError on another header."""
    lines = [ln.rstrip("\r\n") for ln in stream if ln.strip()]
    if not lines or tuple(lines[0].split("\t")) != AUDIT_COLUMNS:
        raise ValueError(f"audit.tsv: expected header {' '.join(AUDIT_COLUMNS)}")
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        cells = line.split("\t")
        if len(cells) != len(AUDIT_COLUMNS):
            raise ValueError(f"audit.tsv line {number}: {len(cells)} fields, expected "
                             f"{len(AUDIT_COLUMNS)}")
        rows.append(dict(zip(AUDIT_COLUMNS, cells)))
    return rows


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _outcome(before: str, after: str) -> str:
    def answer(result: str) -> str:
        return "succeeds" if result == "0" else f"fails with {result}"
    if before == after:
        return f"still {answer(after)}"
    return f"now {answer(after)} (was {'success' if before == '0' else before})"


def _check(row: dict[str, str]) -> str:
    """The probe's check of an audit.tsv row: `foreign` of `foreign:FOREIGN_E1_FE`."""
    return row["command"].partition(":")[0]


CHECK_WORDS = {"foreign": "a command with a foreign magic",
               "own": "an unused command of the driver's own magic",
               "unlikely": "a command with an unlikely magic"}


def _target_groups(rows: list[dict[str, str]]) -> list[tuple[str, list[dict[str, str]]]]:
    """(label, unknown-command rows) per target; numbered targets that
    answered alike are one group (`/dev/nbd0 to /dev/nbd15`)."""
    by_target: dict[str, list[dict[str, str]]] = {}
    for r in rows:
        if _check(r) in UNKNOWN_CHECKS:
            by_target.setdefault(r["target"], []).append(r)
    groups: dict[tuple[str, frozenset], list[str]] = {}
    for target, mine in by_target.items():
        seen = frozenset((_check(r), r["abi"], r["before"], r["after"]) for r in mine)
        groups.setdefault((re.sub(r"\d+$", "", target), seen), []).append(target)
    out = []
    for (_base, _seen), targets in groups.items():
        targets.sort(key=lambda t: (re.sub(r"\d+$", "", t), int(m.group()) if (m := re.search(r"\d+$", t)) else -1))
        label = targets[0] if len(targets) == 1 else f"{targets[0]} to {targets[-1]}"
        out.append((label, by_target[targets[0]]))
    return sorted(out)


def _per_check(rows: list[dict[str, str]]) -> str:
    """What each kind of unknown command got, when they differ."""
    parts = []
    for check in UNKNOWN_CHECKS:
        pairs = {(r["abi"], r["before"], r["after"]) for r in rows if _check(r) == check}
        if not pairs:
            continue
        answers = {(b, a) for _abi, b, a in pairs}
        if len(answers) == 1:
            parts.append(f"{CHECK_WORDS[check]} {_outcome(*answers.pop())}")
        else:
            parts.append(f"{CHECK_WORDS[check]} " + " and ".join(
                f"{_outcome(b, a)} for {CALLERS.get(abi, abi)} callers"
                for abi, b, a in sorted(pairs, key=lambda p: (p[0] != "native", p[0]))))
    return "; ".join(parts)


def tested_line(rows: list[dict[str, str]], patch: str, arch: str = "x86_64") -> str:
    """The QEMU sentence for one patch from its audit.tsv rows, '' if none measured.

    patch is the patch file name, alone or as series/name (audit.tsv's
    form); arch names the QEMU machine the audit booted.
    """
    mine = [r for r in rows if (r["patch"] == patch or r["patch"].endswith("/" + patch))
            and r["before"] not in NOT_MEASURED and r["after"] not in NOT_MEASURED]
    clauses: list[str | tuple[str, str]] = []
    for label, unknown in _target_groups(mine):
        per_abi: dict[str, set[tuple[str, str]]] = {}
        for r in unknown:
            per_abi.setdefault(r["abi"], set()).add((r["before"], r["after"]))
        outcomes = {abi: next(iter(pairs)) for abi, pairs in per_abi.items() if len(pairs) == 1}
        if len(outcomes) != len(per_abi):
            clauses.append(f"on {label}, " + _per_check(unknown))
            continue
        abis = sorted(outcomes, key=lambda a: (a != "native", a))
        if len(set(outcomes.values())) == 1:
            who = _join([CALLERS.get(a, a) for a in abis]) + " callers"
            clauses.append((who, f"an unknown command on {label} {_outcome(*outcomes[abis[0]])}"))
        else:
            parts = [f"{_outcome(*outcomes[a])} for {CALLERS.get(a, a)} callers" for a in abis]
            clauses.append(f"an unknown command on {label} " + " and ".join(parts))
    if not clauses:
        return ""
    whos = {c[0] for c in clauses if isinstance(c, tuple)}
    if len(whos) == 1 and all(isinstance(c, tuple) for c in clauses):
        head = f"Tested in QEMU ({arch}; {whos.pop()}): "
        body = "; ".join(c[1] for c in clauses)
    else:
        head = f"Tested in QEMU ({arch}): "
        body = "; ".join(f"{c[1]} ({c[0]})" if isinstance(c, tuple) else c for c in clauses)
    smoke = [r for r in mine if _check(r) == "smoke"]
    tail = ""
    if smoke:
        same = all(r["before"] == r["after"] for r in smoke)
        tail = (" A known command answers as before." if same else
                " A known command changed its answer.")
    return head + body + "." + tail


def _functions_phrase(names: list[str]) -> str:
    return _join([f"{n}()" for n in names])


def _paths_phrase(paths: set[str]) -> str:
    if paths == {"native+V-compat"}:
        return ("for native callers, and for 32-bit callers on a 64-bit kernel with 'V' "
                "commands below BASE_VIDIOC_PRIVATE, the only ones v4l2_compat_ioctl32() "
                "passes to the native handler")
    if paths == {"native+SIOC-compat"}:
        return "for native callers"
    if paths == {"native"}:
        return "for native callers (the compat ioctl path does not reach this code)"
    if paths == {"compat"}:
        return "for 32-bit callers on a 64-bit kernel (the compat ioctl path)"
    if paths <= {"native", "compat", "both"} and paths:
        return "for native and 32-bit compat callers"
    return ""


def effects_sentences(sites: list[Site]) -> list[str]:
    """The user-visible change of a patch, from the effect columns of its sites."""
    out: list[str] = []
    visible = [s for s in sites if not is_leaf(s) and
               (s.effects is None or s.effects.visible not in ("invisible", "unreachable"))]
    without_op = [s for s in visible if s.effects and s.effects.reach == "no-operation"]
    visible = [s for s in visible if s not in without_op]
    if visible:
        before = sorted({s.from_ for s in visible})
        paths = {s.effects.paths if s.effects else "unknown" for s in visible}
        where = "" if "unknown" in paths else _paths_phrase(paths)
        if paths == {"native", "both"}:
            compat = sorted({s.function for s in visible if s.effects and s.effects.paths == "both"})
            where = (f"for native callers, and for 32-bit compat callers in "
                     f"{_functions_phrase(compat)}")
        only = sorted({REACHED_ONLY[s.interface] for s in visible if s.interface in REACHED_ONLY})
        on = f" {' or '.join(only)}" if only else ""
        out.append(f"User-visible change: an unknown command{on} now fails with ENOTTY instead of "
                   f"{' or '.join(before)}" + (f" {where}" if where else "") + ".")
    elif not without_op:
        out.append("User-visible change: none.")
    for s in without_op:
        op = _missing_op(s)
        out.append(f"User-visible change{' only' if not visible else ''} where the driver behind "
                   f"{s.function}() provides no {op} operation: every command "
                   f"{s.function}() does not handle itself now fails there with ENOTTY instead "
                   f"of {s.from_}; a driver that provides the operation answers for itself.")
    forwarded: list[str] = []
    uncased: dict[str, list[str]] = {}
    checked: dict[str, list[tuple[str, str]]] = {}
    for s in sorted(sites, key=Site.sort_key):
        e = s.effects
        if e is None:
            continue
        if e.visible == "unreachable":
            if any(t.file == s.file and t.function == s.function and t.line < s.line for t in visible):
                # floppy: the converted type guard comes first, the
                # normaliser after it still rejects the rest
                out.append(f"In {s.function}() an unknown command that gets past the check this "
                           f"patch converts still fails with -{_guard_errno(e.guard)} when "
                           f"{_guard_text(e.guard)}, before the default at line {s.line} (also "
                           "converted); this patch leaves that check alone.")
            else:
                out.append(f"No unknown command reaches the changed line {s.line} of {s.function}(): "
                           f"it answers -{_guard_errno(e.guard)} first when {_guard_text(e.guard)}; "
                           "this patch leaves that check alone.")
        elif e.reach == "partly" and not is_leaf(s):
            # each errno with its own checks: tosh_ioctl()'s `!argp` answers
            # -EINVAL, its copy_from_user() -EFAULT
            for errno, guard in _guards_by_errno(e.guard).items():
                checked.setdefault(errno, []).append((s.function, _guard_text(guard)))
        if e.branches.startswith("only with "):
            out.append(f"The changed line of {s.function}() is built {e.branches}.")
        elif e.branches not in ("all", "unknown"):
            out.append(f"In {s.function}() the {e.branches}; this patch does not change it.")
        if not is_leaf(s):
            always, conditional = uncased_sentences(s.function, e.uncased)
            if always:
                uncased[s.function] = always
            out += conditional
        if e.forward not in ("-", "unknown"):
            forwarded += [c for c in entries(s) if c not in forwarded]
        if e.fallback not in ("-", "unknown"):
            path, _, rest = e.fallback.partition(": ")
            who = "32-bit callers on a 64-bit kernel" if path == "compat" else "native callers"
            out.append(f"{who[0].upper() + who[1:]} still get EINVAL: {rest}.")
    # The check may sit in the function or in the caller that hands it the
    # command (mtip_block_ioctl() for mtip_hw_ioctl()): say what a command
    # on its way to the function gets, not which function answers.
    for errno, found in checked.items():
        # several sites of one function share its checks: say them once
        merged: dict[str, list[str]] = {}
        for function, text in found:
            if text not in merged.setdefault(function, []):
                merged[function].append(text)
        checks = [(function, " or ".join(texts)) for function, texts in merged.items()]
        if len(checks) == 1:
            out.append(f"A command on its way to {checks[0][0]}() still fails with -{errno} first "
                       f"when {checks[0][1]}.")
        else:
            out.append(f"A command on its way to {_functions_phrase([f for f, _ in checks])} still "
                       f"fails with -{errno} first, each when its check before the dispatch holds: " +
                       "; ".join(f"{f}() {text}" for f, text in checks) + ".")
    if len(uncased) == 1:
        (function, names), = uncased.items()
        out.append(f"Known commands of the same family that {function}() does not handle "
                   f"({_some(names)}) get ENOTTY now too.")
    elif uncased:
        out.append("Known commands of the same family that a handler does not handle get "
                   "ENOTTY now too: " + "; ".join(
                       f"{function}() {_some(names, 2)}" for function, names in uncased.items()) + ".")
    if forwarded:
        froms = " or ".join(sorted({s.from_ for s in sites if set(entries(s)) & set(forwarded)}))
        out.append(f"With -ENOIOCTLCMD from {_functions_phrase(forwarded)}, sock_do_ioctl() "
                   "passes SIOC* commands on to dev_ioctl(), so an interface command such as "
                   "SIOCGIFINDEX on this socket can now succeed where it failed with "
                   f"{froms}; other unknown commands that get this far fail with ENOTTY.")
        if any(s.effects and s.effects.paths == "native+SIOC-compat" for s in sites):
            out.append("32-bit callers on a 64-bit kernel reach this code only with the SIOC* "
                       "commands that compat_sock_ioctl_trans() in net/socket.c hands to "
                       "sock_do_ioctl(); they take the same way to dev_ioctl().")
    leaves = sorted({s.function for s in sites if is_leaf(s)})
    if leaves:
        out.append(f"The -ENOIOCTLCMD -> -ENOTTY change in {_functions_phrase(leaves)} is not "
                   "visible: the VFS already turned that value into ENOTTY.")
    return out


def _some(names: list[str], few: int = 4) -> str:
    """The first few names (all of one more), and how many more."""
    if len(names) <= few + 1:
        return _join(names) if few < 4 else ", ".join(names)
    return ", ".join(names[:few]) + f" and {len(names) - few} more"


def uncased_sentences(function: str, cell: str) -> tuple[list[str], list[str]]:
    """What the uncased cell says: the known commands that always reach the
    changed line, and sentences for those whose case an #if leaves out
    (NAME[CONFIG_X=n])."""
    if cell in ("-", "unknown"):
        return [], []
    always = [c for c in cell.split(",") if "[" not in c]
    out: list[str] = []
    by_config: dict[str, list[str]] = {}
    for c in cell.split(","):
        if "[" in c:
            name, _, when = c.rstrip("]").partition("[")
            by_config.setdefault(when, []).append(name)
    for when, names in sorted(by_config.items()):
        cond = "in some configurations" if when == "config" else (
            f"with {when}" if "=" in when else f"when {when}")
        verb = "has" if len(names) == 1 else "have"
        out.append(f"{cond[0].upper() + cond[1:]}, {_join(names) if len(names) <= 5 else _some(names)} "
                   f"{verb} no case in {function}() and get ENOTTY now too.")
    return always, out


def _guard_text(guard: str) -> str:
    """'line 10: !arg -> -EINVAL (argument check)' -> '`!arg` (line 10)'."""
    texts = []
    for g in (g.strip() for g in guard.split(";")):
        m = re.match(r"line (\d+): (.*) -> -E\w+ \(([^)]*)\)$", g)
        if m:
            fails = " fails" if m.group(3) == "command normaliser" else ""
            texts.append(f"`{m.group(2)}`{fails} (line {m.group(1)})")
    return " or ".join(texts) if texts else "a check before its dispatch fails"


def _missing_op(site: Site) -> str:
    """The operation whose absence alone brings a command to the site
    (effects' reach no-operation: uacce->ops->ioctl), or ""."""
    if site.effects is None or site.effects.reach != "no-operation":
        return ""
    m = re.search(r"line \d+: !(\S+) -> -E\w+ \(no operation\)", site.effects.guard)
    return m.group(1) if m else "ioctl"


def _guards_by_errno(guard: str) -> dict[str, str]:
    """The '; '-joined guard cell split by the errno each check answers."""
    out: dict[str, list[str]] = {}
    for g in (g.strip() for g in guard.split(";") if g.strip()):
        out.setdefault(_guard_errno(g), []).append(g)
    return {errno: "; ".join(gs) for errno, gs in out.items()}


def _guard_errno(guard: str) -> str:
    m = re.search(r"-> -(E\w+)", guard)
    return m.group(1) if m else "EINVAL"


def user_visible(sites: list[Site]) -> str:
    """What a program sees change, for a commit message."""
    return " ".join(effects_sentences(sites))


def abi_note(sites: list[Site]) -> str:
    """The cover letter's ABI paragraph."""
    before = _visible_froms(sites)
    if not before:
        return ("ABI note: none. Every change turns a -ENOIOCTLCMD that the VFS already "
                "reported as ENOTTY into -ENOTTY; user space sees the same errno.")
    return (f"ABI note: a program that tested for {' or '.join(before)} after an unknown "
            "command now sees ENOTTY where a patch says so; each patch names the paths and "
            "the commands whose answer changes. EINVAL keeps its meaning, a known command "
            "with a bad argument.")


PRECEDENT = ("The same conversion was accepted upstream after 6.12, e.g. \"drm/amdkfd: "
             "return -ENOTTY for unsupported IOCTLs\" (commit 57af162bfc8c), which the stable "
             "trees took as well. A test that expects EINVAL after an unknown command needs "
             "the same change: LTP's ioctl_pidfd05 was changed to accept ENOTTY when the "
             "pidfs ioctls moved to it.")


def entries(site: Site) -> list[str]:
    """The functions user space's call reaches the site through: the ops
    table's (effects' entry column, fd_ioctl for amiflop's fd_locked_ioctl)
    when the site's function is its helper, else the site's own."""
    entry = site.effects.entry if site.effects else "-"
    return entry.split(",") if entry not in ("-", "unknown", "") else [site.function]


# Paths of drivers: the message says "the driver"; elsewhere (kernel/, fs/,
# mm/, net/ cores) it names the handlers.
DRIVER_PATHS = ("drivers/", "sound/", "arch/um/drivers/")


def handled_sentence(sites: list[Site]) -> str:
    """That the known commands behave as before, with the right noun."""
    visible = [s for s in sites if not is_leaf(s)] or sites
    if all(s.file.startswith(DRIVER_PATHS) for s in visible):
        return "Commands the driver handles behave as before."
    if all(s.interface.startswith("proto_ops.") for s in visible):
        return "Commands the protocol handles behave as before."
    callers = sorted({c for s in visible for c in entries(s)})
    verb = "handles" if len(callers) == 1 else "handle"
    return f"Commands {_functions_phrase(callers)} {verb} behave as before."


def explanation(sites: list[Site], interfaces: dict[str, InterfaceInfo]) -> list[str]:
    """The why of a patch: one paragraph for all its functions."""
    visible = [s for s in sites if not is_leaf(s)]
    text: list[str] = []
    if visible:
        callers = sorted({c for s in visible for c in entries(s)})
        froms = {s.from_ for s in visible}
        verb = "answers" if len(callers) == 1 else "answer"

        def through(caller: str) -> str:
            helpers = sorted({s.function for s in visible
                              if caller in entries(s) and s.function != caller})
            if not helpers:
                return ""
            return f"through its helper{'' if len(helpers) == 1 else 's'} {_functions_phrase(helpers)}"
        if len(callers) == 1:
            how = through(callers[0])
            who = f"{callers[0]}()" + (f", {how}," if how else "")
        else:
            who = _join([f"{c}()" + (f" ({through(c)})" if through(c) else "") for c in callers])
        ops = [_missing_op(s) for s in visible]
        if all(ops):
            # uacce's default: the driver behind it answers when it can
            text.append(f"{who} {verb} an ioctl command "
                        f"{'it does' if len(callers) == 1 else 'they do'} not handle itself with "
                        f"{errno_phrase(froms)} when the driver behind it provides no "
                        f"{_join(sorted(set(ops)))} operation.")
        else:
            text.append(f"{who} {verb} an ioctl command "
                        f"{'it does' if len(callers) == 1 else 'they do'} not know with "
                        f"{errno_phrase(froms)}.")
        for name in sorted({s.interface for s in visible}):
            named = sorted({c for s in visible if s.interface == name for c in entries(s)})
            handler = _functions_phrase(named) if len(named) == 1 else "each of them"
            sentence = dispatch_sentence(name, interfaces.get(name), handler)
            if sentence:
                text.append(sentence)
        text.append(_meaning(froms))
        text.append(f"{DOC} asks a handler to answer an unknown command with -ENOTTY or "
                    "-ENOIOCTLCMD and calls -ENOSYS and -EINVAL there wrong.")
        if {s.to for s in visible} != {"ENOTTY"}:
            text.append("Return -ENOIOCTLCMD, the value that lets the caller go on.")
    leaves = sorted({s.function for s in sites if is_leaf(s)})
    if leaves:
        verb = "answers" if len(leaves) == 1 else "answer"
        text.append(f"{_functions_phrase(leaves)} {verb} an unknown command with -ENOIOCTLCMD, "
                    "a kernel-internal value that nothing on the way tries another handler on: "
                    "vfs_ioctl() and the compat ioctl syscall in fs/ioctl.c only turn it into "
                    f"-ENOTTY. {DOC} allows either value; return the final answer where it "
                    "is decided.")
        compat = [s for s in sites if is_leaf(s) and (
            "compat" in s.interface.partition(".")[2] or (s.effects and s.effects.paths == "both"))]
        if compat:
            text.append(f"{DOC} notes that before Linux 5.5 a compat_ioctl handler had to "
                        "return -ENOIOCTLCMD to use the fallback conversion into native "
                        "commands: keep that in mind when backporting.")
    return [" ".join(text)]


def commit_message(subject_line: str, sites: list[Site], interfaces: dict[str, InterfaceInfo],
                   rules: list[str], signoff: str, tested: str = "",
                   docs: list[str] | tuple[str, ...] = ()) -> str:
    """Subject, body wrapped at 75 columns, Link:, Signed-off-by.

    sites carry their effects (effects.analyse_sites) when known; without
    them the message claims nothing about guards or other paths.  tested is
    tested_line()'s sentence or ''.  rules name the semantic patches.  docs
    are the documentation files the patch changes too (enotty.doc_updates).
    """
    paras = explanation(sites, interfaces)
    paras.append(" ".join(effects_sentences(sites)) + " " + handled_sentence(sites))
    if docs:
        paras.append(" ".join(doc_updates.notes(list(docs))))
    if tested:
        paras.append(tested)
    shapes = f", {'rule' if len(rules) == 1 else 'rules'} {_join(sorted(rules))}" if rules else ""
    paras.append(f"Found with Coccinelle ({RULE_NAME} of the enotty toolkit{shapes}; "
                 "not part of the kernel tree).")
    body = wrap("\n\n".join(paras))
    return f"{subject_line}\n\n{body}\nLink: {LINK}\nSigned-off-by: {signoff}\n"


_MAILBOX = re.compile(r"^\s*(.*?)\s*<([^<>@\s]+@[^<>\s]+)>\s*$")


def parse_signoff(text: str) -> tuple[str, str]:
    """('Name', 'mail') from 'Name <mail>'; ValueError otherwise."""
    m = _MAILBOX.match(text)
    if not m or not m.group(1):
        raise ValueError(f"not 'Name <mail>': {text!r}")
    return m.group(1), m.group(2)
