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
from dataclasses import replace
from pathlib import Path

from ..find import csource
from ..find.ctext import match_close
from ..find.sites import Site
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


def annotated(root: Path, change: FileChange) -> FileChange:
    path = root / change.path
    if not change.sites or not path.is_file():
        return change
    text = csource.decode(path.read_bytes())
    return replace(change, guards=partial_guards(text, change.sites), cites=uapi_errnos(root, text),
                   notes=change.notes + kept_internal_answers(text, change.sites))


# kernel-internal values (include/linux/errno.h: "should never be seen by
# user programs"): a message that says user space saw 524 must say where
# it still does
INTERNAL = ("ENOTSUPP",)


def kept_internal_answers(text: str, sites: tuple[Site, ...]) -> tuple[str, ...]:
    """A sentence for each converted function that still answers a
    kernel-internal value elsewhere (dvb_frontend_handle_ioctl()'s
    `err = -ENOTSUPP` for a known command whose frontend operation is
    missing): the patch changes its unknown-command answer only."""
    clean = csource.clean(text)
    starts = _line_starts(clean)
    fns = csource.functions(clean)
    out: list[str] = []
    for errno in INTERNAL:
        mine = [s for s in sites if s.from_ == errno and s.line <= len(starts)]
        for name in dict.fromkeys(s.function for s in mine):
            fn = next((f for f in fns if f.name == name), None)
            if fn is None:
                continue
            changed = {s.line for s in mine if s.function == name}
            left = [m for m in re.finditer(r"-\s*%s\b" % errno, clean[fn.body_start:fn.body_end])
                    if clean.count("\n", 0, fn.body_start + m.start()) + 1 not in changed]
            if left:
                out.append(f"{name}() still answers -{errno} for some known commands; this patch "
                           "changes only its answer to an unknown command.")
    return tuple(out)


def partial_guards(text: str, sites: tuple[Site, ...]) -> tuple[str, ...]:
    """The conditions of the guard sites whose function answers some other
    unknown command -ENOIOCTLCMD or -ENOTTY already, each once, in order."""
    clean = csource.clean(text)
    starts = _line_starts(clean)
    out: list[str] = []
    for s in sites:
        if s.rule != GUARD_RULE or s.line > len(starts):
            continue
        at = starts[s.line - 1]
        fn = next((f for f in csource.functions(clean) if f.body_start < at < f.body_end), None)
        if fn is None:
            continue
        body = clean[fn.body_start:fn.body_end]
        own = clean[at:clean.find("\n", at)]
        if len(_ALREADY_ENOTTY.findall(body)) > len(_ALREADY_ENOTTY.findall(own)):
            condition = condition_above(clean, at, fn.body_start)
            if condition and condition not in out:
                out.append(condition)
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


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for m in re.finditer("\n", text):
        starts.append(m.end())
    return starts
