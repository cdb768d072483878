"""C text, read without a C parser: the one place that reads C with regular
expressions for its structure.

Everything that looks at C source as text starts here: the phase-1 index
(csource.py, facts.py, candidates.py), the analysis of a site (effects.py,
handlers.py, selftest_search.py), the scan (scan.py), the census and the
Python that the rule file embeds (rule_python.py).  The pieces:

  blanking    comments, strings and character literals (blank_lexemes),
              preprocessor lines and dead #if branches (blank_directives),
              offsets and line numbers kept; the same for one line of an
              error message (code_only), the comment text of a line
              (comment_text);
  tokens      C tokens with their lines (tokenize, for census.py);
  brackets    the bracket closing or opening another (match_close,
              match_open), the brace around an offset (enclosing_brace),
              where a statement starts and ends (statement_start,
              statement_end);
  switches    the head of a switch on the command (switch_head), the
              switches of a body (switches), their labels (top_labels),
              the statements under each (sections) and cases (cases);
  leaving     whether a case or an if branch leaves by a jump (case_leaves,
              branch_leaves).

rules.py copies this module into cocci/ioctl_enotty.cocci (the rule must
stay one self-contained file for `make coccicheck`), so it imports only
the standard library, and its comments hold no single quote: spatch lexes
the embedded Python for quotes.
"""
import bisect
import re
from dataclasses import dataclass
from typing import NamedTuple

# --------------------------------------------------------------- blanking

# The lexemes whose content is no code: comments, strings, character literals.
LEXEMES = re.compile(r"//[^\n]*|/\*.*?\*/|\x22(?:\\.|[^\x22\\\n])*\x22|\x27(?:\\.|[^\x27\\\n])*\x27", re.S)
_NON_NEWLINE = re.compile(r"[^\n]")


def _spaces(m: "re.Match[str]") -> str:
    return _NON_NEWLINE.sub(" ", m.group(0))


def _blank_keeping_quotes(m: "re.Match[str]") -> str:
    text = m.group(0)
    if text[0] == "/":
        return _NON_NEWLINE.sub(" ", text)
    if text[0] == "\x22":
        return "\x22" + " " * (len(text) - 2) + "\x22"
    # A character literal becomes a number of the same length: H in quotes -> 0.
    return "0" + " " * (len(text) - 1)


def blank_lexemes(text: str, keep_quotes: bool = False) -> str:
    """Comments, strings and character literals as spaces; offsets and lines
    kept.  keep_quotes: a string keeps its two quotes and a character
    literal becomes 0, so that an index still sees an expression there."""
    return LEXEMES.sub(_blank_keeping_quotes if keep_quotes else _spaces, text)


# A preprocessor line with its continuation lines.
DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)
CONDITIONAL = re.compile(r"[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(.*)")


def blank_directives(text: str, dead_branches: bool = False) -> str:
    """Preprocessor lines (with their continuations) blanked, lines kept.
    dead_branches: of each #if/#elif/#else group only the first live branch
    is kept (the second of an #if 0), the others are blanked too, so that
    the braces of a function whose head is duplicated under #ifdef still
    balance."""
    if not dead_branches:
        return DIRECTIVE.sub(_spaces, text)
    out = []
    # Stack of (this branch is kept, some branch of the group was taken).
    stack: list[tuple[bool, bool]] = []
    dead = 0                    # branches on the stack that are not kept
    pos = 0
    for m in DIRECTIVE.finditer(text):
        chunk = text[pos:m.start()]
        out.append(chunk if not dead else "\n" * chunk.count("\n"))
        out.append("\n" * m.group(0).count("\n"))
        pos = m.end()
        c = CONDITIONAL.match(m.group(0))
        if not c:
            continue
        word, rest = c.group(1), c.group(2).strip()
        if word in ("if", "ifdef", "ifndef"):
            take = not (word == "if" and rest in ("0", "(0)"))
            stack.append((take, take))
            dead += not take
        elif word in ("elif", "else") and stack:
            kept, taken = stack.pop()
            dead -= not kept
            stack.append((not taken, True))
            dead += taken
        elif word == "endif" and stack:
            kept, _ = stack.pop()
            dead -= not kept
    chunk = text[pos:]
    out.append(chunk if not dead else "\n" * chunk.count("\n"))
    return "".join(out)


def code_only(line: str, in_comment: bool) -> tuple[str, bool]:
    """One line without its comments and string and character literals,
    and whether a comment is still open at its end (in_comment: one was
    open at its start).  For lines read one by one (an error message
    quoting the code), where a comment may span lines and a quote may not
    close."""
    out: list[str] = []
    i = 0
    while i < len(line):
        if in_comment:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out), True
            i, in_comment = end + 2, False
            out.append(" ")
            continue
        m = _LINE_LEXEME.search(line, i)
        if not m:
            out.append(line[i:])
            break
        out.append(line[i:m.start()] + " ")
        if m.group() == "//":
            break
        if m.group() == "/*":
            in_comment = True
        i = m.end()
    return "".join(out), in_comment


_LINE_LEXEME = re.compile(r"/\*|//|\x22(?:\\.|[^\x22\\])*\x22?|\x27(?:\\.|[^\x27\\])*\x27?")


def comment_text(lines: list[str], index: int) -> str:
    """The comment text of line `index` (0-based) of a file, with the whole
    block comment that the line is in or ends."""
    line = lines[index]
    text = ""
    m = re.search(r"//(.*)$", line)
    if m:
        text += m.group(1)
    text += " ".join(re.findall(r"/\*(.*?)(?:\*/|$)", line))
    stripped = line.strip()
    if stripped.startswith("*") or stripped.endswith("*/"):
        # Inside or at the end of a block comment: collect it upwards.
        j = index
        while j >= 0:
            text += " " + lines[j]
            if "/*" in lines[j]:
                break
            j -= 1
    return text


class Lines:
    """Offset to 1-based line number, and back."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def __call__(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)

    def offset(self, line: int) -> int:
        """Offset where a 1-based line starts (the last line past the end)."""
        return self.starts[min(line, len(self.starts)) - 1]


# --------------------------------------------------------------- tokens

@dataclass(frozen=True)
class Token:
    text: str
    line: int


_LEXER = re.compile(
    r"""
    (?P<nl>\n)
  | (?P<ws>[ \t\r\f\v]+|\\\n)
  | (?P<comment>/\*.*?\*/|//[^\n]*)
  | (?P<string>\x22(?:\\.|[^\x22\\\n])*\x22|\x27(?:\\.|[^\x27\\\n])*\x27)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<number>\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.])*)
  | (?P<punct>->|\+\+|--|<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!~<>=]=?|\.\.\.|[.,;:?(){}\[\]#])
  | (?P<other>.)
    """,
    re.S | re.X,
)


def tokenize(text: str) -> list[Token]:
    """C tokens with their 1-based line; comments, strings and whitespace
    dropped (a string keeps its place as one token, two double quotes, so
    that calls keep their argument count).  For the census, which reads
    the tokens of whole files."""
    tokens: list[Token] = []
    line = 1
    for m in _LEXER.finditer(text):
        kind = m.lastgroup
        value = m.group()
        if kind == "nl":
            line += 1
            continue
        if kind in ("ws", "comment"):
            line += value.count("\n")
            continue
        if kind == "string":
            tokens.append(Token("\x22\x22", line))
            line += value.count("\n")  # a string continued with backslash-newline
            continue
        tokens.append(Token(value, line))
    return tokens


# --------------------------------------------------------------- brackets

_BRACKETS = {"(": re.compile(r"[()]"), "[": re.compile(r"[\[\]]"), "{": re.compile(r"[{}]")}
_OPENING = {")": "(", "]": "[", "}": "{"}


def match_close(text: str, i: int) -> int:
    """Index of the bracket closing text[i], or -1 when the text ends first."""
    open_ch = text[i]
    depth = 0
    for m in _BRACKETS[open_ch].finditer(text, i):
        if m.group(0) == open_ch:
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return m.start()
    return -1


def match_open(text: str, close: int) -> int:
    """Index of the bracket opening the one at text[close], or -1."""
    close_ch = text[close]
    open_ch = _OPENING[close_ch]
    depth = 0
    for i in range(close, -1, -1):
        ch = text[i]
        if ch == close_ch:
            depth += 1
        elif ch == open_ch:
            depth -= 1
            if depth == 0:
                return i
    return -1


def enclosing_brace(text: str, offset: int, pair: str = "{}") -> int:
    """Offset of the brace that opens the block holding offset (of the
    parenthesis around it with pair "()"), or -1."""
    open_ch, close_ch = pair[0], pair[1]
    depth = 0
    for i in range(offset - 1, -1, -1):
        if text[i] == close_ch:
            depth += 1
        elif text[i] == open_ch:
            if depth == 0:
                return i
            depth -= 1
    return -1


def statement_start(text: str, end: int) -> int:
    """Offset where the statement holding offset end starts: just after the
    last semicolon or brace before it outside parentheses."""
    depth = 0
    for i in range(end - 1, -1, -1):
        ch = text[i]
        if ch == ")":
            depth += 1
        elif ch == "(":
            if depth == 0:
                return i + 1
            depth -= 1
        elif depth == 0 and ch in ";{}":
            return i + 1
    return 0


_COMPOUND = re.compile(r"(if|while|for|switch)\s*\(")
_ELSE = re.compile(r"\s*else\b")


def statement_end(text: str, i: int, limit: int, with_else: bool = False) -> int:
    """End (exclusive, at most limit) of the statement starting at i: a
    block, if/while/for/switch with its body (with_else: an if with its
    else branch), or what runs to the next semicolon outside brackets."""
    while i < limit and text[i] in " \t\n":
        i += 1
    if i >= limit:
        return limit
    if text[i] == "{":
        close = match_close(text, i)
        return close + 1 if close >= 0 else limit
    m = _COMPOUND.match(text[i:i + 10])
    if m:
        close = match_close(text, i + m.end() - 1)
        if close < 0:
            return limit
        end = statement_end(text, close + 1, limit, with_else)
        e = _ELSE.match(text[end:end + 20]) if with_else and m.group(1) == "if" else None
        return statement_end(text, end + e.end(), limit, with_else) if e else end
    depth = 0
    for j in range(i, limit):
        ch = text[j]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == ";" and depth <= 0:
            return j + 1
    return limit


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


def unparen(text: str) -> str:
    """text without the parentheses that enclose all of it."""
    text = text.strip()
    while text.startswith("(") and match_close(text, 0) == len(text) - 1:
        text = text[1:-1].strip()
    return text


def operands(cond: str, op: str) -> list[str]:
    """The operands of a top-level op (&& or ||) chain, outer parentheses
    removed."""
    text = unparen(str(cond))
    parts, depth, cur, i = [], 0, "", 0
    while i < len(text):
        ch = text[i]
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and text.startswith(op, i):
            parts.append(cur)
            cur, i = "", i + len(op)
            continue
        cur += ch
        i += 1
    parts.append(cur)
    return [unparen(part) for part in parts]


# --------------------------------------------------------------- switches

_SWITCH = re.compile(r"\bswitch\s*\(")
_BRACE_AHEAD = re.compile(r"\s*\{")


class Switch(NamedTuple):
    """A switch statement by its offsets; -1 where a part is missing."""
    keyword: int        # the word switch
    open_paren: int
    close_paren: int    # -1: the parenthesis does not close
    brace: int          # the body `{`; -1: no brace follows the parenthesis
    end: int            # the body `}`; -1: no brace, or it does not close


def switches(text: str, start: int, end: int) -> list[Switch]:
    """Every switch that starts in text[start:end], in order, nested ones
    too, whole or not (each caller decides what a broken one means)."""
    out = []
    for m in _SWITCH.finditer(text[start:end]):
        open_paren = start + m.end() - 1
        close_paren = match_close(text, open_paren)
        brace = _BRACE_AHEAD.match(text, close_paren + 1) if close_paren >= 0 else None
        open_brace = brace.end() - 1 if brace else -1
        close_brace = match_close(text, open_brace) if open_brace >= 0 else -1
        out.append(Switch(start + m.start(), open_paren, close_paren, open_brace, close_brace))
    return out


def switch_head(cmd: str | None, only_nr: bool = False) -> str:
    """Regex for the head of a switch on the command, up to its brace: on
    cmd itself, on F(cmd) (_IOC_NR, _IOC_DIR, a driver macro such as
    EA_IOCTL) or on cmd & ~MASK (the number without its size bits).  Any
    name when cmd is None.  only_nr: on cmd itself or on _IOC_NR(cmd)."""
    if only_nr:
        name = re.escape(str(cmd))
        return r"\bswitch\s*\(\s*(?:" + name + r"|_IOC_NR\s*\(\s*" + name + r"\s*\))\s*\)\s*"
    c = re.escape(str(cmd)) if cmd else r"[A-Za-z_]\w*"
    mask = r"&\s*~\s*(?:\w+|\([^(){};]*\))"
    return (r"\bswitch\s*\(\s*(?:" + c + r"|\w+\s*\(\s*" + c + r"\s*\)|" + c + r"\s*" + mask
            + r"|\(\s*" + c + r"\s*" + mask + r"\s*\))\s*\)\s*")


# A case or default label; a case value may hold a conditional (a ? b : c).
LABEL = re.compile(r"\b(?:case\b(?:[^:?]|\?[^:]*:)*:(?!:)|default\s*:)")
_LABEL_OR_BRACE = re.compile(r"[{}]|" + LABEL.pattern)


def top_labels(body: str, start: int = 0, end: int | None = None) -> list[tuple[int, int, bool]]:
    """(start, end, is default) of each label at the top level of a switch
    body (not those of a nested block or switch): all of body, or
    body[start:end] (offsets stay those of body)."""
    labels, depth = [], 0
    for m in _LABEL_OR_BRACE.finditer(body, start, len(body) if end is None else end):
        tok = m.group(0)
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth -= 1
        elif depth == 0:
            labels.append((m.start(), m.end(), tok.startswith("default")))
    return labels


def sections(text: str, sw: Switch) -> list[tuple[int, int, bool, int]]:
    """(start, end, is default, section end) of each top label of a whole
    switch as top_labels gives them, with where its statements end: at the
    next label or at the closing brace."""
    labels = top_labels(text, sw.brace + 1, sw.end)
    return [(start, end, is_default, labels[k + 1][0] if k + 1 < len(labels) else sw.end)
            for k, (start, end, is_default) in enumerate(labels)]


def cases(body: str) -> list[tuple[str, str]] | None:
    """(label, statements) of each case of a switch body; labels falling
    into the next label are merged into it.  None when it cannot split."""
    cuts = [(s, e) for s, e, _default in top_labels(body)]
    # What precedes the first label never runs: declarations there
    # (switch (cmd) { int n; case A: ...) are harmless, a block could hide
    # labels.
    if not cuts or re.search(r"[{}]", body[:cuts[0][0]]):
        return None
    out = []
    for k, (s, e) in enumerate(cuts):
        seg = body[e:cuts[k + 1][0] if k + 1 < len(cuts) else len(body)]
        if seg.strip():
            out.append((body[s:e], seg))
        elif body[s:e].startswith("default"):
            out.append((body[s:e], seg))
    return out


# --------------------------------------------------------------- leaving

# A case counts as leaving only when its last statement is a jump, a bare
# block ending in one, an if/else whose branches all end in one, or a
# switch with a default label, no break and a last case ending in one.
JUMP = r"(?:break|continue|goto\s+[A-Za-z_]\w*|return\b[^;]*)\s*;"
_ENDS_IN_JUMP = re.compile(r"(?:^|[;{}:])\s*" + JUMP + r"$")
_ELSE_JUMP = re.compile(r"\belse\s*" + JUMP + r"$")
_THEN_JUMP = re.compile(r"\)\s*" + JUMP + r"$")


def branch_leaves(text: str) -> bool:
    """text ends with the then branch of "if (c) S": whether S ends in a jump
    and, when this if is itself the else branch of an earlier if, so does
    every earlier branch."""
    text = text.rstrip()
    if text.endswith("}"):
        o = match_open(text, len(text) - 1)
        if o < 0 or not case_leaves(text[o + 1:-1]):
            return False
        head = text[:o].rstrip()
    else:
        m = _THEN_JUMP.search(text)
        if m is None:
            return False
        head = text[:m.start() + 1]
    # head ends with "if (cond)": drop it and look for an "else" before.
    if not head.endswith(")"):
        return False
    o = match_open(head, len(head) - 1)
    if o < 0:
        o = head.rfind("(")
    before = head[:o].rstrip()
    if not re.search(r"\bif$", before):
        return False
    before = before[:-2].rstrip()
    if re.search(r"\belse$", before):
        return branch_leaves(before[:-4])
    return True


def case_leaves(seg: str) -> bool:
    """Whether the statement list of a case ends in break, continue, goto or
    return, so that it cannot fall into the next label."""
    s = seg.strip()
    if not s:
        return False
    if s.endswith("}"):
        o = match_open(s, len(s) - 1)
        if o < 0:
            return False
        head = s[:o].rstrip()
        if not head or head[-1] in ";{}:":
            return case_leaves(s[o + 1:-1])
        if re.search(r"\belse$", head):
            return case_leaves(s[o + 1:-1]) and branch_leaves(head[:-4])
        if re.search(r"\bswitch\s*\(.*\)$", head, re.S):
            # A nested switch leaves when it has a default label, no break
            # anywhere in it, and its last case ends in a jump.
            inner = s[o + 1:-1]
            found = cases(inner)
            if not found:
                return False
            return not re.search(r"\bbreak\b", inner) and any(
                label.startswith("default") for label, _seg in found) and case_leaves(found[-1][1])
        return False
    m = _ENDS_IN_JUMP.search(s)
    if m is not None:
        pre = s[:m.start() + 1]
        return pre.count("{") == pre.count("}")
    m = _ELSE_JUMP.search(s)
    if m is not None:
        return branch_leaves(s[:m.start()])
    return False
