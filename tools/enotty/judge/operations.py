"""Who lacks the operation a dispatcher answers for when it is missing.

A dispatcher such as dmasound's mixer_ioctl() (`if (dmasound.mach.mixer_ioctl)
return dmasound.mach.mixer_ioctl(cmd, arg); return -EINVAL;`) answers an
unknown command itself only where the vector behind it has no operation.
Whether user space can see that answer depends on the tree's vectors:
every `MACHINE` but machQ40 sets .mixer_ioctl, so on a Q40 every unknown
mixer command gets that -EINVAL.  This module reads the type of the
operation's holder from the C text (the dispatcher's declarations, then the
struct definitions of the file and of the headers it includes) and lists
every initialiser of that type in the tree with the operation it sets.

Entry point: providers(tree, cf, fn, operation) -> Providers | None (None:
the type or its initialisers could not be read for sure).
"""
from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Sequence

from . import effects
from ..find.ctext import match_close

_NOT_TYPES = {"return", "sizeof", "else", "case", "goto", "if", "while", "const", "volatile",
              "static", "extern", "unsigned", "signed"}
_INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
_NONE = ("NULL", "0", "")


@dataclass(frozen=True)
class Vector:
    """One initialiser of the operation's type: `static MACHINE machQ40 = {`."""
    name: str
    file: str
    operation: str          # the function it sets for the member, "" for none (or NULL)


@dataclass(frozen=True)
class Providers:
    type: str               # as C writes it: MACHINE, struct uacce_ops
    member: str
    vectors: tuple[Vector, ...]

    @property
    def lacking(self) -> list[Vector]:
        return [v for v in self.vectors if not v.operation]

    @property
    def providing(self) -> list[Vector]:
        return [v for v in self.vectors if v.operation]


def _texts(tree: effects.Tree, cf: effects.CFile) -> list[str]:
    """The code of the file and of the headers it includes (one level)."""
    out = [cf.code]
    folder = Path(cf.path).parent
    for kind, name in _INCLUDE.findall(cf.raw):
        for rel in ([str(folder / name)] if kind == '"' else []) + [f"include/{name}"]:
            header = tree.file(rel)
            if header is not None:
                out.append(header.code)
                break
    return out


def _declared_type(text: str, name: str) -> str:
    """The type a declaration in text gives name: `struct x`, a typedef, or ''."""
    for m in re.finditer(r"\b(struct\s+\w+|\w+)\s*(?:\*\s*|const\s+)*\b%s\s*[;=,)\[]" % re.escape(name), text):
        word = m.group(1)
        if word.split()[-1] not in _NOT_TYPES:
            return " ".join(word.split())
    return ""


def _body(texts: list[str], type_: str) -> str:
    """The member list of type_'s definition: `struct x { ... }` or
    `typedef struct [tag] { ... } T;`, or ''."""
    for text in texts:
        if type_.startswith("struct "):
            for m in re.finditer(r"\bstruct\s+%s\s*\{" % re.escape(type_.split()[1]), text):
                close = match_close(text, m.end() - 1)
                if close > 0:
                    return text[m.end():close]
        else:
            for m in re.finditer(r"\btypedef\s+struct\s*\w*\s*\{", text):
                close = match_close(text, m.end() - 1)
                if close > 0 and re.match(r"\s*%s\s*;" % re.escape(type_), text[close + 1:]):
                    return text[m.end():close]
    return ""


def holder_type(tree: effects.Tree, cf: effects.CFile, fn: effects.Function, operation: str) -> str:
    """The type whose member the operation is (`dmasound.mach.mixer_ioctl`:
    MACHINE, the type of struct sound_settings' field mach), or ''."""
    parts = re.split(r"\s*(?:->|\.)\s*", operation)
    if len(parts) < 2:
        return ""
    texts = _texts(tree, cf)
    own = fn.params + ";" + cf.code[fn.body:fn.end]
    type_ = _declared_type(own, parts[0]) or next((t for x in texts if (t := _declared_type(x, parts[0]))), "")
    for field_name in parts[1:-1]:
        body = _body(texts, type_) if type_ else ""
        type_ = _declared_type(body, field_name) if body else ""
    if not type_:
        return ""
    body = _body(texts, type_)
    if not re.search(r"\(\s*\*\s*%s\s*\)\s*\(" % re.escape(parts[-1]), body):
        return ""
    return type_


@lru_cache(maxsize=None)
def _files_naming(root: Path, word: str) -> tuple[str, ...]:
    """The .c and .h files of the tree that name word (grep -rlw)."""
    done = subprocess.run(["grep", "-rlw", "--include=*.c", "--include=*.h", word, "."],
                          cwd=root, capture_output=True, text=True)
    return tuple(sorted(p[2:] if p.startswith("./") else p for p in done.stdout.split()))


def providers(tree: effects.Tree, cf: effects.CFile, fn: effects.Function, operation: str) -> Providers | None:
    """Every initialiser of the operation's holder type in the tree and the
    function each sets for the member; None when the type is not read, an
    initialiser is positional, or some code assigns the member at run time
    (then the initialisers do not say who lacks it)."""
    type_ = holder_type(tree, cf, fn, operation)
    if not type_:
        return None
    member = re.split(r"\s*(?:->|\.)\s*", operation)[-1]
    word = type_.split()[-1]
    head = (r"\bstruct\s+%s\s+" % re.escape(word)) if type_.startswith("struct ") else (r"\b%s\s+" % re.escape(word))
    start = re.compile(head + r"(?:__\w+\s+|const\s+)*(\w+)\s*=\s*\{")
    assigned = re.compile(r"[\w\])]\s*(?:->|\.)\s*%s\s*=(?!=)" % re.escape(member))
    designated = re.compile(r"\.\s*%s\s*=\s*([^,}]*)" % re.escape(member))
    vectors = []
    for rel in _files_naming(tree.root, word):
        other = tree.file(rel)
        if other is None:
            continue
        spans = []
        for m in start.finditer(other.code):
            close = match_close(other.code, m.end() - 1)
            if close < 0:
                return None
            body = other.code[m.end():close]
            if body.strip() and not re.match(r"\s*\.", body):
                return None                     # positional: which slot is which is not read here
            spans.append((m.start(), close))
            set_to = designated.search(body)
            value = set_to.group(1).strip() if set_to else ""
            vectors.append(Vector(m.group(1), rel, "" if value in _NONE else value))
        outside = other.code
        for a, b in reversed(spans):
            outside = outside[:a] + outside[b:]
        if assigned.search(outside):
            return None
    return Providers(type_, member, tuple(vectors)) if vectors else None


def names(vectors: Sequence[Vector], most: int = 4) -> str:
    """`machQ40 (sound/oss/dmasound/dmasound_q40.c)`, a few of them."""
    shown = [f"{v.name} ({v.file})" for v in vectors[:most]]
    more = len(vectors) - len(shown)
    words = shown + ([f"{more} more"] if more else [])
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


_FINAL = re.compile(r"\breturn\s+\(?\s*-\s*(E[A-Z0-9]+)\s*\)?\s*;\s*$")
_FINAL_CALL = re.compile(r"\breturn\s+(\w+)\s*\([^;]*\)\s*;\s*$")
_DEFAULT = re.compile(r"\bdefault\s*:\s*(?:\w+\s*=\s*|return\s+)\(?\s*-\s*(E[A-Z0-9]+)\b")


def own_answer(tree: effects.Tree, file: str, function: str, depth: int = 2) -> str:
    """The errno the operation answers an unknown command with when its C
    text says so plainly: its final `return -EINVAL;`, a default arm's
    errno, or that of the function its final `return g(cmd, arg);` calls
    (TTMixerIoctl() returns AtaMixerIoctl()'s -EINVAL); '' when not read."""
    cf = tree.file(file)
    found = effects.functions(cf, function) if cf else []
    if cf is None or not found:
        return ""
    body = cf.code[found[0].body + 1:found[0].end].rstrip()
    m = _DEFAULT.search(body)
    if m:
        return m.group(1)
    m = _FINAL.search(body)
    if m:
        return m.group(1)
    m = _FINAL_CALL.search(body)
    if m and depth > 0:
        return own_answer(tree, file, m.group(1), depth - 1)
    return ""
