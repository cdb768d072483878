"""Light reading of C source for tree-wide indexes, without a C parser.

The candidate list (candidates.py) and the phase-1 facts (facts.py) need
the same few things from 30,000 files in seconds: function definitions
with their parameters and bodies, struct-field bindings of functions, and
the calls inside a body.  spatch takes minutes for that, so this module
reads the text instead, cleaned by ctext first (line numbers stay):
comments, string contents, character literals and preprocessor lines
blanked, so that braces, parentheses and words in them no longer count,
and of an #if/#else only the first branch kept (the second of an `#if
0`), so that the braces of a function whose header is duplicated under
#ifdef still balance.
"""
from __future__ import annotations

import bisect
import functools
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, NamedTuple

from . import ctext, interfaces
from .ctext import blank_directives, blank_lexemes, match_close, split_top


def clean(text: str) -> str:
    """The text with comments, strings, character literals and
    preprocessor lines blanked and dead #if branches dropped; every line
    keeps its number."""
    return blank_directives(blank_lexemes(text, keep_quotes=True), dead_branches=True)


def decode(data: bytes) -> str:
    # latin-1 maps every byte to one character: offsets stay byte offsets.
    return data.decode("latin-1")


_IDENT = re.compile(r"[A-Za-z_]\w*")
_POINTER_NAME = re.compile(r"\(\s*\*\s*([A-Za-z_]\w*)\s*\)")


def param_name(decl: str) -> str:
    """The name a parameter declaration declares ('' for `void`, `...`
    or an unnamed parameter)."""
    if "(" in decl:
        m = _POINTER_NAME.search(decl)
        if m:                               # int (*fn)(struct file *, ...)
            return m.group(1)
    d = decl.rstrip()
    while d.endswith("]") and "[" in d:     # char name[16]
        d = d[:d.rfind("[")].rstrip()
    i = len(d)
    while i and (d[i - 1].isalnum() or d[i - 1] == "_"):
        i -= 1
    name, before = d[i:], d[:i].strip()
    if not name or name[0].isdigit() or name in _TYPE_WORDS or not before:
        return ""                           # void, ..., or a lone type: unnamed
    return name


_TYPE_WORDS = frozenset({
    "void", "int", "long", "short", "char", "unsigned", "signed", "float",
    "double", "const", "volatile", "struct", "union", "enum", "__user",
})

NOT_FUNCTIONS = frozenset({
    "if", "while", "for", "switch", "return", "sizeof", "defined", "do", "else",
    "typeof", "__typeof__", "__attribute__", "asm", "__asm__",
})

# Attribute keywords that may stand first in a head (`int __attribute__((weak)) f(`).
_ATTRIBUTE_WORDS = frozenset({"__attribute__"})

_NOT_A_TYPE = re.compile(r"[=;]|\btypedef\b|\breturn\b")
_STATIC = re.compile(r"\bstatic\b")

# Definition heads that begin at column 0: optional return type words,
# the name (on the same line, or indented or after a `*` on the next),
# `(` (there or on the next line).
DEF_HEAD = re.compile(r"^([A-Za-z_][\w \t\*]*?[\s\*]+)?([A-Za-z_]\w*)\s*\(", re.M)
_ATTRIBUTE = re.compile(r"\s*([A-Za-z_]\w*)\s*")


@dataclass(frozen=True)
class Function:
    name: str
    static: bool
    params: tuple[str, ...]      # declarations, as written
    start: int                   # offset of the name
    body_start: int              # offset of the body's `{`
    body_end: int                # offset of the body's `}`

    def param_names(self) -> list[str]:
        return [param_name(p) for p in self.params]


def functions(text: str) -> list[Function]:
    """The function definitions of a cleaned text, in order.

    Kernel style starts a definition's line at column 0 with its return
    type or its name; a head followed, after its parameter list and any
    attribute macros (`__acquires(x)`), by `{` is a definition; a macro
    or an attribute before the name is read as one (_definition).
    """
    found = []
    pos = 0
    for m in DEF_HEAD.finditer(text):
        if m.start() < pos:                  # inside the previous body
            continue
        head = _definition(text, m)
        if head is None:
            continue
        body_end = match_close(text, head.brace)
        if body_end < 0:
            continue
        # The return type may sit on the line above: look back to the
        # end of the previous declaration for `static`.
        back = head.decl if head.decl >= 0 else max(text.rfind(";", 0, m.start()), text.rfind("}", 0, m.start()), 0)
        static = _STATIC.search(text, back, head.start) is not None
        params_text = text[head.open_paren + 1:head.close_paren]
        params = tuple(p.strip() for p in split_top(params_text)) if params_text.strip() else ()
        found.append(Function(head.name, static, params, head.start, head.brace, body_end))
        pos = body_end
    return found


class _Head(NamedTuple):
    name: str
    start: int           # offset of the name
    open_paren: int      # its parameter list's `(`
    close_paren: int     # and `)`
    brace: int           # the body's `{`
    decl: int = -1       # where its declaration begins, when not after the last `;` or `}`


def _definition(text: str, m: "re.Match[str]") -> _Head | None:
    """The head a DEF_HEAD match starts, when a body follows its parameter
    list and any attribute macros (`__acquires(x)`); None for a keyword,
    a declaration or a call.

    The first parenthesis of a head need not be the parameter list: what
    it holds may be a macro's or an attribute's arguments (`2, 3`, `RCU`,
    `(weak)`), and a later word with a parameter list (`int a, ...`) is
    then the name: `static void __printf(2, 3)\\nfoo(...)`,
    `int __attribute__((weak)) foo(...)`, `BTF_ID_LIST(x)\\n\\nstatic int
    foo(void)`.  Where an empty line stands before the words before that
    name (`static DEF_SCSI_QCMD(x)`, an empty line, `irqreturn_t foo(`),
    the macro was a declaration of its own, and the head begins at those
    words (decl): a `static` before it is not the function's."""
    if (m.group(2) in NOT_FUNCTIONS and m.group(2) not in _ATTRIBUTE_WORDS) or _NOT_A_TYPE.search(m.group(1) or ""):
        return None
    name, start, open_paren = m.group(2), m.start(2), m.end() - 1
    close_paren = match_close(text, open_paren)
    if close_paren < 0:
        return None
    decl = -1
    i = close_paren + 1
    first_word = -1                          # where the words after the last `)` begin, after an empty line
    after_paren = True
    while True:                              # attribute macros before the body
        a = _ATTRIBUTE.match(text, i)
        if not a:
            break
        j = a.end()
        if after_paren:
            first_word = a.start(1) if _BLANK_LINE.search(text, i, a.start(1)) else -1
            after_paren = False
        if j < len(text) and text[j] == "(":
            k = match_close(text, j)
            if k < 0:
                break
            if (not declares_parameters(text[open_paren + 1:close_paren])
                    and (declares_parameters(text[j + 1:k]) or not text[j + 1:k].strip())):
                name, start, open_paren, close_paren = a.group(1), a.start(1), j, k
                decl = first_word if first_word != start else -1
            i = k + 1
            after_paren = True
        else:
            i = j
    while i < len(text) and text[i] in " \t\n":
        i += 1
    if i >= len(text) or text[i] != "{" or name in NOT_FUNCTIONS:
        return None
    return _Head(name, start, open_paren, close_paren, i, decl)


_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_DECLARATOR = re.compile(r"[A-Za-z_][\w\s\*]*?[\s\*]\s*[A-Za-z_]\w*\s*(\[[^\]]*\]\s*)*"
                         r"|[A-Za-z_][\w\s\*]*\(\s*\*\s*[A-Za-z_]\w*\s*\)\s*\(.*\)\s*|\.\.\.", re.S)


def declares_parameters(text: str) -> bool:
    """Whether the text between a head's parentheses declares parameters
    (`void`, `struct foo *f, const char *fmt, ...`, `int (*cb)(int)`), not
    a macro's or an attribute's arguments (`2, 3`, `RCU`, `tfile->lock`)."""
    parts = split_top(text) if text.strip() else []
    return bool(parts) and (text.strip() == "void" or all(_DECLARATOR.fullmatch(p.strip()) for p in parts))


def definition_heads(text: str) -> dict[str, int]:
    """How many column-0 definition heads each name has, each head read on
    its own: unlike functions(), a head that an earlier, unbalanced body
    would hide still counts (text with every #if branch kept)."""
    heads: dict[str, int] = {}
    counted: set[int] = set()
    for m in DEF_HEAD.finditer(text):
        head = _definition(text, m)
        if head is not None and head.start not in counted:   # a name at column 0 below its head's first line
            counted.add(head.start)
            heads[head.name] = heads.get(head.name, 0) + 1
    return heads


_ASSIGNMENT = re.compile(r"(?<![=!<>])\b([A-Za-z_]\w*)\s*=(?!=)([^;{}]*);")
_CALL_OTHER_THAN_IOC = re.compile(r"\b(?!_IOC_\w+\b)\w+\s*\(")


def command_words(body: str, cmd: str) -> set[str]:
    """cmd and the variables a body computes from it without a call
    (`nr = _IOC_NR(cmd)`, `c = cmd & ~IOCSIZE_MASK`): switching on one
    of them is switching on the command."""
    words = {cmd}
    word = re.compile(rf"\b{re.escape(cmd)}\b")
    for m in _ASSIGNMENT.finditer(body):
        rhs = m.group(2)
        if word.search(rhs) and not _CALL_OTHER_THAN_IOC.search(rhs.replace("(" + cmd + ")", "")):
            words.add(m.group(1))
    return words


# A function bound to an ioctl-like field: `.unlocked_ioctl = fn`,
# `ops->ioctl = fn`, `.vidioc_default = fn`, `.ioctl_fn = &fn`.
# A member named like ioctl, or another member of the interface table
# (vidioc_default, ndo_siocdevprivate, ndo_tunnel_ctl).
BINDING = re.compile(
    r"(\.|->)\s*(\w*ioctl\w*|" + "|".join(t.decode() for t in interfaces.member_tokens()[1:])
    + r")\s*=\s*(?:\(\s*\w+\s*\)\s*)?&?\s*([A-Za-z_]\w*)\s*([,;}])")


@dataclass(frozen=True)
class Binding:
    struct: str          # '' when not derivable from the text
    field: str
    function: str
    offset: int
    via: str = ""        # `hw->ops.ioctl = fn`: 'snd_hwdep.ops' (container struct.member)


_STRUCT_HEAD = re.compile(r"\bstruct\s+([A-Za-z_]\w*)\s+[\w\s\*\[\]]*?=\s*$")
_TYPED_VAR = r"\bstruct\s+([A-Za-z_]\w*)\s*\*?\s*(?:const\s+)?{var}\b"


def bindings(text: str) -> list[Binding]:
    """Every function bound to an ioctl-like field, with the struct type
    where the text says it: the type of a static initialiser's variable
    (outermost braces), or of the variable a run-time assignment names."""
    found = []
    for m in BINDING.finditer(text):
        function = m.group(3)
        if function in ("NULL", "0"):
            continue
        struct, via = "", ""
        before = text[max(0, m.start() - 80):m.start() + len(m.group(1))]
        embedded = _EMBEDDED.search(before) if m.group(1) == "." else None
        if embedded:
            # An ops structure inside another one: hw->ops.ioctl = fn.
            t = re.findall(_TYPED_VAR.format(var=re.escape(embedded.group(1))), text[:m.start()])
            if t:
                via = f"{t[-1]}.{embedded.group(2)}"
        elif m.group(1) == ".":
            struct = _initialiser_struct(text, m.start())
        if not struct and not embedded:
            var = re.search(r"([A-Za-z_]\w*)\s*(?:\.|->)\s*$", before)
            if var:
                t = re.findall(_TYPED_VAR.format(var=re.escape(var.group(1))), text[:m.start()])
                if t:
                    struct = t[-1]
        found.append(Binding(struct, m.group(2), function, m.start(3), via))
    return found


_EMBEDDED = re.compile(r"([A-Za-z_]\w*)\s*(?:\.|->)\s*([A-Za-z_]\w*)\s*\.\s*$")


def _initialiser_struct(text: str, offset: int) -> str:
    """The struct of the initialiser whose outermost `{` encloses offset,
    when the field sits directly in it (not in a nested brace)."""
    depth = 0
    i = offset
    innermost = -1
    while i > 0:
        i -= 1
        ch = text[i]
        if ch == "}":
            depth += 1
        elif ch == "{":
            if depth == 0:
                if innermost < 0:
                    innermost = i
                # Stop at the first brace of an initialiser at file level.
                head = text[max(0, i - 200):i]
                m = _STRUCT_HEAD.search(head)
                if m:
                    return m.group(1) if innermost == i else ""
                if re.search(r"[;)]\s*$", head) or re.search(r"=\s*$", head):
                    return ""
            else:
                depth -= 1
        elif ch == ";" and depth == 0:
            return ""
    return ""


# ---------------------------------------------------------------- the prefilter's reach

@functools.lru_cache(maxsize=None)
def code_digest() -> str:
    """sha256 of this module and ctext: what handlers_name() follows from,
    for the keys of the results kept of it."""
    h = hashlib.sha256()
    for path in (Path(__file__), Path(ctext.__file__)):
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()


# What follows `.F =` in a binding the prefilter found: an optional cast,
# `&`, the function's name, and the end of the initialiser or statement.
_BOUND_NAME = re.compile(rb"\s*(?:\(\s*[\w\s\*]+\)\s*)?&?\s*([A-Za-z_]\w*)\s*[,;}]")
_NAME_BYTES = re.compile(rb"[A-Za-z_]\w*")


def handlers_name(data: bytes, binding: re.Pattern[bytes], words: re.Pattern[bytes],
                  named: Iterable[str] = ()) -> bool:
    """Whether a token of `words` (the errnos the rules rewrite) can stand
    in the code of an ioctl handler of this file: in a function bound by a
    `binding` match (`.F = fn`, `x->F = fn`), or named (phase 1's rows), or
    in any function of the file that those functions name, at any depth.
    The rules change only such functions (handlers and the static helpers
    they hand the command to), so a file where this is False has no site.

    Where the text is not plain enough to be sure, True: a binding whose
    value is not a plain name, a bound name that looks defined here in a
    way functions() does not read, a followed name with more column-0
    definitions (every #if branch counted) than functions() read (an
    #else twin of a definition), a word on a line outside every function
    functions() found (a macro, a table, an unread definition).  Bodies
    are read line by line without their comments but with every #if
    branch, so an #else branch inside a body and its calls count."""
    lexed = blank_lexemes(decode(data), keep_quotes=True)    # comments are no code
    lines = lexed.encode("latin-1").split(b"\n")
    text = blank_directives(lexed, dead_branches=True)         # clean(), for functions()
    line_of = ctext.Lines(text)                                # 1-based; lines[] is 0-based
    by_name: dict[str, list[tuple[int, int]]] = {}
    for fn in functions(text):
        by_name.setdefault(fn.name, []).append((line_of(fn.body_start) - 1, line_of(fn.body_end) - 1))
    spans = sorted(s for found in by_name.values() for s in found)
    starts = [a for a, _ in spans]
    for n, line in enumerate(lines):
        if words.search(line):
            i = bisect.bisect_right(starts, n) - 1
            if i < 0 or n > spans[i][1]:
                return True                      # outside every function read
    todo = list(named)
    for m in binding.finditer(data):
        bound = _BOUND_NAME.match(data, m.end())
        if not bound:
            return True
        name = bound.group(1).decode()
        if name not in by_name and name not in ("NULL", "0"):
            if re.search(rb"\b" + bound.group(1) + rb"\s*\([^;{}]*\)[^;{}=]*\{", data):
                return True                      # defined here, but not read
        todo.append(name)
    heads = definition_heads(blank_directives(lexed))          # every #if branch; read once the cheap tests pass
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if heads.get(name, 0) > len(by_name.get(name, ())):
            return True                          # a definition functions() did not read
        if name not in by_name:
            continue
        for first, last in by_name[name]:
            body = b"\n".join(lines[first:last + 1])
            if words.search(body):
                return True
            todo.extend(w.decode() for w in set(_NAME_BYTES.findall(body)))
    return False
