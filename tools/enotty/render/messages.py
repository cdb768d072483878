"""The words of a series: commit messages and the cover letter's parts.

Subject prefixes are enotty.partition.prefixes'.  Commit messages are wrapped at 75
columns (checkpatch's limit).
"""
from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field
from typing import Mapping

from ..partition import doc_updates
from ..find.interfaces import PLACEHOLDER, Interface
from ..find.sites import ADDS, ADDS_DEFAULT, VALID_FIRST, Effects, Site
from ..judge.effects import COMMAND_FILTER, HAND_OFF, REFUSED, THROUGH

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


# The semantic patch the messages name (cocci/ in the toolkit, not the kernel).
RULE_NAME = "ioctl_enotty.cocci"


def plural(n: int, one: str, many: str | None = None) -> str:
    """'1 site', '2 sites'; many for irregular forms."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def errno_phrase(tos: set[str]) -> str:
    return "/".join(f"-{t}" for t in sorted(tos))


# Input's maintainer keeps the summary after "Input: driver -" lower case
# ("Input: joydev - fix ..."); the other trees capitalise it.
LOWER_CASE_SUMMARY = ("Input:",)


def subject(prefix: str, sites: list[Site], handlers: list[str] | None = None) -> str:
    """handlers: the patch's handlers, named where another handler of its
    file keeps its answer (a reviewer: "mm/userfaultfd: Return -ENOTTY for
    unknown ioctl commands" promised userfaultfd_ioctl() too)."""
    verb = "return" if prefix.startswith(LOWER_CASE_SUMMARY) else "Return"
    errno = errno_phrase({s.to for s in sites})
    if handlers:
        return f"{prefix} {verb} {errno} from {_join([f'{h}()' for h in handlers])} for unknown commands"
    return f"{prefix} {verb} {errno} for unknown ioctl commands"


def is_leaf(site: Site) -> bool:
    """-ENOIOCTLCMD -> -ENOTTY: the VFS already made the first the second."""
    return site.from_ == "ENOIOCTLCMD" and site.to == "ENOTTY"


def dispatch_sentence(info: Interface | None, handler: str = "the handler") -> str:
    """What the core does with handler's value: the row's dispatch_sentence
    (each backed by a file:line of 6.12 in cocci/INTERFACES.rst, and said
    only where it matters to the reader: the core answers some commands
    first, or goes on to another handler on -ENOIOCTLCMD), else from its
    dispatch column when the core tries a next handler.  The ioctl system
    call returning a file_operations handler's value as is goes without
    saying."""
    if info and info.dispatch_sentence:
        return info.dispatch_sentence.replace(PLACEHOLDER, handler)
    if not info or not info.dispatch:
        return ""
    file, _, func = info.dispatch.partition(":")
    where = f"{func}() in {file}" if func else file
    if info.to == "ENOIOCTLCMD":
        return f"{where} tries its next handler only when {handler} answers -ENOIOCTLCMD."
    return ""


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
        if len(targets) == 1:
            label = target_words(targets[0])
        else:   # "kcs2 to kcs3" reads as a range; two are "kcs2 and kcs3"
            label = f"{targets[0]} {'and' if len(targets) == 2 else 'to'} {targets[-1]}"
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


_ON_TARGET = re.compile(r"^an unknown command on (.+?) ((?:now|still) .*)$")


def _merge_targets(clauses: list[str | tuple[str, str]]) -> list[str | tuple[str, str]]:
    """Targets whose callers and outcome are the same are one clause: 'an
    unknown command on /dev/gpiochip0 or gpio-lineevent:... now fails ...'."""
    out: list[str | tuple[str, str]] = []
    where: dict[tuple[str, str], int] = {}
    labels: dict[int, list[str]] = {}
    for c in clauses:
        m = _ON_TARGET.match(c[1]) if isinstance(c, tuple) else None
        if not m or not isinstance(c, tuple):
            out.append(c)
            continue
        key = (c[0], m.group(2))
        if key in where:
            labels[where[key]].append(m.group(1))
            continue
        where[key] = len(out)
        labels[len(out)] = [m.group(1)]
        out.append(c)
    for (who, outcome), i in where.items():
        if len(labels[i]) > 1:
            names = labels[i]
            out[i] = (who, f"an unknown command on {', '.join(names[:-1])} or {names[-1]} {outcome}")
    return out


# The probe's names for what is not a device node, in a maintainer's words.
TARGET_WORDS: tuple[tuple[str, str], ...] = (
    (r"^socket:bluetooth/(\w+)$", r"a Bluetooth \1 socket"),
    (r"^socket:isdn/(\w+)$", r"an mISDN \1 socket"),
    (r"^socket:(\w+)$", r"an AF_\1 socket"),
    (r"^dir:(\S+)$", r"the directory \1"),
    (r"^debugfs:(\S+)$", r"/sys/kernel/debug/\1"),
    (r"^securityfs:(\S+)$", r"/sys/kernel/security/\1"),
    (r"^proc:(\S+)$", r"/proc/\1"),
    (r"^iio-buffer:(\S+)$", r"the buffer fd of \1"),
    (r"^usb-hub:(\S+)$", r"the hub \1 through USBDEVFS_IOCTL"),
    (r"^gpio-line(event|handle|request):(\S+)$", r"a line\1 fd of \2"),
    (r"^tun:attached$", "a /dev/net/tun fd after TUNSETIFF"),
    (r"^seccomp:listener$", "a seccomp listener fd"),
    (r"^userfaultfd:new$", "a userfaultfd"),
    (r"^media-request:(\S+)$", r"a request fd of \1"),
    (r"^kvm:vcpu$", "a KVM vCPU fd"),
    (r"^cachefiles:ondemand$", "an on-demand request fd (anon_inode:[cachefiles])"),
    (r"^pty-ldisc:(\w+)$", r"a pty with the \1 line discipline"),
)


def target_words(label: str) -> str:
    """'/dev/fd0' as it is; 'tun:attached' as 'a /dev/net/tun fd after TUNSETIFF'."""
    for pattern, words in TARGET_WORDS:
        m = re.match(pattern, label)
        if m:
            return m.expand(words).replace("AF_mctp", "AF_MCTP")
    return label


# audit.tsv's target of another guest than x86_64: "[s390x] /dev/clp".
GUEST_TARGET = re.compile(r"^\[([\w-]+)\] (.*)$")
DEFAULT_GUEST = "x86_64"


def tested_line(rows: list[dict[str, str]], patch: str) -> str:
    """The QEMU sentences for one patch from its audit.tsv rows, one per
    guest that measured it ('Tested in QEMU (s390x): ...'), '' if none did.

    patch is the patch file name, alone or as series/name (audit.tsv's form).
    """
    by_guest: dict[str, list[dict[str, str]]] = {}
    for r in rows:
        m = GUEST_TARGET.match(r["target"])
        guest, target = (m.group(1), m.group(2)) if m else (DEFAULT_GUEST, r["target"])
        by_guest.setdefault(guest, []).append(dict(r, target=target))
    lines = [_tested_on(by_guest[g], patch, g)
             for g in sorted(by_guest, key=lambda g: (g != DEFAULT_GUEST, g))]
    return " ".join(line for line in lines if line)


def _tested_on(rows: list[dict[str, str]], patch: str, arch: str) -> str:
    """tested_line() for the rows of one guest, arch its name."""
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
    clauses = _merge_targets(clauses)
    whos = {c[0] for c in clauses if isinstance(c, tuple)}
    one_abi = len({r["abi"] for r in mine}) == 1
    if arch != DEFAULT_GUEST and one_abi and all(isinstance(c, tuple) for c in clauses):
        # A guest that runs its own ABI alone: x86_64's "64-bit" or "32-bit
        # callers" would be false for the 32-bit ppc, arm and i386 guests.
        # A guest that also runs the probe -m32 (sparc64) is, like x86_64,
        # a 64-bit kernel with 32-bit callers: the caller words hold there.
        head = f"Tested in QEMU ({arch}): "
        body = "; ".join(c[1] for c in clauses if isinstance(c, tuple))
    elif len(whos) == 1 and all(isinstance(c, tuple) for c in clauses):
        head = f"Tested in QEMU ({arch}; {whos.pop()}): "
        body = "; ".join(c[1] for c in clauses)
    else:
        head = f"Tested in QEMU ({arch}): "
        body = "; ".join(f"{c[1]} for {c[0]}" if isinstance(c, tuple) else c for c in clauses)
    smoke = [r for r in mine if _check(r) == "smoke"]
    tail = ""
    if smoke:
        same = all(r["before"] == r["after"] for r in smoke)
        # Said only when it changed: a known command the core answers
        # before the driver proves nothing about the changed function.
        tail = "" if same else " A known command changed its answer."
    return head + body + "." + tail


def without_line_numbers(text: str) -> str:
    """An effects cell without the line numbers of one tree version
    ('keeps -EINVAL at line 1834'): they are wrong on the tree a patch lands on."""
    return re.sub(r"\s*\(line \d+\)|,? at line \d+|\bline \d+: ", "", text)


def _functions_phrase(names: list[str]) -> str:
    return _join([f"{n}()" for n in names])


def _callers_phrase(paths: set[str], compat_functions: list[str], rows: list[Interface | None]) -> str:
    """Who sees an unknown command's new answer: the subject of 'now get'."""
    classed = {r.compat_callers for r in rows if r and r.compat_callers}
    if len(paths) == 1 and next(iter(paths)).endswith("-compat") and len(classed) == 1:
        # the core hands 32-bit callers only a class of commands (interfaces.tsv)
        return classed.pop()
    if paths == {"native"}:
        return "Native callers"
    if paths == {"compat"}:
        return "32-bit callers on a 64-bit kernel"
    if paths == {"native", "both"}:
        return f"Native callers, and 32-bit callers of {_functions_phrase(compat_functions)},"
    if paths and paths <= {"native", "compat", "both"}:
        return "Native and 32-bit callers"
    return "Callers"


# Checks before the dispatch, said in words (effects' guard cell holds the
# C condition): (pattern of the condition, words after "still fails with
# -EXXX first").  A condition matching none is "a check before the dispatch".
GUARD_WORDS: tuple[tuple[str, str], ...] = (
    (r"^!capable\((CAP_\w+)\)$", r"without \1"),
    (r"^\w+ & (0x[0-9a-fA-F]+|\d+) && \(?copy_from_user\(",
     r"when its number has \1 set and its argument cannot be copied from user space"),
    # tun's __tun_chr_ioctl() copies a struct ifreq for these only (a reviewer:
    # tap copies nothing, so "when its argument cannot be copied" was untrue)
    # (and of its known TUNSETIFF and TUNSETQUEUE, which an unknown command is not:
    # a reviewer asked that they go)
    (r"SOCK_IOC_TYPE && cmd != SIOCGSKNS\)* && copy_from_user\(",
     "on a tun fd for a command of socket-ioctl type (0x89) other than SIOCGSKNS whose struct"
     " ifreq cannot be copied from user space"),
    (r"copy_from_user\(", "when its argument cannot be copied from user space"),
    (r"^!(argp|arg|p|uarg|data)$", "for a NULL argument"),
    # evdev: `!evdev->exist || client->revoked` (EVIOCREVOKE, a reviewer)
    (r"->exist\b.*->revoked\b", "once the device is gone or the client has been revoked"),
    (r"->exist\b|->present\b|revoked|->chip\)|_SHUTDOWN_BIT|->zombie\b",
     "once the device is gone"),
    (r"pci_channel_offline\(", "while the PCI channel is offline"),
    # usbtest_ioctl(): a device whose tests need an alternate setting (a reviewer)
    (r"->alt >= 0 && intf->altsetting->desc\.bInt",
     "on an interface other than the first of a device whose tests need an alternate setting"),
    # dvb_frontend_do_ioctl(): a read-only fd takes only _IOR() commands
    (r"O_RDONLY && \(_IOC_DIR\(", "on a read-only fd for a command not encoded as _IOR()"),
    (r"->exit != DVB_FE_NO_EXIT$", "while the frontend shuts down"),
    (r"PP_CLAIMED", "until the port is claimed with PPCLAIM"),
    (r"HFI1_IOCTL_ASSIGN_CTXT", "until a context is assigned with HFI1_IOCTL_ASSIGN_CTXT"),
    # gpib's ibioctl(): switches on the command between checks of the board
    (r"^!board->interface$", "until a board type is configured with CFCBOARDTYPE"),
    (r"^!board->online$", "until the board is brought online with IBONL"),
    (r"^current->pid != board->locking_pid$", "unless the caller holds the board lock (IBMUTEX)"),
    (r"^!tun$", "on a tun fd that TUNSETIFF has not attached to a device"),
    (r"^!as->suser \|\| !as->writer$", "unless the file was opened for writing with CAP_SYS_ADMIN"),
    # mptctl's __mptctl_ioctl(): the header it copied names the adapter
    (r"^\(mpt_verify_adapter\(", "when the header's iocnum names no adapter"),
    (r"^!iocp->active$", "while the controller is disabled"),
    # sev-dev's sev_ioctl(): the PSP driver found no PSP with SEV
    # (/dev/sev exists only where SEV was found: the state is gone later,
    # after a failed SEV firmware initialisation, a reviewer noted)
    (r"^!psp_master \|\| !psp_master->sev_data$", "once the master PSP's SEV state is gone (for example"
     " after SEV firmware initialisation failed)"),
    # autofs_oz_mode(): the daemon's process group, or a catatonic mount (a reviewer)
    (r"^!autofs_oz_mode\(\w+\) && !capable\((CAP_\w+)\)$",
     r"unless the caller is in the automount daemon's process group, the mount is catatonic, or the"
     r" caller has \1"),
    # one call and nothing else: a condition joined with && or || is more
    # than "the check" of its first function
    (r"^!?(?:unlikely\()?(\w+)\([^&|]*\)$", r"when the \1() check fails"),
)


def _before_valid_test(guard: str, s: Site, visible: list[Site]) -> str:
    """effects' guard cell of s without the checks below the test of the
    command that ioctl_valid_first adds to the function of s: an unknown
    command gets its answer before them (test_hmm's copy of the argument)."""
    tested = [v.line for v in visible if v.rule == VALID_FIRST and v.file == s.file
              and v.function == s.function]
    if not tested:
        return guard
    kept = [g for g in guard.split("; ")
            if not ((m := re.match(r"line (\d+): ", g.strip())) and int(m.group(1)) > min(tested))]
    return "; ".join(kept) or "-"


def _guard_items(guard: str) -> list[tuple[str, str, str]]:
    """(condition, errno, kind) of each check in effects' guard cell
    ('line 10: !arg -> -EINVAL (argument check); ...')."""
    out = []
    for g in (g.strip() for g in guard.split(";")):
        m = re.match(r"(?:line \d+: )?(.*) -> -(\w+) \(([^)]*)\)$", g)
        if m:
            out.append((m.group(1), m.group(2), m.group(3)))
    return out


# effects' COMMAND_FILTER, a check that already answers -ENOTTY by the
# command's _IOC_* fields (autofs's type and number range), is said in the
# opening paragraph (command_filters()), never as a check that "still fails
# first"; a HAND_OFF gets a sentence of its own (_hand_off_sentence()).


def command_filters(sites: list[Site]) -> list[str]:
    """The conditions of the command filters before the dispatch of the
    sites' handlers, in order, each once."""
    out: list[str] = []
    for s in sites:
        for condition, _errno, kind in _guard_items(s.effects.guard if s.effects else "-"):
            if kind == COMMAND_FILTER and condition not in out:
                out.append(condition)
    return out


def filter_words(conditions: list[str]) -> str:
    """What the filters already answer -ENOTTY for, by the _IOC_* fields
    they test: 'a command of another type or with a number outside its range'."""
    text = " ".join(conditions)
    parts = []
    if "_IOC_TYPE(" in text:
        parts.append("a command of another type")
    if "_IOC_NR(" in text or re.search(r"\bnr\b", text) or "ARRAY_SIZE(" in text:
        # luo_ioctl(): `nr - LIVEUPDATE_CMD_BASE >= ARRAY_SIZE(luo_ioctl_ops)`
        where = "its table" if "ARRAY_SIZE(" in text else "its range"
        parts.append(f"with a number outside {where}" if parts else f"a command with a number outside {where}")
    if "_IOC_SIZE(" in text or "_IOC_DIR(" in text:
        parts.append("with another size or direction" if parts else "a command with another size or direction")
    return " or ".join(parts) if parts else "some commands"


def _guard_words(condition: str, kind: str = "") -> str:
    if kind == COMMAND_FILTER:
        return ""
    call = re.match(r"^!?(\w+)\(", condition)
    if call and kind == "command normaliser":
        return f"when {call.group(1)}() does not know it"
    if call and kind == "unknown-command answer":
        return f"when {call.group(1)}() rejects it"
    for pattern, words in GUARD_WORDS:
        m = re.search(pattern, condition)
        if m:
            return m.expand(words)
    if kind == "argument check":
        # aspeed-lpc-ctrl's `map.flags != 0` on the struct it copied: an
        # unknown command with such an argument still gets -EINVAL, and a
        # reviewer asked that the message say so
        return ("when a check of its argument fails" if condition.endswith("...")
                else f"when its argument fails the check `{condition}`")
    # No words of its own: the sentence is left out rather than said vaguely
    # ("when a check of the state before the dispatch fails" told a
    # reviewer nothing, and was said of a check no caller can fail).
    return ""


def effects_sentences(sites: list[Site], interfaces: Mapping[str, Interface],
                      such_commands: bool = False, answers_kept: frozenset[str] = frozenset()) -> list[str]:
    """Who sees the difference, from the effect columns of a patch's sites;
    interfaces: the table's rows by name (their reached_only: where the core
    hands a handler an unknown command only under conditions of its own);
    such_commands: the opening paragraph named which unknown commands
    change (by a measured type, or by the checks that answered first)."""
    visible = [s for s in sites if not is_leaf(s) and
               (s.effects is None or s.effects.visible not in ("invisible", "unreachable"))]
    without_op = [s for s in visible if s.effects and s.effects.reach == "no-operation"]
    visible = [s for s in visible if s not in without_op]
    out = _who_sees(visible, without_op, interfaces, such_commands)
    forwarded: list[str] = []
    uncased = _Uncased()
    checked: dict[str, list[str]] = {}
    for s in sorted(sites, key=Site.sort_key):
        if s.effects is not None:
            _site_sentences(s, s.effects, visible, out, checked, uncased, forwarded, s.function in answers_kept)
    out += _checks_sentences(checked, len({s.function for s in visible}))
    out += _uncased_sentences(uncased, user_sees(visible))
    out += _forwarded_sentences(forwarded, sites)
    leaves = sorted({s.function for s in sites if is_leaf(s)})
    if leaves and any(not is_leaf(s) for s in sites):
        out.append(f"In {_functions_phrase(leaves)} -ENOIOCTLCMD becomes -ENOTTY; user space "
                   "already saw ENOTTY there.")
    return out


def _who_sees(visible: list[Site], without_op: list[Site], interfaces: Mapping[str, Interface],
              such_commands: bool) -> list[str]:
    """The first sentences: which callers now get ENOTTY instead of what."""
    out: list[str] = []
    seen = user_sees(visible)
    if visible:
        before = " or ".join(sorted({s.from_ for s in visible}))
        paths = {s.effects.paths if s.effects else "unknown" for s in visible}
        compat = sorted({s.function for s in visible if s.effects and s.effects.paths == "both"})
        rows = [interfaces.get(s.interface) for s in visible]
        who = "Callers" if "unknown" in paths else _callers_phrase(paths, compat, rows)
        only = sorted({r.reached_only for r in rows if r and r.reached_only})
        on = f" {' or '.join(only)}" if only else ""
        such = such_commands or bool(command_filters(visible))
        command = "such a command" if such else "an unknown command"
        if all(s.effects and s.effects.branches.startswith("only with ")
               and "COMPAT" in s.effects.branches.split("(")[0] for s in visible):
            # sis: the changed line is the #else of SIS_NEW_CONFIG_COMPAT, so
            # the ABIs found for the usual (compat) configuration say nothing of it
            out += [f"The changed line of {f}() is built {b}." for f, b in
                    sorted({(s.function, s.effects.branches) for s in visible if s.effects})]
            out.append(f"There, callers now get {seen} instead of {before} for {command}{on}.")
        elif "unknown" in paths:
            # which ABIs reach it is not known (dvb_ca's handler is passed to
            # dvb_usercopy()): say it of the command, not of every caller
            out.append(f"{'Such a command' if such else f'An unknown command{on} that reaches it'}"
                       f" now gets {seen} instead of {before}.")
        else:
            out.append(f"{who} now get {seen} instead of {before} for {command}{on}.")
    elif not without_op:
        out.append("User space sees no change.")
    for s in without_op:
        out.append(f"Where the driver behind {s.function}() provides no {_missing_op(s)} "
                   f"operation, a command {s.function}() does not handle itself now gets ENOTTY "
                   f"instead of {s.from_}.")
    return out


def _site_sentences(s: Site, e: Effects, visible: list[Site], out: list[str],
                    checked: dict[str, list[str]], uncased: "_Uncased",
                    forwarded: list[str], answer_kept: bool = False) -> None:
    """What one site adds, in the order of the sites: the sentences of a
    check that comes first or an #if branch go to out at once; the checks,
    uncased commands and forwarded commands are gathered, to be said once."""
    if e.visible == "unreachable":
        out.append(_unreachable_sentence(s, e, visible))
    elif e.reach == "partly" and not is_leaf(s):
        # tosh_ioctl()'s `!argp` answers -EINVAL, its copy_from_user() -EFAULT
        for condition, errno, _kind in _guard_items(_before_valid_test(e.guard, s, visible)):
            if _kind == HAND_OFF:
                said = _hand_off_sentence(condition, errno, s.function)
                if said not in out:
                    out.append(said)
                continue
            words = _guard_words(condition, _kind)
            said = f"-{errno} first {words}" if words else ""
            if said and said not in checked.setdefault(s.function, []):
                checked[s.function].append(said)
    if s.rule in ADDS:
        added = ("a default added to the switch now answers -{to}" if s.rule == ADDS_DEFAULT
                 else "its default now answers -{to} to a command it does not take")
        said = (f"The -{s.from_} that {s.function}() sets before its switch stays, since a known"
                f" command whose case sets no value of its own still answers it; "
                + added.format(to=s.to) + ".")
        if said not in out:
            out.append(said)
    # iio_ioctl() keeps -ENODEV for the commands its sub-features take
    # (handlers.kept_answer_sentences() says so): no such command changes
    if s.rule == SUBHANDLER_MISS and not answer_kept and SUBHANDLER_SENTENCE not in out:
        # dfl's afu_ioctl(): DFL_FPGA_PORT_ERR_* on a port without the
        # error feature is a command this device does not implement
        out.append(SUBHANDLER_SENTENCE)
    if e.branches.startswith("only with "):
        said = f"The changed line of {s.function}() is built {e.branches}."
        if said not in out:
            out.append(said)
    elif e.branches not in ("all", "unknown"):
        out.append(f"In {s.function}() the {without_line_numbers(e.branches)}; this patch does "
                   "not change it.")
    # A known command a check of the argument answers first (rpmsg_ctrl's
    # copy_from_user() of a struct, for RPMSG_DESTROY_EPT_IOCTL's usual 0)
    # gets ENOTTY only with an argument that passes it: such a handler's
    # uncased commands are said with that condition (toshiba's TOSHIBA_ACPI_SCI).
    argument_first = e.reach == "partly" and any(kind == "argument check"
                                                 for _c, _e, kind in _guard_items(e.guard))
    if not is_leaf(s):
        always, conditional = uncased_sentences(s.function, e.uncased, user_sees([s]))
        if always:
            uncased.names[s.function] = always
            uncased.checked_first |= argument_first
        if argument_first:
            # said after the checks they refer to
            # (not a helper's caller's: tun's copy is no check on tap's path)
            uncased.after_checks += [c if c.startswith("Through ") else c[:-1] + ARGUMENT_PASSES
                                     for c in conditional]
        else:
            out += conditional
    if e.forward not in ("-", "unknown"):
        forwarded += [c for c in entries(s) if c not in forwarded]
    if e.fallback not in ("-", "unknown"):
        path, _, rest = e.fallback.partition(": ")
        who = "32-bit callers on a 64-bit kernel" if path == "compat" else "native callers"
        # esas2r: "through esas2r_ioctl(), scsi_ioctl() ... answers -EINVAL"
        via, comma, said = rest.partition("(), ")
        if via.startswith("through ") and comma:
            who, rest = f"{who} {via}()", said
        out.append(f"{who[0].upper() + who[1:]} still get EINVAL: {without_line_numbers(rest)}.")


SUBHANDLER_MISS = "ioctl_subhandler_miss"
SUBHANDLER_SENTENCE = ("A command that only a sub-feature's ioctl handles now fails with ENOTTY"
                       " too on a device without that sub-feature, as no sub-feature takes it.")


def _hand_off_sentence(condition: str, callee: str, function: str) -> str:
    """effects' hand-off: a class of commands another handler answers
    before function()'s dispatch (pcm_oss's 'M' commands, to the mixer)."""
    directive, _, test = condition.rpartition(": ") if condition.startswith("#") else ("", "", condition)
    kind = re.fullmatch(r"\(*\s*(?:_IOC_TYPE\s*\(\s*\w+\s*\)|\(\s*\w+\s*>>\s*8\s*\)\s*&\s*0xff)"
                        r"\s*\)*\s*==\s*('.'|\w+)\s*\)*", test)
    which = f"A command of type {kind.group(1)}" if kind else f"A command for which `{test}` holds"
    d = re.match(r"#\s*(ifdef|ifndef|if)\s+(.*)$", directive.strip())
    when = "" if not d else (f" in kernels built with {d.group(2)}" if d.group(1) == "ifdef" else
                             f" in kernels built without {d.group(2)}" if d.group(1) == "ifndef" else
                             f" in kernels where {d.group(2)} holds")
    return f"{which} still goes to {callee}() before {function}() looks at it, and gets its answer{when}."


def _unreachable_sentence(s: Site, e: Effects, visible: list[Site]) -> str:
    """A site no unknown command reaches: the check that answers first."""
    items = [i for i in _guard_items(e.guard) if i[2] != COMMAND_FILTER]
    errno = items[0][1] if items else "EINVAL"
    kind = items[0][2] if items else ""
    if kind == "every command":
        first = f"a check before the dispatch answers every command with -{errno}"
    elif items and (words := _guard_words(items[0][0], kind)):
        first = f"a command fails with -{errno} first {words}"
    else:
        first = f"a check before the dispatch answers -{errno} first"
    if any(t.file == s.file and t.function == s.function and t.line < s.line for t in visible):
        # floppy: the converted type guard comes first, the
        # normaliser after it still rejects the rest
        return (f"In {s.function}(), past the check this patch converts, {first}; "
                "this patch leaves that check alone.")
    return (f"In {s.function}() {first}, so no unknown command reaches the "
            "changed default; this patch leaves that check alone.")


def _checks_sentences(checked: dict[str, list[str]], functions: int = 1) -> list[str]:
    """The checks that still answer first, said per function, once,
    whatever the number of its sites; named by function when the patch
    changes several (dvb-core: only the frontend's have checks)."""
    said_checks = {f: _join(texts) for f, texts in checked.items() if texts}
    if len(set(said_checks.values())) == 1 and len(said_checks) >= functions:
        text = next(iter(said_checks.values()), "")
        return [f"A command still fails with {text}."] if text else []
    return [f"On the way to {f}(), a command still fails with {text}." for f, text in said_checks.items()]


ARGUMENT_PASSES = " with an argument that passes those checks."


@dataclass
class _Uncased:
    """The uncased commands of a patch's sites, gathered to be said once."""
    names: dict[str, list[str]] = field(default_factory=dict)   # function -> its uapi commands
    checked_first: bool = False     # one of those functions checks the argument first
    after_checks: list[str] = field(default_factory=list)   # conditional sentences said last


def _uncased_sentences(found: _Uncased, seen: str = "ENOTTY") -> list[str]:
    """The uapi commands no handler of the patch has a case for, then the
    conditional sentences of handlers that check the argument first.  No
    family or header is claimed: the iio buffer fd's handler shares type
    'i' with events.h, and atyfb's cases come from two headers."""
    uncased = found.names
    names: list[str] = []
    if len(uncased) == 1:
        (function, names), = uncased.items()
        which = f"which {function}() has no case for"
    elif uncased:
        # cxl: each handler's list holds the other's commands; only a
        # command none of them has a case for changes for every fd
        common = set.intersection(*(set(ns) for ns in uncased.values()))
        names = [n for n in next(iter(uncased.values())) if n in common]
        which = "which none of these handlers has a case for"
    if not names:
        return found.after_checks
    one = len(names) == 1
    return [f"The uapi command{'' if one else 's'} {_some(names, 3)}, "
            f"{which}, {'gets' if one else 'get'} {seen} too"
            + (ARGUMENT_PASSES if found.checked_first else ".")] + found.after_checks


def _forwarded_sentences(forwarded: list[str], sites: list[Site]) -> list[str]:
    """Socket handlers whose new answer makes sock_do_ioctl() go on."""
    if not forwarded:
        return []
    froms = " or ".join(sorted({s.from_ for s in sites if set(entries(s)) & set(forwarded)}))
    out = ["sock_do_ioctl() now passes SIOC* commands on to dev_ioctl(), so an interface "
           "command such as SIOCGIFINDEX on this socket can succeed where it failed with "
           f"{froms}."]
    if any(s.effects and s.effects.paths == "native+SIOC-compat" for s in sites):
        out.append("32-bit callers reach this code only with the SIOC* commands "
                   "compat_sock_ioctl_trans() passes on, and take the same way.")
    return out


def _some(names: list[str], few: int = 4) -> str:
    """The names (all of up to sixteen: a reviewer checks a list, not a count), else the first few and how many more."""
    if len(names) <= max(few + 1, 16):
        return _join(names)
    return ", ".join(names[:few]) + f" and {len(names) - few} more"


def uncased_sentences(function: str, cell: str, seen: str = "ENOTTY") -> tuple[list[str], list[str]]:
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
            name, _, when = c[:-1].partition("[")
            by_config.setdefault(when, []).append(name)
    for when, names in sorted(by_config.items()):
        if ">" in when:
            # effects.helper_commands(): the core hands the handler the
            # commands of a helper it does not call (serport: tty_ioctl()
            # and n_tty_ioctl_helper()'s TCGETS, TCSETS, ...)
            core, _, helper = when.partition(">")
            known = sorted(names, key=lambda n: {"TCGETS": 0, "TCSETS": 1}.get(n, 2))   # tcgetattr() first
            out.append(f"{core}() also hands {function}() the commands that {helper}() answers "
                       f"({_some(known, 3)}) when the tty driver does not take them; {function}() "
                       f"does not call {helper}(), so these get {seen} too.")
            continue
        if when.startswith("never "):
            # effects.conditional_labels(): lp.c #undefs LP_STATS (a reviewer:
            # "no case" was untrue, the case is there but never built)
            macro = when.removeprefix("never ")
            verbs = ("has", "gets") if len(names) == 1 else ("have", "get")
            out.append(f"{_some(names, 2)} {verbs[0]} a case in {function}() that is never built "
                       f"(the file #undefs {macro}) and {verbs[1]} {seen} too.")
            continue
        if when == REFUSED:
            # effects._refused_first(): atomisp's `if (cmd) return -EINVAL;`
            out.append(f"The commands {function}() has cases for ({_some(names, 3)}) get {seen} too: "
                       "the test before its switch refuses every command, so the device supports none "
                       "of them.")
            continue
        if when.startswith(THROUGH):
            # effects.uncased_commands(): a helper's command that another of
            # its callers handles (tap_ioctl()'s fd and tun's TUNSET*)
            handler = when.removeprefix(THROUGH)
            verbs = ("has", "gets") if len(names) == 1 else ("have", "get")
            out.append(f"Through {handler}(), {_some(names, 2)} {verbs[0]} no case there or in "
                       f"{function}() and {verbs[1]} {seen} too.")
            continue
        if when.startswith("branch "):
            # effects.other_branch_commands(): vme_user's commands of one
            # kind of minor sent to another
            selector = when.removeprefix("branch ")
            one = len(names) == 1
            out.append(f"{_some(names, 3)} also {'gets' if one else 'get'} {seen} instead of EINVAL "
                       f"when the switch on "
                       f"{selector} in {function}() takes a branch that has no case for "
                       f"{'it' if one else 'them'}.")
            continue
        name, _, state = when.partition(" ")
        if when.startswith("on "):
            cond = when     # a command of arch/<arch>/include/uapi
        else:
            cond = "in some configurations" if when == "config" else (
                f"with {when}" if "=" in when else
                f"when {name} is {'not ' if state == 'undefined' else ''}defined")
        verbs = ("has", "gets") if len(names) == 1 else ("have", "get")
        out.append(f"{cond[0].upper() + cond[1:]}, {_some(names, 2)} "
                   f"{verbs[0]} no case in {function}() and {verbs[1]} {seen} too.")
    return always, out


def _missing_op(site: Site) -> str:
    """The operation whose absence alone brings a command to the site
    (effects' reach no-operation: uacce->ops->ioctl), or ""."""
    if site.effects is None or site.effects.reach != "no-operation":
        return ""
    for condition, _errno, kind in _guard_items(site.effects.guard):
        if kind == "no operation" and condition.startswith("!"):
            return condition[1:]
    return "ioctl"


def entries(site: Site) -> list[str]:
    """The functions user space's call reaches the site through: the ops
    table's (effects' entry column, fd_ioctl for amiflop's fd_locked_ioctl)
    when the site's function is its helper, else the site's own."""
    entry = site.effects.entry if site.effects else "-"
    if entry in ("-", "unknown", ""):
        return [site.function]
    return [e.rpartition(":")[2] for e in entry.split(",")]


def entry_files(sites: list[Site]) -> dict[str, str]:
    """entry function -> its file, for a helper in a header whose handlers
    are in other files (effects' `file:function` entries): the message
    names the file of each handler that answers differently afterwards."""
    out = {}
    for s in sites:
        for e in (s.effects.entry if s.effects else "-").split(","):
            file, _, name = e.rpartition(":")
            if file and file != s.file:
                out[name] = file
    return out


def user_sees(sites: list[Site]) -> str:
    """The errno user space gets for an unknown command after the patch:
    -ENOIOCTLCMD reaches it as ENOTTY; an interface whose core answers
    -EOPNOTSUPP (ndo_siocdevprivate) keeps that value."""
    return "EOPNOTSUPP" if sites and all(s.to == "EOPNOTSUPP" for s in sites) else "ENOTTY"


def helped_sentences(rows: list[tuple[str, list[str]]]) -> list[str]:
    """A sentence per program that takes ENOTTY as "not supported" for the
    patch's uncased commands (handlers.helped_consumers())."""
    return [f"{who} takes ENOTTY from {_join(cmds)} as \"not supported\", where EINVAL was an error."
            for who, cmds in rows]


def unaffected_sentences(rows: list[tuple[str, str, str, str]]) -> list[str]:
    """One sentence per program and errno for the commands it tests that
    the patch's functions handle themselves (source_facts.unaffected_consumers()),
    the functions of all its files together (tun's tap_ioctl() and
    __tun_chr_ioctl())."""
    found: dict[tuple[str, str], tuple[list[str], list[str]]] = {}
    for who, command, function, errno in rows:
        commands, functions = found.setdefault((who, errno), ([], []))
        commands += [command] if command not in commands else []
        functions += [function] if function not in functions else []
    out = []
    for (who, errno), (commands, functions) in found.items():
        cmds, alone = sorted(commands), len(functions) == 1
        out.append(f"{who} tests {_join(cmds)} for {errno}; {_functions_phrase(functions)} "
                   f"{'handles' if alone else 'handle'} "
                   f"{'that command' if len(cmds) == 1 else 'both' if len(cmds) == 2 else 'them'} "
                   f"{'itself' if alone else 'themselves'}, and this patch leaves "
                   f"{'its' if len(cmds) == 1 else 'their'} answers alone.")
    return out


def why_sentence(froms: set[str], tos: set[str]) -> str:
    """One sentence: what ioctl.rst says, in its own terms ("Some subsystems
    return -ENOSYS or -EINVAL here for historic reasons, but this is wrong");
    for an interface whose core answers -EOPNOTSUPP, why that value."""
    if tos == {"EOPNOTSUPP"}:
        return ("-EINVAL tells user space that the command is known and its argument is "
                "wrong; -EOPNOTSUPP is what the core answers where no driver handles it.")
    wrong = " or ".join(f"-{f}" for f in sorted(froms) if f in ("EINVAL", "ENOSYS"))
    sentence = (f"{DOC} says that a handler answers an unknown command with -ENOTTY or -ENOIOCTLCMD"
                + (f", and that {wrong} there is wrong." if wrong else "."))
    if "ENOTSUPP" in froms:
        # include/linux/errno.h: "These should never be seen by user programs"
        sentence += (" -ENOTSUPP (524) is a kernel-internal value that user space sees as"
                     " \"Unknown error 524\".")
    return sentence


def explanation(sites: list[Site], interfaces: Mapping[str, Interface],
                changed_type: str = "", guards: tuple[str, ...] = (),
                cites: tuple[str, ...] = (), guard_reads: tuple[str, ...] = ()) -> list[str]:
    """What the handlers answered, what the core does with it, and why: one
    paragraph.  guards: the conditions that alone answered -EINVAL where
    the function answers other unknown commands -ENOIOCTLCMD already
    (partition.source_facts); cites: a uapi header's own ENOTTY line."""
    visible = [s for s in sites if not is_leaf(s)]
    text: list[str] = []
    if visible:
        files = entry_files(visible)
        # an entry of another file first, so that "in FILE" names its file
        # alone: "esas2r_proc_ioctl() in .../esas2r_main.c and esas2r_ioctl()"
        callers = sorted({c for s in visible for c in entries(s)}, key=lambda c: (c not in files, c))
        froms = {s.from_ for s in visible}
        verb = "answers" if len(callers) == 1 else "answer"

        def in_file(caller: str) -> str:
            return f"{caller}()" + (f" in {files[caller]}" if caller in files else "")

        def through(caller: str) -> str:
            helpers = sorted({s.function for s in visible
                              if caller in entries(s) and s.function != caller})
            if not helpers:
                return ""
            return f"through {_functions_phrase(helpers)}"

        def entry_words(caller: str) -> str:
            return in_file(caller) + (f" ({through(caller)})" if through(caller) else "")
        if len(callers) == 1:
            how = through(callers[0])
            who = in_file(callers[0]) + (f", {how}," if how else "")
        elif len({through(c) for c in callers}) == 1 and through(callers[0]):
            # dmasound: two entries share one helper; tun and tap, one in a header
            who = f"{_join([in_file(c) for c in callers])} ({through(callers[0])})"
        else:
            who = _join([entry_words(c) for c in callers])
        ops = [_missing_op(s) for s in visible]
        if all(ops):
            # uacce's default: the driver behind it answers when it can
            one = len(callers) == 1
            text.append(f"{who} {verb} an ioctl command "
                        f"{'it does not handle itself' if one else 'they do not handle themselves'} "
                        f"with {errno_phrase(froms)} when the driver behind "
                        f"{'it' if one else 'them'} provides no "
                        f"{_join(sorted(set(ops)))} operation.")
        elif filters := command_filters(visible):
            # read: autofs's range test before the dispatch already answers
            # -ENOTTY; only a command that passes it changes
            text.append(f"{who} {verb} -ENOTTY for {filter_words(filters)}, but "
                        f"{errno_phrase(froms)} for an unknown command that passes "
                        f"{'that check' if len(filters) == 1 else 'those checks'}.")
        elif guards:
            # luo_ioctl(): only the table bound answered -EINVAL; a number
            # inside the table without an entry got -ENOIOCTLCMD already
            # luo_ioctl() reads its argument's size word (get_user()) before
            # it tells a known command from an unknown one
            read = (f", once {_join(list(guard_reads))} has read the argument (-EFAULT when "
                    "it cannot)") if guard_reads else ""
            text.append(f"{who} {verb} -EINVAL for {filter_words(list(guards))}, and "
                        f"-ENOIOCTLCMD, which the ioctl system call turns into -ENOTTY, for the "
                        f"other commands {'it does' if len(callers) == 1 else 'they do'} not know{read}.")
        elif changed_type == "own":
            # measured: commands of other types got ENOTTY already
            text.append(f"{who} {verb} some unknown ioctl commands of "
                        f"{'its' if len(callers) == 1 else 'their'} own type with "
                        f"{errno_phrase(froms)}; commands of other types already get -ENOTTY.")
        elif changed_type == "foreign":
            # measured: nbd's unknown commands of its own type got ENOTTY
            # already, from __nbd_ioctl(); said of the other types alone,
            # since a device bound through netlink still refuses its own
            text.append(f"{who} {verb} an ioctl command of another type with {errno_phrase(froms)}.")
        elif len(callers) > 1 and len(froms) > 1 and all(
                len(_froms_of(visible, c)) == 1 for c in callers):
            # dvb-core: the CA device's -EINVAL, the frontend's -ENOTSUPP
            first, *rest = callers
            text.append(_join([f"{entry_words(first)} answers an ioctl command it does not know with "
                               f"{errno_phrase(_froms_of(visible, first))}"]
                              + [f"{entry_words(c)} with {errno_phrase(_froms_of(visible, c))}" for c in rest]) + ".")
        else:
            text.append(f"{who} {verb} an ioctl command "
                        f"{'it does' if len(callers) == 1 else 'they do'} not know with "
                        f"{errno_phrase(froms)}.")
        for name in sorted({s.interface for s in visible}):
            named = sorted({c for s in visible if s.interface == name for c in entries(s)})
            # "each of them" only where the sentence is about every handler
            # named before (atomisp: its vidioc_default beside two sensors'
            # core.ioctl, which alone subdev_do_ioctl() calls)
            handler = "each of them" if len(named) > 1 and set(named) >= set(callers) else \
                _functions_phrase(named)
            info = interfaces.get(name)
            if info and named and set(named) <= {d.rpartition(":")[2] for d in info.dispatch.split()}:
                # the site is in the core itself (atm_dev_ioctl()'s own
                # missing-operation exit): "atm_dev_ioctl() calls
                # atm_dev_ioctl()" would say nothing
                continue
            sentence = dispatch_sentence(info, handler)
            if sentence:
                text.append(sentence)
        text.append(why_sentence(froms, {s.to for s in visible}))
        text += [f"{c.partition(': ')[0]} lists {c.partition(': ')[2]} among the answers of its"
                 " ioctls." for c in cites]
    leaves = sorted({s.function for s in sites if is_leaf(s)})
    if leaves and not visible:
        verb = "answers" if len(leaves) == 1 else "answer"
        text.append(f"{_functions_phrase(leaves)} {verb} an unknown command with -ENOIOCTLCMD, "
                    "which the ioctl system call turns into -ENOTTY; nothing on the way tries "
                    f"another handler on it. {DOC} allows either value; return the final answer "
                    "where it is decided.")
    compat = [s for s in sites if is_leaf(s) and (
        "compat" in s.interface.partition(".")[2] or (s.effects and s.effects.paths == "both"))]
    if compat:
        text.append("Before Linux 5.5 a compat_ioctl handler had to return -ENOIOCTLCMD to get "
                    "the fallback conversion into native commands: keep that in mind when "
                    "backporting.")
    return [" ".join(text)]


def _froms_of(sites: list[Site], caller: str) -> set[str]:
    return {s.from_ for s in sites if caller in entries(s)}


def changed_type(rows: list[dict[str, str]]) -> str:
    """Which of the audit's unknown commands changed: "own" when a foreign
    command answered ENOTTY before and after on every ABI and an unused
    command of the driver's own type changed (autofs's range check already
    answered the rest), "foreign" the other way round (nbd_ioctl()'s type
    guard: __nbd_ioctl() already answered its own type), else ""."""
    unknown = [r for r in rows if _check(r) in ("foreign", "own")
               and r["before"] not in NOT_MEASURED and r["after"] not in NOT_MEASURED]
    for changed, same in (("own", "foreign"), ("foreign", "own")):
        kept = [r for r in unknown if _check(r) == same]
        moved = [r for r in unknown if _check(r) == changed]
        if kept and moved and all(r["before"] == r["after"] == "ENOTTY" for r in kept) \
                and any(r["before"] != r["after"] for r in moved):
            return changed
    return ""


def commit_message(subject_line: str, sites: list[Site], interfaces: Mapping[str, Interface],
                   rules: list[str], signoff: str, tested: str = "",
                   docs: list[str] | tuple[str, ...] = (), changed_type: str = "",
                   kept: list[str] | tuple[str, ...] = (), notes: list[str] | tuple[str, ...] = (),
                   guards: tuple[str, ...] = (), cites: tuple[str, ...] = (),
                   guard_reads: tuple[str, ...] = (), answers_kept: frozenset[str] = frozenset()) -> str:
    """Subject, body wrapped at 75 columns and Signed-off-by.

    The body says what the handlers answered and why that changes, who
    sees the difference, and how it was tested.  sites carry their effects
    (effects.analyse_sites) when known; without them the message claims
    nothing about checks or other paths.  tested is tested_line()'s
    sentence or ''.  rules (the shapes that matched) are the cover letter's
    business, not a commit message's.  docs are the documentation files the
    patch changes too (enotty.partition.doc_updates); notes are sentences
    about the other edits of its diff (enotty.partition.comment_updates);
    answers_kept names the functions whose old answer stays for commands a
    program reads it for (kept saying which).
    """
    paras = explanation(sites, interfaces, changed_type, guards, cites, guard_reads)
    who = " ".join(effects_sentences(sites, interfaces, bool(changed_type or guards), answers_kept))
    if docs:
        who += " " + " ".join(doc_updates.notes(list(docs)))
    if kept:
        # handlers.kept_siblings(): the drives or devices that keep their answer
        who += " " + " ".join(kept)
    if notes:
        who += " " + " ".join(notes)
    if who.strip():
        paras.append(who.strip())
    if tested:
        paras.append(tested)
    body = wrap("\n\n".join(p for p in paras if p.strip()))
    return f"{subject_line}\n\n{body}\nSigned-off-by: {signoff}\n"

