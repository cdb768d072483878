"""Comments that state a converted handler's old answer, updated in the same patch.

A handler's doc comment may say what an unknown command gets ("Gives 0 for
implemented commands, -EINVAL otherwise", envctrl; "Returns -EINVAL for an
unknown ioctl request", i915_perf_ioctl()).  Once the patch converts the
handler, that comment is false, and a reviewer asks for it to change with
the code.  The rules change code, not prose, so this step edits the
comments after the fact: in each patch that converts a handler, a comment
inside a converted function or its handler, or the comment right above
one, whose sentence names the old errno as the answer to an unknown,
unsupported or unrecognised command (or as what "otherwise" gets) has
that errno replaced by the new one.  A sentence that also speaks of an
argument, a size or a value is left alone: its errno may answer that too.

Only comment lines change, one line for one line, so the sites' line
numbers hold; the file's diff is written again from the pristine text
and the converted one (git format-patch writes the mails' diffs itself).
"""
from __future__ import annotations

import difflib
import re
from dataclasses import replace
from pathlib import Path

from ..find import ctext, scan
from ..find.sites import Site
from ..judge import effects, handlers
from .split import FileChange, SeriesPlan, _parse_hunks, each_converting_file

# what a sentence calls a command the handler does not know
_UNKNOWN = re.compile(
    r"\b(?:unknown|unsupported|not supported|unrecogni[sz]ed|unimplemented|not implemented|unhandled"
    r"|invalid|undefined|other)\s+(?:ioctl\s+)?(?:commands?|cmds?|requests?|ioctls?|codes?)\b"
    r"|\b(?:commands?|cmds?|requests?|ioctls?)\b[^.;]{0,30}\b(?:unknown|not supported|unsupported"
    r"|unrecogni[sz]ed|not implemented)\b"
    r"|\b(?:commands?|cmds?|ioctls?|requests?)\b[^.;]*\botherwise\b", re.I)
# a sentence whose errno may answer a bad argument as well
_ARGUMENT = re.compile(r"\b(?:arguments?|args?|parameters?|params?|values?|sizes?|length|pointer|buffer)\b", re.I)
_SENTENCE_END = re.compile(r"[.;:](?=\s)|\n\s*\*?\s*\n|/\*|\*/")


def revise(root: Path, plans: list[SeriesPlan]) -> list[SeriesPlan]:
    """plans with each converting patch's files revised (revised()); the
    cleanup patches change no handler's answer and stay as they are."""
    return each_converting_file(plans, lambda change: revised(root, change))


def revised(root: Path, change: FileChange) -> FileChange:
    """The change with the comments that state its handlers' old answer
    updated, and a sentence for the commit message; unchanged when there
    is none, or when the diff does not apply to the file as it is."""
    path = root / change.path
    if not change.sites or not path.is_file():
        return change
    before = scan.decode(path.read_bytes())
    applied = apply_diff(before, change.diff)
    if applied is None:
        return change
    after, moved = applied
    edits = comment_edits(before, change.sites)
    # a line the rules changed is code, not one of these comments
    edits = {n: text for n, text in edits.items() if n in moved}
    if not edits:
        return change
    lines = lines_of(after)
    for n, text in edits.items():
        lines[moved[n]] = text
    names = _functions_of(before, change.sites, set(edits))
    return replace(change, diff=unified_diff(change.path, lines_of(before), lines),
                   notes=change.notes + (note(names, change.sites),))


def note(names: list[str], sites: tuple[Site, ...]) -> str:
    """The commit message's sentence for the comments changed."""
    tos = sorted({s.to for s in sites})
    where = " and ".join(f"{n}()" for n in names) if names else "the handler"
    return (f"The comment{'s' if len(names) > 1 else ''} of {where} that name{'' if len(names) > 1 else 's'}"
            f" the answer to an unknown command {'say' if len(names) > 1 else 'says'} "
            + " or ".join(f"-{t}" for t in tos) + " now.")


def apply_diff(text: str, diff: str) -> tuple[str, dict[int, int]] | None:
    """text with diff's hunks applied, and where each line the diff keeps
    (1-based, in text) is in the result (0-based); None when a context or
    removed line differs from text."""
    old = lines_of(text)
    out: list[str] = []
    moved: dict[int, int] = {}
    n = 0   # lines of old consumed
    for hunk in _parse_hunks(diff)[1]:
        start = max(hunk.old_start - 1, 0) if hunk.old_len else hunk.old_start
        while n < start:
            moved[n + 1] = len(out)
            out.append(old[n])
            n += 1
        for line in hunk.body:
            kind, body = line[:1], line[1:]
            if kind == "\\":
                continue
            if kind in (" ", "-"):
                if n >= len(old) or old[n].rstrip("\r\n") != body.rstrip("\r\n"):
                    return None
                if kind == " ":
                    moved[n + 1] = len(out)
                    out.append(old[n])
                n += 1
            elif kind == "+":
                out.append(body)
    while n < len(old):
        moved[n + 1] = len(out)
        out.append(old[n])
        n += 1
    return "".join(out), moved


def comment_edits(text: str, sites: tuple[Site, ...]) -> dict[int, str]:
    """line (1-based) -> its new text, for the comments of the converted
    functions and their handlers that state the old answer."""
    cf = effects.CFile("", text)
    stale: dict[int, tuple[str, str]] = {}   # offset -> (old errno, new errno)
    for name, mine in _by_function(sites).items():
        tos = {s.to for s in mine}
        if len(tos) == 1:
            for start, end in _comments_of(cf, name):
                for offset, errno in _stale(text, start, end, {s.from_ for s in mine}):
                    stale[offset] = (errno, next(iter(tos)))
    edits: dict[int, str] = {}
    # right to left, so that a longer errno does not move the next one
    for offset in sorted(stale, reverse=True):
        n = cf.line_of(offset)
        line = edits.get(n) or lines_of(text[cf.offset(n):])[0]
        col = offset - cf.offset(n)
        old, new = stale[offset]
        edits[n] = line[:col] + new + line[col + len(old):]
    return edits


def lines_of(text: str) -> list[str]:
    """text's lines with their newlines, cut at newlines only (a form feed
    inside a line, as some drivers have, does not end it)."""
    return re.findall(r"[^\n]*\n|[^\n]+$", text)


def unified_diff(path: str, before: list[str], after: list[str]) -> str:
    """A git-style diff of one file (a/ b/ headers, three lines of context)."""
    out = difflib.unified_diff(before, after, f"a/{path}", f"b/{path}", n=3)
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in out)


def _by_function(sites: tuple[Site, ...]) -> dict[str, list[Site]]:
    """Each converted function and each handler that reaches one, with its sites."""
    out: dict[str, list[Site]] = {}
    for s in sites:
        for name in dict.fromkeys((s.function, handlers.handler_of(s))):
            out.setdefault(name, []).append(s)
    return out


def _comments_of(cf: effects.CFile, name: str) -> list[tuple[int, int]]:
    """The comments inside each definition of name, and the one right above
    it (nothing but its head between them)."""
    comments = [(m.start(), m.end()) for m in ctext.LEXEMES.finditer(cf.raw) if m.group().startswith("/")]
    out = []
    for fn in effects.functions(cf, name):
        head = cf.offset(cf.line_of(fn.start))
        above = [c for c in comments if c[1] <= fn.start and _adjoins(cf.raw[c[1]:head])]
        out += above[-1:] + [c for c in comments if fn.body <= c[0] < fn.end]
    return out


def _adjoins(gap: str) -> bool:
    """Whether only the head of a definition (its return type, `static`)
    separates a comment from the definition's line."""
    return not re.search(r"[;{}#]|\n[ \t]*\n|/[*/]", gap)


def _stale(text: str, start: int, end: int, froms: set[str]) -> list[tuple[int, str]]:
    """(offset, errno) of each old errno in the comment at text[start:end]
    whose sentence makes it the answer to an unknown command."""
    out = []
    for m in re.finditer(r"\b(" + "|".join(sorted(froms)) + r")\b", text[start:end]):
        sentence = _sentence(text[start:end], m.start())
        if _UNKNOWN.search(sentence) and not _ARGUMENT.search(sentence) and \
                len(re.findall(r"\bE[A-Z0-9]{3,}\b", sentence)) == 1:
            out.append((start + m.start(), m.group(1)))
    return out


def _sentence(comment: str, at: int) -> str:
    """The sentence of comment around offset at, on one line."""
    ends = [m.end() for m in _SENTENCE_END.finditer(comment, 0, at)]
    nxt = _SENTENCE_END.search(comment, at)
    body = comment[ends[-1] if ends else 0:nxt.start() if nxt else len(comment)]
    return " ".join(re.sub(r"^\s*\*", " ", line) for line in body.splitlines())


def _functions_of(text: str, sites: tuple[Site, ...], lines: set[int]) -> list[str]:
    """The functions whose comments hold the changed lines, in file order."""
    cf = effects.CFile("", text)
    found = []
    for name in _by_function(sites):
        for start, end in _comments_of(cf, name):
            if any(cf.line_of(start) <= n <= cf.line_of(end) for n in lines) and name not in found:
                found.append(name)
    return sorted(found, key=lambda n: min(f.start for f in effects.functions(cf, n)))
