"""Light reading of C source for tree-wide indexes, without a C parser.

The candidate list (candidates.py) and the phase-1 facts (facts.py) need
the same few things from 30,000 files in seconds: function definitions
with their parameters and bodies, struct-field bindings of functions, and
the calls inside a body.  spatch takes minutes for that, so this module
reads the text instead: comments, string contents, character literals and
preprocessor lines are blanked first (line numbers stay), so that braces,
parentheses and words in them no longer count.  Of an #if/#else the first
branch is kept (the second of an `#if 0`), so that the braces of a
function whose header is duplicated under #ifdef still balance.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

_LEXEMES = re.compile(r"""//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'""", re.S)
_NON_NEWLINE = re.compile(r"[^\n]")
_CONDITIONAL = re.compile(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(.*)$")


def _blank_lexeme(m: re.Match) -> str:
    text = m.group(0)
    if text[0] == "/":
        return _NON_NEWLINE.sub(" ", text)
    if text[0] == '"':
        return '"' + " " * (len(text) - 2) + '"'
    # A character literal becomes a number of the same length: 'H' -> 0.
    return "0" + " " * (len(text) - 1)


def _blank_preprocessor(text: str) -> str:
    """Directives and #define bodies blanked; of each #if/#elif/#else
    group only the first live branch kept, the others blanked."""
    lines = text.split("\n")
    out = []
    # Stack of (this branch is kept, some branch of the group was taken).
    stack: list[tuple[bool, bool]] = []
    continued = False
    for line in lines:
        live = all(kept for kept, _ in stack)
        if continued:
            continued = line.endswith("\\")
            out.append("")
            continue
        stripped = line.lstrip()
        if stripped.startswith("#"):
            continued = line.endswith("\\")
            m = _CONDITIONAL.match(line)
            if m:
                word, rest = m.group(1), m.group(2).strip()
                if word in ("if", "ifdef", "ifndef"):
                    take = not (word == "if" and rest in ("0", "(0)"))
                    stack.append((take, take))
                elif word in ("elif", "else") and stack:
                    _, taken = stack[-1]
                    stack[-1] = (not taken, True)
                elif word == "endif" and stack:
                    stack.pop()
            out.append("")
            continue
        out.append(line if live else "")
    return "\n".join(out)


def clean(text: str) -> str:
    """The text with comments, strings, character literals and
    preprocessor lines blanked and dead #if branches dropped; every line
    keeps its number."""
    return _blank_preprocessor(_LEXEMES.sub(_blank_lexeme, text))


def decode(data: bytes) -> str:
    # latin-1 maps every byte to one character: offsets stay byte offsets.
    return data.decode("latin-1")


_CLOSE = {"(": ")", "[": "]", "{": "}"}


def match_close(text: str, i: int) -> int:
    """Index of the bracket closing text[i], or -1 when the text ends first."""
    open_ch = text[i]
    close_ch = _CLOSE[open_ch]
    depth = 0
    pattern = re.compile("[" + re.escape(open_ch + close_ch) + "]")
    for m in pattern.finditer(text, i):
        if m.group(0) == open_ch:
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return m.start()
    return -1


def split_top(text: str, sep: str = ",") -> list[str]:
    """text split at the separators outside any brackets."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


_IDENT = re.compile(r"[A-Za-z_]\w*")
_POINTER_NAME = re.compile(r"\(\s*\*\s*([A-Za-z_]\w*)\s*\)")


def param_name(decl: str) -> str:
    """The name a parameter declaration declares ('' for `void`, `...`
    or an unnamed parameter)."""
    decl = decl.strip()
    m = _POINTER_NAME.search(decl)
    if m:                                   # int (*fn)(struct file *, ...)
        return m.group(1)
    decl = re.sub(r"\[[^\]]*\]\s*$", "", decl).strip()
    words = _IDENT.findall(decl)
    if len(words) < 2 or decl.endswith("*") and len(words) < 2:
        return ""
    last = words[-1]
    if last in _TYPE_WORDS:
        return ""
    return last


_TYPE_WORDS = frozenset({
    "void", "int", "long", "short", "char", "unsigned", "signed", "float",
    "double", "const", "volatile", "struct", "union", "enum", "__user",
})

_NOT_FUNCTIONS = frozenset({
    "if", "while", "for", "switch", "return", "sizeof", "defined", "do", "else",
    "typeof", "__typeof__", "__attribute__", "asm", "__asm__",
})

# Column-0 definition heads: optional return type words, the name, `(`.
_DEF_HEAD = re.compile(r"^([A-Za-z_][\w \t\*]*?[\s\*])?([A-Za-z_]\w*)[ \t]*\(", re.M)
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
    attribute macros (`__acquires(x)`), by `{` is a definition.
    """
    found = []
    pos = 0
    for m in _DEF_HEAD.finditer(text):
        if m.start() < pos:                  # inside the previous body
            continue
        name = m.group(2)
        if name in _NOT_FUNCTIONS:
            continue
        prefix = m.group(1) or ""
        if re.search(r"[=;]|\btypedef\b|\breturn\b", prefix):
            continue
        open_paren = m.end() - 1
        close_paren = match_close(text, open_paren)
        if close_paren < 0:
            continue
        i = close_paren + 1
        while True:                          # attribute macros before the body
            a = _ATTRIBUTE.match(text, i)
            if not a:
                break
            j = a.end()
            if j < len(text) and text[j] == "(":
                k = match_close(text, j)
                if k < 0:
                    break
                i = k + 1
            else:
                i = j
        while i < len(text) and text[i] in " \t\n":
            i += 1
        if i >= len(text) or text[i] != "{":
            continue
        body_end = match_close(text, i)
        if body_end < 0:
            continue
        # The return type may sit on the line above: look back to the
        # end of the previous declaration for `static`.
        back = max(text.rfind(";", 0, m.start()), text.rfind("}", 0, m.start()), 0)
        static = re.search(r"\bstatic\b", text[back:m.start()] + prefix) is not None
        params_text = text[open_paren + 1:close_paren]
        params = tuple(p.strip() for p in split_top(params_text)) if params_text.strip() else ()
        found.append(Function(name, static, params, m.start(2), i, body_end))
        pos = body_end
    return found


class Lines:
    """Offset to 1-based line number."""

    def __init__(self, text: str) -> None:
        self._starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def __call__(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset)


# A function bound to an ioctl-like field: `.unlocked_ioctl = fn`,
# `ops->ioctl = fn`, `.vidioc_default = fn`, `.ioctl_fn = &fn`.
BINDING = re.compile(
    r"(\.|->)\s*(\w*ioctl\w*|vidioc_default)\s*=\s*(?:\(\s*\w+\s*\)\s*)?&?\s*([A-Za-z_]\w*)\s*([,;}])")


@dataclass(frozen=True)
class Binding:
    struct: str          # '' when not derivable from the text
    field: str
    function: str
    offset: int


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
        struct = ""
        if m.group(1) == ".":
            struct = _initialiser_struct(text, m.start())
        if not struct:
            var = re.search(r"([A-Za-z_]\w*)\s*(?:\.|->)\s*$", text[max(0, m.start() - 80):m.start() + len(m.group(1))])
            if var:
                t = re.findall(_TYPED_VAR.format(var=re.escape(var.group(1))), text[:m.start()])
                if t:
                    struct = t[-1]
        found.append(Binding(struct, m.group(2), function, m.start(3)))
    return found


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
