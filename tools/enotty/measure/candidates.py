"""An independent measuring stick for the rules' recall.

Built from the source text alone, without the rules or their interface
table: every function bound to an ioctl-like field anywhere in the tree
(`.unlocked_ioctl = f`, `.compat_ioctl`, `.fb_ioctl`, `.vidioc_default`,
`.ioctl_fn`, `ops->ioctl = f`, ...), then the functions they hand the
command to, two levels deep: direct calls that pass the command, and
callbacks handed to a wrapper together with the command
(`dvb_usercopy(file, cmd, arg, fn)`).  Callees are looked up in the same
file first, then among the non-static definitions of the whole tree.

In each such function a candidate site is an -EINVAL or -ENOSYS that is
returned (or assigned to a variable the function returns):

    default       under `default:` of a switch on the command or on an
                  expression of it (`_IOC_NR(cmd)`, `nr = _IOC_NR(cmd)`)
    after-switch  the statement right after such a switch
    init          `ret = -EINVAL` before a default-less switch on the command
    guard         the whole body of `if (<test of the command>)`
    else          the whole body of the final `else` of an if-chain that
                  tests the command
    final         the function's last statement, after command tests

The list over-approximates on purpose (argument checks of a known command
in a guard, dead defaults, try-next values all appear); reading a sample
by hand tells the real answers from the rest.

    python3 -m enotty candidates [--kdir DIR] [--subdir S]

prints `file line function kind` (TSV, with a header) on stdout.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from ..find import csource
from ..kernel import tree
from ..find import ctext

DEPTH = 2                      # helper levels below a bound handler
IOCTL_TOKENS = (b"ioctl", b"vidioc_default")
ERRNO_TOKENS = (b"EINVAL", b"ENOSYS")

# Parameter names that say "the command", best first.
_CMD_NAMES = re.compile(r"^(cmd|command|ioctl_cmd|iocmd|ioc|ioctl_num|ioctl|request|req|code|num|nr)$|cmd", re.I)
_INT_TYPE = re.compile(r"^(const\s+)?(unsigned(\s+int)?|u_?int|uint|u32|int|unsigned\s+long|__u32)\s+\w+$")


@dataclass(frozen=True)
class Site:
    file: str
    line: int
    function: str
    kind: str


@dataclass(frozen=True)
class Target:
    """A function that receives the command in parameter cmd_arg."""
    file: str
    function: str
    cmd_arg: int
    depth: int


def command_param(fn: csource.Function) -> int:
    """The index of the parameter that holds the command, or -1: the
    first integer parameter named like a command, else the first plain
    `unsigned int` one that is not the first parameter."""
    names = fn.param_names()
    for i, (decl, name) in enumerate(zip(fn.params, names)):
        if name and "*" not in decl and _CMD_NAMES.search(name):
            return i
    for i, decl in enumerate(fn.params):
        if i and "*" not in decl and _INT_TYPE.match(" ".join(decl.split())):
            return i
    return -1


class Tree:
    """The parsed files of a tree, read on demand, and the tree-wide
    index of function definitions by name."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.ioctl_files: list[str] = []
        self.defined_in: dict[str, list[str]] = {}
        self._parsed: dict[str, tuple[str, list[csource.Function]]] = {}
        self._index()

    def _index(self) -> None:
        for rel in tree.c_files(self.root):
            try:
                data = (self.root / rel).read_bytes()
            except OSError:
                continue
            if any(t in data for t in IOCTL_TOKENS):
                self.ioctl_files.append(rel)
            if not any(t in data for t in ERRNO_TOKENS) and not any(t in data for t in IOCTL_TOKENS):
                continue   # holds no site and binds no handler
            for m in csource.DEF_HEAD.finditer(csource.decode(data)):
                self.defined_in.setdefault(m.group(2), []).append(rel)
        self.ioctl_files.sort()

    def parse(self, rel: str) -> tuple[str, list[csource.Function]]:
        if rel not in self._parsed:
            try:
                text = csource.clean(csource.decode((self.root / rel).read_bytes()))
            except OSError:
                text = ""
            self._parsed[rel] = (text, csource.functions(text))
        return self._parsed[rel]

    def body(self, target: Target) -> Body | None:
        """The body of a target's function with its command parameter, or
        None when that parameter has no name."""
        text, funcs = self.parse(target.file)
        fn = next(f for f in funcs if f.name == target.function)
        cmd = fn.param_names()[target.cmd_arg]
        return Body(text, fn, cmd) if cmd else None

    def definitions(self, name: str, near: str) -> list[tuple[str, csource.Function]]:
        """Where a called or bound name is defined: in `near` if there
        (static or not), else every non-static definition in the tree."""
        _, funcs = self.parse(near)
        local = [f for f in funcs if f.name == name]
        if local:
            return [(near, local[-1])]
        found = []
        for rel in dict.fromkeys(self.defined_in.get(name, ())):
            if rel == near:
                continue
            _, funcs = self.parse(rel)
            found += [(rel, f) for f in funcs if f.name == name and not f.static]
        return found


_RETURN_ERR = re.compile(r"\breturn\s*\(?\s*-\s*(EINVAL|ENOSYS)\b\s*\)?\s*;")
_ASSIGN_ERR = re.compile(r"(?<![\w>.])([A-Za-z_]\w*)\s*=\s*-\s*(EINVAL|ENOSYS)\b\s*;")
_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
_CAST = re.compile(r"^\(\s*(?:unsigned\s+)?\w+\s*\)\s*")
_NOT_CALLEES = csource.NOT_FUNCTIONS | {"_IOC_NR", "_IOC_TYPE", "_IOC_DIR", "_IOC_SIZE"}


def _word_re(words: Iterable[str]) -> re.Pattern:
    return re.compile(r"\b(?:" + "|".join(re.escape(w) for w in sorted(words)) + r")\b")


class Body:
    """One function body and its command variables."""

    def __init__(self, text: str, fn: csource.Function, cmd: str) -> None:
        self.text = text
        self.fn = fn
        self.start, self.end = fn.body_start, fn.body_end
        body = text[self.start:self.end]
        self.cmd = cmd
        self.words = _word_re(csource.command_words(body, cmd))
        self.returned = set(re.findall(r"\breturn\s*\(?\s*([A-Za-z_]\w*)\s*\)?\s*;", body))

    def mentions(self, a: int, b: int) -> bool:
        return self.words.search(self.text, a, b) is not None

    def errors(self, a: int, b: int) -> Iterator[int]:
        """Offsets of the E... of each -EINVAL/-ENOSYS in [a, b) that the
        function returns, directly or through a returned variable."""
        for m in _RETURN_ERR.finditer(self.text, a, b):
            yield m.start(1)
        for m in _ASSIGN_ERR.finditer(self.text, a, b):
            if m.group(1) in self.returned:
                yield m.start(2)

    def statement_end(self, i: int) -> int:
        """The end (exclusive) of the statement starting at i, an if with
        its else branch."""
        return ctext.statement_end(self.text, i, self.end, with_else=True)

    def only_fails(self, a: int, b: int) -> bool:
        """Whether the statement [a, b) does nothing but fail: a returned
        -EINVAL/-ENOSYS, or such an assignment then goto/break."""
        inner = self.text[a:b].strip()
        if inner.startswith("{"):
            inner = inner[1:-1]
        statements = [s.strip() for s in inner.split(";") if s.strip()]
        if not statements or not any(True for _ in self.errors(a, b)):
            return False
        return all(re.fullmatch(r"return\s*\(?\s*-\s*(EINVAL|ENOSYS)\s*\)?|[A-Za-z_]\w*\s*=\s*-\s*(EINVAL|ENOSYS)"
                                r"|goto\s+\w+|break", s) for s in statements)


def sites_in(body: Body) -> tuple[list[tuple[int, str]], bool]:
    """(offset, kind) of the candidate sites of one function body, and
    whether the body tests the command at all."""
    text = body.text
    found: dict[int, str] = {}
    tests_command = False

    def add(offsets: Iterable[int], kind: str) -> None:
        for o in offsets:
            found.setdefault(o, kind)

    for sw in ctext.switches(text, body.start, body.end):
        open_paren = sw.open_paren
        if sw.close_paren < 0 or not body.mentions(open_paren, sw.close_paren):
            continue
        tests_command = True
        if sw.brace < 0:
            continue
        default_text = None
        for _start, end, is_default, section_end in ctext.sections(text, sw):
            if is_default:
                default_text = text[end:section_end]
                add(body.errors(end, section_end), "default")
        after = sw.end + 1
        after_end = body.statement_end(after)
        if body.only_fails(after, after_end):
            add(body.errors(after, after_end), "after-switch")
        # `ret = -EINVAL` before the switch reaches `return ret` for an
        # unknown command when there is no default or it leaves ret alone.
        head = text[body.start:open_paren]
        for a in _ASSIGN_ERR.finditer(head):
            var = a.group(1)
            if var not in body.returned or _depth(text, body.start, body.start + a.start()) != 1:
                continue
            if default_text is None or not re.search(
                    rf"\b{re.escape(var)}\s*=(?!=)|\breturn\b|\bgoto\b", default_text):
                found.setdefault(body.start + a.start(2), "init")

    chained: set[int] = set()
    for m in re.finditer(r"\bif\s*\(", text[body.start:body.end]):
        at = body.start + m.start()
        open_paren = body.start + m.end() - 1
        close_paren = ctext.match_close(text, open_paren)
        if close_paren < 0:
            continue
        command_test = body.mentions(open_paren, close_paren) or at in chained
        then_end = body.statement_end(close_paren + 1)
        if body.mentions(open_paren, close_paren):
            tests_command = True
            if body.only_fails(close_paren + 1, then_end):
                add(body.errors(close_paren + 1, then_end), "guard")
        e = re.compile(r"\s*else\b\s*").match(text, then_end)
        if not e or not command_test:
            continue
        if re.match(r"if\s*\(", text[e.end():e.end() + 10]):
            chained.add(e.end())
            continue
        else_end = body.statement_end(e.end())
        if body.only_fails(e.end(), else_end):
            add(body.errors(e.end(), else_end), "else")

    if tests_command:
        last = list(_RETURN_ERR.finditer(text, body.start, body.end))
        if last and not text[last[-1].end():body.end].strip():
            found.setdefault(last[-1].start(1), "final")
    return sorted(found.items()), tests_command


def _depth(text: str, a: int, b: int) -> int:
    return text.count("{", a, b) - text.count("}", a, b)


def calls_with_command(body: Body) -> Iterator[tuple[str, int, list[str]]]:
    """(callee, argument index of the command, all arguments) for each call
    in the body that passes the command (or a variable computed from it)."""
    text = body.text
    for m in _CALL.finditer(text, body.start, body.end):
        name = m.group(1)
        if name in _NOT_CALLEES:
            continue
        open_paren = m.end() - 1
        close_paren = ctext.match_close(text, open_paren)
        if close_paren < 0 or not body.mentions(open_paren, close_paren):
            continue
        args = [a.strip() for a in ctext.split_top(text[open_paren + 1:close_paren])]
        for i, arg in enumerate(args):
            if _CAST.sub("", arg) == body.cmd:
                yield name, i, args
                break


def targets(t: Tree) -> list[Target]:
    """The bound handlers and their helpers down to DEPTH, each once."""
    seen: dict[tuple[str, str], Target] = {}
    work: list[Target] = []

    def visit(rel: str, fn: csource.Function, cmd_arg: int, depth: int) -> None:
        key = (rel, fn.name)
        if key in seen or cmd_arg < 0 or cmd_arg >= len(fn.params):
            return
        target = Target(rel, fn.name, cmd_arg, depth)
        seen[key] = target
        work.append(target)

    for rel in t.ioctl_files:
        text, _ = t.parse(rel)
        for b in csource.bindings(text):
            for where, fn in t.definitions(b.function, rel):
                visit(where, fn, command_param(fn), 0)
    while work:
        target = work.pop()
        if target.depth >= DEPTH:
            continue
        body = t.body(target)
        if body is None:
            continue
        for callee, index, args in calls_with_command(body):
            for where, callee_fn in t.definitions(callee, target.file):
                visit(where, callee_fn, index, target.depth + 1)
            for arg in args:                   # callbacks handed to a wrapper
                if re.fullmatch(r"&?\s*[A-Za-z_]\w*", arg) and arg != body.cmd:
                    for where, cb in t.definitions(arg.lstrip("& "), target.file):
                        named = command_param(cb)
                        visit(where, cb, named if named >= 0 else index, target.depth + 1)
    return sorted(seen.values(), key=lambda x: (x.file, x.function))


def find(root: Path, subdir: str | None = None) -> list[Site]:
    """The candidate sites of the tree (those under subdir, if given)."""
    t = Tree(root)
    prefix = subdir.rstrip("/") + "/" if subdir else ""
    sites: dict[tuple[str, int], Site] = {}
    for target in targets(t):
        if not target.file.startswith(prefix):
            continue
        body = t.body(target)
        if body is None:
            continue
        lines = ctext.Lines(body.text)
        fn = body.fn
        found, _ = sites_in(body)
        for offset, kind in found:
            line = lines(offset)
            sites.setdefault((target.file, line), Site(target.file, line, fn.name, kind))
    return [sites[k] for k in sorted(sites)]


def write_tsv(sites: Iterable[Site], out) -> None:
    out.write("file\tline\tfunction\tkind\n")
    for s in sites:
        out.write(f"{s.file}\t{s.line}\t{s.function}\t{s.kind}\n")
