"""Known commands that keep a converted line's old answer, tested for in the same patch.

A program may read a handler's old answer for a command the handler has no
case for: Android's binder driver test expects -EINVAL from
BINDER_SET_IDLE_TIMEOUT and BINDER_SET_IDLE_PRIORITY, iproute2's `ip
tunnel show` from SIOCGET6RD on a sit device without 6RD, tools/iio
-ENODEV from IIO_GET_EVENT_FD_IOCTL on a device without events
(judge/consumers.tsv).  Such a handler is converted with those commands
kept (handlers.KeptAnswer): the statement the rules changed,

    return -ENOTTY;            or      ret = -ENOTTY;

becomes a test of the named commands that gives the old answer, then the
new one:

    if (cmd == A || cmd == B)          if (cmd == A || cmd == B)
            return -EINVAL;                    ret = -EINVAL;
    return -ENOTTY;                    else
                                               ret = -ENOTTY;

The rules change tokens; this step edits the converted statement after
the fact, as comment_updates.py edits comments, and writes the file's diff
again from the pristine text.  A site whose changed line is not such a
statement alone, or whose function has no command parameter to test, is
left out by the judge instead (kept_commands.unkeepable()), so no patch
drops a consumer's answer.
"""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from ..find import scan
from ..find.sites import Site
from ..judge.kept_commands import STATEMENT, KeptAnswer, command_parameter
from .comment_updates import apply_diff, lines_of, unified_diff
from .split import FileChange, SeriesPlan, each_converting_file

def revise(root: Path, plans: list[SeriesPlan], kept: dict[Site, KeptAnswer]) -> list[SeriesPlan]:
    """plans with the kept commands tested for in each converting patch."""
    if not kept:
        return plans
    return each_converting_file(plans, lambda change: revised(root, change, kept))


def revised(root: Path, change: FileChange, kept: dict[Site, KeptAnswer]) -> FileChange:
    mine = [(s, kept[s]) for s in change.sites if s in kept]
    path = root / change.path
    if not mine or not path.is_file():
        return change
    before = scan.decode(path.read_bytes())
    edited = edit(before, change.diff, mine)
    if edited is None:
        # the judge converts a handler with kept commands only where
        # kept_commands.unkeepable() found the statement and the parameter
        raise RuntimeError(f"{change.path}: cannot test for the kept commands of "
                           + ", ".join(f"{s.function}() line {s.line}" for s, _a in mine))
    return replace(change, diff=unified_diff(change.path, lines_of(before), edited))


def edit(before: str, diff: str, kept: list[tuple[Site, KeptAnswer]]) -> list[str] | None:
    """The converted file's lines with each kept site's statement replaced
    by the test of its commands; None when the diff does not apply or a
    site cannot be edited."""
    applied = apply_diff(before, diff)
    if applied is None:
        return None
    after, moved = applied
    lines = lines_of(after)
    old = lines_of(before)
    edits: list[tuple[int, list[str], int]] = []
    for site, answer in kept:
        at = _new_index(moved, site.line, lines, site.to)
        command = command_parameter(before, site)
        if at is None or at >= len(lines) or not command or site.line > len(old):
            return None
        new = kept_statement(lines[at], command, answer, site.to)
        if new is None:
            return None
        head = lines[at - 1] if at else ""
        if _BRACELESS_HEAD.search(head):
            # the body of a brace-less else or if (tape_34xx_ioctl()'s
            # `} else return -EINVAL;`): the statements it becomes need braces
            indent = head[:len(head) - len(head.lstrip(" \t"))]
            edits.append((at - 1, [head.rstrip("\n") + " {\n"] + new + [f"{indent}}}\n"], 2))
        else:
            edits.append((at, new, 1))
    for at, new, count in sorted(edits, reverse=True):
        lines[at:at + count] = new
    return lines


# a line that ends a head whose body is the next statement alone
_BRACELESS_HEAD = re.compile(r"(?:\belse|\))[ \t]*$")


def _new_index(moved: dict[int, int], line: int, lines: list[str], to: str) -> int | None:
    """Where the statement the rules changed on line (1-based, pristine)
    is in the converted text: the one `return -TO;` or `x = -TO;` between
    the kept lines around it."""
    above = max((n for n in moved if n < line), default=0)
    below = min((n for n in moved if n > line), default=0)
    start = moved[above] + 1 if above else 0
    end = moved[below] if below else len(lines)
    found = [i for i in range(start, end) if (m := STATEMENT.match(lines[i].rstrip("\n"))) and m.group("errno") == to]
    return found[0] if len(found) == 1 else None


def kept_statement(line: str, command: str, answer: KeptAnswer, to: str) -> list[str] | None:
    """The lines that replace a converted `return -TO;` or `x = -TO;`."""
    m = STATEMENT.match(line.rstrip("\n"))
    if m is None or m.group("errno") != to:
        return None
    indent, lhs = m.group("indent"), m.group("lhs")
    terms = [f"{command} == {name}" for name in answer.commands]
    test = " || ".join(terms)
    if _columns(f"{indent}if ({test})") > 80:
        # one term a line, under the first (kernel style, checkpatch)
        test = " ||\n".join(t if i == 0 else f"{indent}    {t}" for i, t in enumerate(terms))
    step = "\t" if not indent or indent.endswith("\t") else " " * 8
    out = [f"{ln}\n" for ln in f"{indent}if ({test})".split("\n")] + [f"{indent}{step}{lhs}-{answer.errno};\n"]
    if lhs.startswith("return"):
        return out + [f"{indent}{lhs}-{to};\n"]
    return out + [f"{indent}else\n", f"{indent}{step}{lhs}-{to};\n"]


def _columns(line: str) -> int:
    return len(line.expandtabs(8))
