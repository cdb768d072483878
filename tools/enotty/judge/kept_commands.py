"""Known commands that keep a converted line's old answer: what the judge
decides and what the partition stage (partition/kept_answers.py) writes.

A program may read a handler's old answer for a command the handler has no
case for (consumers.tsv): Android's binder driver test expects -EINVAL
from BINDER_SET_IDLE_TIMEOUT and BINDER_SET_IDLE_PRIORITY.  Such a
handler is converted with those commands tested for before the new answer,
when the changed line is a `return -E;` or `x = -E;` statement alone and
the function has a command parameter to test; otherwise it is left out, as
before, so that no patch drops an answer a program reads.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..find import csource, interfaces
from ..find.sites import Site

# names a helper gives the command it was handed (mtip_hw_ioctl(dd, cmd, arg))
COMMAND_NAMES = ("cmd", "command", "ioctl", "ioctl_num", "request", "code")
STATEMENT = re.compile(r"^(?P<indent>[ \t]*)(?P<lhs>return\s+|\w+\s*=\s*)-\s*(?P<errno>E[A-Z0-9]+)\s*;\s*$")


@dataclass(frozen=True)
class KeptAnswer:
    """Known commands that reach a converted line and keep its old answer,
    because a program reads it for them."""
    commands: tuple[str, ...]
    errno: str                 # the old answer they keep, without the minus
    readers: tuple[str, ...]   # who reads it, as consumers.tsv names them


def joined(words: list[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def reader_names(answer: KeptAnswer) -> list[str]:
    """Who reads the kept answer, once each: s390-tools tape390_crypt -q,
    -e and -k are one program."""
    return list(dict.fromkeys(re.sub(r"(?: -\w+)+$", "", r) for r in answer.readers))


def readers_read(answer: KeptAnswer) -> str:
    """'P reads' or 'P and Q read' (one consumer row may name two files)."""
    who = joined(reader_names(answer))
    return f"{who} {'read' if ' and ' in who else 'reads'}"


def command_parameter(text: str, site: Site) -> str:
    """The name of the site's function's command parameter: the interface's
    position for the handler itself, else the parameter a helper names like
    a command; '' when none is found."""
    clean = csource.clean(text)
    fn = next((f for f in csource.functions(clean) if f.name == site.function), None)
    if fn is None:
        return ""
    names = fn.param_names()
    row = interfaces.row(site.interface)
    entry = site.effects.entry if site.effects else "-"
    if row is not None and entry in ("-", "", "unknown", site.function) and row.cmd_arg < len(names):
        return names[row.cmd_arg]
    return next((n for n in names if n in COMMAND_NAMES), "")


_INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def undefined(root: Path, rel: str, names: tuple[str, ...], depth: int = 6) -> list[str]:
    """The names no #define or enumerator of rel or of a header it includes (through
    include/ and include/uapi/, or beside it, to depth) gives: a test of
    them would not build (SG_IO is in scsi/sg.h, which mtip32xx.c does not
    include)."""
    missing = set(names)
    seen: set[Path] = set()
    todo = [(root / rel, 0)]
    while todo and missing:
        path, level = todo.pop()
        if path in seen or not path.is_file() or len(seen) > 2000:
            continue
        seen.add(path)
        text = path.read_text(errors="replace")
        # a macro, or an enumerator (binder.h's BINDER_SET_IDLE_PRIORITY = _IOW(...))
        missing = {n for n in missing if not re.search(r"^\s*(?:#\s*define\s+%s\b|%s\s*=)" % (n, n), text, re.M)}
        if level < depth:
            for quote, name in _INCLUDE.findall(text):
                places = [path.parent / name] if quote == '"' else []
                places += [root / "include" / name, root / "include" / "uapi" / name]
                if name.startswith("asm/"):
                    # the architecture's (tape_34xx.c's <asm/tape390.h> is s390's)
                    places += [a / "include" / sub / name for a in sorted((root / "arch").glob("*"))
                               for sub in ("", "uapi")]
                todo += [(p, level + 1) for p in places if p.is_file()]
    return sorted(missing)


def unkeepable(text: str, site: Site, root: Path | None = None, commands: tuple[str, ...] = ()) -> str:
    """Why the old answer of site cannot be kept for named commands in the
    pristine text ('' when it can); with root, also when a command is not
    defined where the file can see it."""
    lines = text.splitlines()
    line = lines[site.line - 1] if 0 < site.line <= len(lines) else ""
    m = STATEMENT.match(line)
    if m is None or m.group("errno") != site.from_:
        return f"line {site.line} is not a `return -{site.from_};` or an assignment of it alone"
    if not command_parameter(text, site):
        return f"{site.function}() has no command parameter to test"
    missing = undefined(root, site.file, commands) if root is not None and commands else []
    if missing:
        return f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not defined in the headers {site.file} includes"
    return ""
