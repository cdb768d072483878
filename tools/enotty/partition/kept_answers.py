"""Known commands that keep a converted line's old answer, in the same patch.

A program may read a handler's old answer for a command the handler has no
case for: Android's binder driver test expects -EINVAL from
BINDER_SET_IDLE_TIMEOUT and BINDER_SET_IDLE_PRIORITY, iproute2's `ip
tunnel show` from SIOCGET6RD on a sit device without 6RD, tools/iio
-ENODEV from IIO_GET_EVENT_FD_IOCTL on a device without events
(judge/consumers.tsv).  Such a handler is converted with those commands
kept (handlers.KeptAnswer), each form with a comment naming the readers:

  - under a `default:` label alone on its line, the commands get case
    labels of their own before it with the old answer (and the jump an
    assignment's default ends with: binder's `goto err;`); a command whose
    case an #ifdef holds gets its label in that block's #else (sit's
    SIOCGET6RD without CONFIG_IPV6_SIT_6RD), where a label outside it
    would repeat the case;
  - elsewhere (iio_ioctl()'s return after its handler loop), a test of the
    commands that gives the old answer comes before the new one, in braces
    under a brace-less else or if (6.12's tape_34xx_ioctl()).

The rules change tokens; this step edits the converted statement after
the fact, as comment_updates.py edits comments, and writes the file's diff
again from the pristine text.  A site whose changed line is not such a
statement alone, whose function has no command parameter to test, or
whose file cannot see the commands is left out by the judge instead
(kept_commands.unkeepable()), so no patch drops a consumer's answer.
"""
from __future__ import annotations

import re
import textwrap
from dataclasses import replace
from pathlib import Path

from ..find import scan
from ..find.sites import Site
from ..judge.kept_commands import STATEMENT, KeptAnswer, command_parameter, readers_read
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
    """The converted file's lines with each kept site's commands given
    their old answer; None when the diff does not apply or a site cannot
    be edited."""
    applied = apply_diff(before, diff)
    if applied is None:
        return None
    after, moved = applied
    lines = lines_of(after)
    edits: list[tuple[int, list[str], int]] = []
    for site, answer in kept:
        at = _new_index(moved, site.line, lines, site.to)
        command = command_parameter(before, site)
        if at is None or not command:
            return None
        m = STATEMENT.match(lines[at].rstrip("\n"))
        if m is None:
            return None
        label = _default_label(lines, at)
        if label is not None:
            edit_at = _labels(lines, at, label, m, site, answer)
            if edit_at is not None:
                edits.append(edit_at)
                continue
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
_DEFAULT = re.compile(r"^[ \t]*default\s*:\s*$")
_JUMP = re.compile(r"^[ \t]*(?:break|goto\s+\w+|return(?:\s+\w+)?)\s*;\s*$")
_ENDIF = re.compile(r"^\s*#\s*endif\b")
_IF = re.compile(r"^\s*#\s*if")
_ELSE = re.compile(r"^\s*#\s*el")


def _default_label(lines: list[str], at: int) -> int | None:
    """The index of the `default:` line right above the statement at at."""
    return at - 1 if at and _DEFAULT.match(lines[at - 1]) else None


def _labels(lines: list[str], at: int, label: int, m: re.Match[str], site: Site,
            answer: KeptAnswer) -> tuple[int, list[str], int] | None:
    """Case labels of the kept commands before the default at label, with
    the old answer (and the default's jump after an assignment); in the
    #else of the #ifdef that holds their cases when they have one; None
    where the default's body is more than the statement (m, at at) and a
    jump, or the #if block is not right above it."""
    indent, lhs = m.group("indent"), m.group("lhs")
    body = [f"{indent}{lhs}-{answer.errno};\n"]
    if not lhs.startswith("return"):
        if at + 1 >= len(lines) or not _JUMP.match(lines[at + 1]):
            return None
        body.append(lines[at + 1])
    label_indent = lines[label][:len(lines[label]) - len(lines[label].lstrip(" \t"))]
    cases = [f"{label_indent}case {name}:\n" for name in answer.commands]
    block = cases + comment(indent, answer) + body
    config = _condition(site, answer)
    if config is None:
        return None
    if not config:
        return label, block + [lines[label]], 1
    # sit: the cases of SIOCGET6RD and its kin stand under #ifdef
    # CONFIG_IPV6_SIT_6RD, whose #endif is right above the default
    endif = label - 1
    if endif < 0 or not _ENDIF.match(lines[endif]):
        return None
    depth, opening = 0, None
    for i in range(endif - 1, -1, -1):
        if _ENDIF.match(lines[i]):
            depth += 1
        elif _IF.match(lines[i]):
            if depth == 0:
                opening = i
                break
            depth -= 1
        elif _ELSE.match(lines[i]) and depth == 0:
            return None
    if opening is None or config.partition("=")[0] not in lines[opening] \
            or not re.match(r"\s*#\s*if(?:def\b|\s+(?:IS_ENABLED|defined)\b)", lines[opening]):
        return None
    return endif, ["#else\n"] + block + [lines[endif]], 1


def _condition(site: Site, answer: KeptAnswer) -> str | None:
    """'' when the kept commands have no case at all, CONFIG_X=n when each
    has one only under CONFIG_X (effects' uncased cell: NAME[CONFIG_X=n]),
    None for a mix."""
    cells = dict(site.effects.uncased_items()) if site.effects else {}
    found = {cells.get(name, "") for name in answer.commands}
    if len(found) != 1:
        return None
    config = found.pop()
    return config if config == "" or re.fullmatch(r"CONFIG_\w+=n", config) else None


def comment(indent: str, answer: KeptAnswer) -> list[str]:
    """A comment that names who reads the kept answer, one line or a
    block of them (kernel style) when it does not fit in 80 columns."""
    text = f"{readers_read(answer)} -{answer.errno} here"
    one = f"{indent}/* {text} */\n"
    if _columns(one.rstrip("\n")) <= 80:
        return [one]
    width = 80 - _columns(indent) - 3
    return ([f"{indent}/*\n"] + [f"{indent} * {ln}\n" for ln in textwrap.wrap(text, width)]
            + [f"{indent} */\n"])


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
    """The lines that replace a converted `return -TO;` or `x = -TO;`: a
    comment, the test of the kept commands with the old answer, the new."""
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
    out = comment(indent, answer) + [f"{ln}\n" for ln in f"{indent}if ({test})".split("\n")]
    out.append(f"{indent}{step}{lhs}-{answer.errno};\n")
    if lhs.startswith("return"):
        return out + [f"{indent}{lhs}-{to};\n"]
    return out + [f"{indent}else\n", f"{indent}{step}{lhs}-{to};\n"]


def _columns(line: str) -> int:
    return len(line.expandtabs(8))
