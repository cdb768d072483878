"""What the source around a converted site tells the commit message.

A command guard (`if (_IOC_TYPE(cmd) != MAGIC) return -EINVAL;`, a table
bound) in a function that answers its other unknown commands -ENOIOCTLCMD
already (luo_ioctl(), orangefs's check_ioctl_command()) changes only the
commands the guard turns away: the message must say which, not "an
unknown command".  And a uapi header the file includes may list the
interface's errnos itself (include/uapi/linux/liveupdate.h: "ENOTTY: The
IOCTL number itself is not supported at all"): the strongest reason a
maintainer can be given is the interface's own words.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterator

from ..find import csource
from ..judge import consumers
from ..find.ctext import Lines, match_close, switches
from ..find.sites import VALID_FIRST, Site
from .split import FileChange, SeriesPlan, each_converting_file

GUARD_RULE = "ioctl_ioc_guard"
_ALREADY_ENOTTY = re.compile(r"-\s*(?:ENOIOCTLCMD|ENOTTY)\b")
_IF = re.compile(r"\bif\s*\(")
_INCLUDE = re.compile(r"^#\s*include\s*<(?:uapi/)?([\w/.-]+\.h)>", re.M)
_ERRNO_ITEM = re.compile(r"^\s*\*?\s*-?\s*ENOTTY:\s*(\S.*?)\s*$", re.M)


def annotate(root: Path, plans: list[SeriesPlan]) -> list[SeriesPlan]:
    """plans with each converting patch's files given their guards and
    the uapi headers' words on ENOTTY."""
    return each_converting_file(plans, lambda change: annotated(root, change))


@dataclass(frozen=True)
class Source:
    """A file read once for the questions below: its cleaned text (line
    numbers kept), its function definitions and its line offsets."""
    clean: str
    functions: tuple[csource.Function, ...]
    lines: Lines

    @classmethod
    def of(cls, text: str) -> "Source":
        clean = csource.clean(text)
        return cls(clean, tuple(csource.functions(clean)), Lines(clean))

    def function_at(self, offset: int) -> csource.Function | None:
        return next((f for f in self.functions if f.body_start < offset < f.body_end), None)


def annotated(root: Path, change: FileChange) -> FileChange:
    path = root / change.path
    if not change.sites or not path.is_file():
        return change
    text = csource.decode(path.read_bytes())
    src = Source.of(text)
    return replace(change, guards=partial_guards(src, change.sites), cites=uapi_errnos(root, text),
                   notes=change.notes + tested_first(src, change.sites) + kept_internal_answers(src, change.sites)
                   + advertised_but_uncased(src, change.sites),
                   unaffected=unaffected_consumers(src, change.sites),
                   guard_reads=reads_before_lookup(src, change.sites))


def tested_first(src: Source, sites: tuple[Site, ...]) -> tuple[str, ...]:
    """A sentence for each state check before which ioctl_valid_first tests
    the command: what the check answered an unknown command, and that the
    function now tests the command first, as pidfs does.  The message names
    pidfs, not pidfd: get_maintainer.pl adds the PIDFD API maintainers to a
    mail that says pidfd (its K: line)."""
    out: list[str] = []
    for s in sites:
        if s.rule != VALID_FIRST or s.line > len(src.lines.starts):
            continue
        at = src.lines.offset(s.line)
        fn = src.function_at(at)
        condition = condition_above(src.clean, at, fn.body_start) if fn else ""
        if not condition:
            continue
        # the checks the test now precedes (test_hmm's copy of the argument
        # and its tests of cmd.addr): an unknown command meets none of them
        below = sorted({errno for t in sites if t.function == s.function and t.effects
                        for line, _text, errno, _kind in t.effects.guard_items() if line > s.line})
        skipped = (f" Such a command no longer meets the checks after the test either, which answered "
                   f"{' and '.join('-' + e for e in below)}.") if below else ""
        out.append(f"{s.function}() answers -{s.from_} to a command for which `{condition}` holds, "
                   f"an unknown one included. As fs/pidfs.c does with pidfs_ioctl_valid(), it now "
                   f"tests the command first: {s.function}_valid() lists the commands {s.function}() "
                   f"has a case for, and any other gets {s.to} whatever the state; the check keeps "
                   f"-{s.from_} for the listed ones.{skipped}")
    return tuple(dict.fromkeys(out))


# kernel-internal values (include/linux/errno.h: "should never be seen by
# user programs"): a message that says user space saw 524 must say where
# it still does
INTERNAL = ("ENOTSUPP",)


def kept_internal_answers(src: Source, sites: tuple[Site, ...]) -> tuple[str, ...]:
    """A sentence for each converted function that still answers a
    kernel-internal value elsewhere (dvb_frontend_handle_ioctl()'s
    `err = -ENOTSUPP` for a known command whose frontend operation is
    missing): the patch changes its unknown-command answer only."""
    out: list[str] = []
    for errno in INTERNAL:
        mine = [s for s in sites if s.from_ == errno]
        for name in dict.fromkeys(s.function for s in mine):
            fn = next((f for f in src.functions if f.name == name), None)
            if fn is None:
                continue
            changed = {s.line for s in mine if s.function == name}
            left = [m for m in re.finditer(r"-\s*%s\b" % errno, src.clean[fn.body_start:fn.body_end])
                    if src.lines(fn.body_start + m.start()) not in changed]
            if left:
                out.append(f"{name}() still answers -{errno} for some known commands; this patch "
                           "changes only its answer to an unknown command.")
    return tuple(out)


def _guard_sites(src: Source, sites: tuple[Site, ...]) -> Iterator[tuple[int, csource.Function]]:
    """(offset, function) of each guard site of the file."""
    for s in sites:
        if s.rule == GUARD_RULE and s.line <= len(src.lines.starts):
            at = src.lines.offset(s.line)
            fn = src.function_at(at)
            if fn is not None:
                yield at, fn


def _answers_unknown_already(clean: str, fn: csource.Function, own_start: int, own_end: int) -> bool:
    """fn has an -ENOIOCTLCMD or -ENOTTY besides the guard's own line that
    a command the guard lets through can reach: not one in a switch on a
    value the handler looked up itself (dma_heap_ioctl()'s `switch (kcmd)`:
    every number of its table is a known command, so its default is not
    an answer to an unknown one)."""
    params = set(fn.param_names())
    bodies = [sw for sw in switches(clean, fn.body_start, fn.body_end) if sw.brace >= 0 and sw.end >= 0]
    for m in _ALREADY_ENOTTY.finditer(clean, fn.body_start, fn.body_end):
        if own_start <= m.start() < own_end:
            continue
        heads = [clean[sw.open_paren:sw.close_paren + 1] for sw in bodies if sw.brace < m.start() < sw.end]
        if all(params & set(re.findall(r"\w+", head)) for head in heads):
            return True
    return False


def partial_guards(src: Source, sites: tuple[Site, ...]) -> tuple[str, ...]:
    """The conditions of the guard sites whose function answers some other
    unknown command -ENOIOCTLCMD or -ENOTTY already, each once, in order."""
    out: list[str] = []
    for at, fn in _guard_sites(src, sites):
        if _answers_unknown_already(src.clean, fn, at, src.clean.find("\n", at)):
            condition = condition_above(src.clean, at, fn.body_start)
            if condition and condition not in out:
                out.append(condition)
    return tuple(out)


# A capability flag of struct watchdog_info and the commands it promises
# (Documentation/watchdog/watchdog-api.rst): WDIOF_SETTIMEOUT says that
# WDIOC_SETTIMEOUT works.
_PROMISES = {"WDIOF_SETTIMEOUT": ("WDIOC_SETTIMEOUT",), "WDIOF_PRETIMEOUT": ("WDIOC_SETPRETIMEOUT",
                                                                           "WDIOC_GETPRETIMEOUT")}


def advertised_but_uncased(src: Source, sites: tuple[Site, ...]) -> tuple[str, ...]:
    """A sentence for each command the converted handler has no case for
    although its own struct watchdog_info advertises it (cpwd_ioctl():
    `.options = WDIOF_SETTIMEOUT` and no WDIOC_SETTIMEOUT case): a program
    that trusts the flag sees the new answer for a command it was promised
    (a reviewer asked that it be said)."""
    out: list[str] = []
    options = re.search(r"\.options\s*=([^,;}]*)", src.clean)
    defined = {f.name for f in src.functions}
    for s in sites:
        uncased = set(s.effects.uncased_commands()) if s.effects else set()
        if options is None or s.function not in defined:
            continue
        for flag, commands in _PROMISES.items():
            missing = [c for c in commands if c in uncased]
            if re.search(r"\b%s\b" % flag, options.group(1)) and missing:
                named = " or ".join(missing)
                sentence = (f"{s.function}()'s struct watchdog_info sets {flag}, though it has no {named}"
                            f" case: a program that trusts the flag gets ENOTTY from {named} now, where it"
                            f" got {s.from_}.")
                if sentence not in out:
                    out.append(sentence)
    return tuple(out)


def unaffected_consumers(src: Source, sites: tuple[Site, ...],
                         rows: "list[consumers.Consumer] | None" = None) -> tuple[tuple[str, str, str, str], ...]:
    """(program, command, function, errno) for each program that tests a
    command for an errno (EINVAL, or the one its row's `reads` starts
    with: testusb's EOPNOTSUPP) which a converted function handles itself (consumers.tsv
    keep=cased: QEMU's tap backend and TUNSETVNETLE, libevdev and
    EVIOCGPROP): reviewers asked that the message say such a program is
    not affected (messages.unaffected_sentences()).  The function handles
    the command when its body names it and no site lists it as uncased."""
    uncased = {c for s in sites for c in (s.effects.uncased_commands() if s.effects else [])}
    bodies = {f.name: src.clean[f.body_start:f.body_end] for f in src.functions
              if f.name in {s.function for s in sites}}
    out: list[tuple[str, str, str, str]] = []
    for row in consumers.read() if rows is None else rows:
        if row.cased and row.command not in uncased:
            errno = m.group(0) if (m := re.match(r"E[A-Z0-9]+(?=:)", row.reads)) else "EINVAL"
            out += [(row.who, row.command, name, errno) for name, body in sorted(bodies.items())
                    if re.search(r"\b%s\b" % re.escape(row.command), body)]
    return tuple(out)


# calls that read an ioctl's argument from user space, -EFAULT when they cannot
_USER_READ = re.compile(r"\b(get_user|copy_from_user|copy_struct_from_user|memdup_user)\s*\(")


def reads_before_lookup(src: Source, sites: tuple[Site, ...]) -> tuple[str, ...]:
    """The user-space reads (get_user(), ...) between a guard site and the
    -ENOIOCTLCMD or -ENOTTY that its function answers the commands past the
    guard with: luo_ioctl() reads the size word its argument starts with
    before it compares the command with its table's, so a number inside the
    table with an argument it cannot read fails with -EFAULT (a review)."""
    out: list[str] = []
    for at, fn in _guard_sites(src, sites):
        later = _ALREADY_ENOTTY.search(src.clean, src.clean.find("\n", at), fn.body_end)
        if later is None:
            continue
        for m in _USER_READ.finditer(src.clean, at, later.start()):
            if m.group(1) + "()" not in out:
                out.append(m.group(1) + "()")
    return tuple(out)


def condition_above(clean: str, at: int, floor: int) -> str:
    """The condition of the nearest `if (...)` before offset at (not
    before floor) whose statement reaches at, on one line; '' when none."""
    for m in reversed(list(_IF.finditer(clean, floor, at))):
        close = match_close(clean, m.end() - 1)
        if close < 0 or close > at:
            continue
        after = clean[close + 1:at]
        # `if (c) return` or `if (c) { log(...); return`: nothing between
        # the condition and the site closes the statement
        if "}" in after or (after.count(";") and not after.lstrip().startswith("{")):
            return ""
        return " ".join(clean[m.end():close].split())
    return ""


def uapi_errnos(root: Path, text: str) -> tuple[str, ...]:
    """`include/uapi/...h: "ENOTTY: ..."` for each uapi header the text
    includes (as <uapi/X.h> or as the <X.h> that wraps it) whose comment
    lists what ENOTTY means."""
    out: list[str] = []
    for name in dict.fromkeys(_INCLUDE.findall(text)):
        header = root / "include" / "uapi" / name
        if not header.is_file():
            continue
        m = _ERRNO_ITEM.search(csource.decode(header.read_bytes()))
        if m:
            out.append(f'include/uapi/{name}: "ENOTTY: {m.group(1)}"')
    return tuple(out)

