"""Phase 1 of the scan: which functions of each file the rules must treat
as ioctl targets although nothing in that file says so.

The rules run per file (spatch --no-includes, a per-file cache), so they
see a handler only when its ops table is in the same file, and follow only
the static helpers of the same file.  This module reads the whole tree
once, per file and cached by content, and joins the facts of all files:

  * ops bindings: `.F = fn` in an initialiser of `struct S`, run-time
    `x.F = fn` / `x->F = fn` with x declared `struct S`, `hw->ops.F = fn`
    for the ops structures of the table's embedded_in column (S.F a row
    of cocci/interfaces.tsv, or F the field of exactly one row when S is
    not in the text);
  * per function, the calls that hand a parameter on and return the
    callee's value (`return helper(.., p, ..)`, `ret = helper(.., p, ..)`
    with `return ret` in the function), the callbacks handed to such a call
    (`return dvb_usercopy(file, cmd, arg, fn)`), and whether the call can
    be reached with an unknown command: not when it sits under explicit
    `case` labels of a switch on p, or in the then-branch of `if (p == A)`
    (`||` chains of such tests, or `&&` with one, count too);
  * the functions whose value a caller compares with -EINVAL,
    -ENOIOCTLCMD, -ENOTTY or -ENOSYS (a try-next protocol): never targets;
  * per function, the ops members it hands the command to
    (`disk->fops->ioctl(.., cmd, ..)`, `wrapper(.., cmd, .., dev->kernel_ioctl)`).

From the bound handlers it follows, two levels deep like the rules, the
calls that can be reached with an unknown command, and reports for each
file the targets defined there that the rules cannot find on their own: a
handler whose ops table is in another file, a non-static helper, a helper
whose caller is in another file or is itself such a target, a callback, a
helper whose returned value its caller adjusts first.  A wrapper that is
handed a callback with the command is never a target, and neither is a
core (core_functions(): the table's dispatch and kept_hooks columns,
a function that hands the command to an ops member of a table field, a
function that files of several other folders bind or call): its own
answers are its core's, and its helpers are not followed.

Files without `ioctl` or another member of the table only contribute their non-static
function definitions (read without cleaning the text, which is the slow
part), unless one of those takes an integer parameter named like a
command (cmd, command, req, ...): such a file is read whole, so that a
helper's own helpers in other files are followed too.

Interface (the scan's phase 1):

    extra_targets(root, files, jobs=1, cache=None) -> {rel: [Target, ...]}
        files: the .c files to read, relative to root (the whole tree, for
        tree-wide discovery); cache: default tree.cache_dir()/facts.  Each
        file's facts are cached by its content, the targets by every
        file's content key: a rerun, or another subdirectory, reads no file
        whose stat is unchanged and joins nothing; a changed file is read
        again and the join redone.
    tsv_text(targets) / write_tsv(targets, out)
        `file<TAB>function<TAB>interface<TAB>cmd_arg` rows, no header, for
        -D enotty_facts=FILE and the scan's per-file cache key; of one
        function's rows the most cautious interface comes first.
    python3 -m enotty facts [--kdir DIR] [--jobs N] [--time]
"""
from __future__ import annotations

import concurrent.futures
import functools
import hashlib
import json
import os
import re
import sqlite3
import time
from dataclasses import astuple, dataclass
from pathlib import Path
from typing import Iterable, Sequence, TextIO

from . import csource, ctext, interfaces
from ..kernel import tree

# Bump when the per-file record changes meaning: it is part of the cache key.
VERSION = "enotty-facts-11"
DEPTH = 2                     # helper levels below a bound handler, as the rules
# A file that names none of these binds no handler (ipip.c binds its
# ndo_tunnel_ctl without the word ioctl): the table's members, as the scan's
IOCTL_TOKENS = interfaces.member_tokens()
ERRNO_TOKENS = (b"EINVAL", b"ENOSYS", b"ENOIOCTLCMD")

TRYNEXT_ERRNOS = r"-\s*E(?:INVAL|NOIOCTLCMD|NOTTY|NOSYS)\b"


@dataclass(frozen=True, order=True)
class Target:
    file: str          # relative to the tree root, as the scan gives it to spatch
    function: str
    interface: str     # struct.field, a row of cocci/interfaces.tsv
    cmd_arg: int       # 0-based index of the command parameter


# ------------------------------------------------------------ per file

_RAW_DEF = re.compile(
    r"^([A-Za-z_][\w \t\*]*?[\s\*])?([A-Za-z_]\w*)[ \t]*\(([^;{}()]*(?:\([^;{}()]*\)[^;{}()]*)*)\)[^;{}()=]*\{",
    re.M)
_CAST = re.compile(r"^\(\s*(?:unsigned\s+)?\w+\s*\)\s*")
_RETURN_PREFIX = re.compile(r"\breturn\s*(?:\(\s*[\w\s\*]+\)\s*)?$")
_ASSIGN_PREFIX = re.compile(r"(?<![=!<>])\b([A-Za-z_]\w*)\s*=\s*(?:\(\s*[\w\s\*]+\)\s*)?$")
_NOT_A_TYPE = re.compile(r"[=;]|\btypedef\b")
_COMMAND_PARAM = re.compile(r"\b(?:unsigned(?:\s+int)?|u_?int|int|u32|__u32)\s+"
                            r"(?:cmd|command|ioctl_cmd|ioc|iocmd|req|request|ioctl)\s*(?:,|$)")
_RETURNED_NAME = re.compile(r"\breturn\s*\(?\s*([A-Za-z_]\w*)\s*\)?\s*;")
_NAME = re.compile(r"[A-Za-z_]\w*")
_NOT_CALLEES = csource.NOT_FUNCTIONS | {"_IOC_NR", "_IOC_TYPE", "_IOC_DIR", "_IOC_SIZE"}


def _definitions_uncleaned(text: str) -> dict[str, list]:
    """name -> [False, parameter names] of the non-static definitions of
    the raw text: all that matters of a file that binds no handler and
    calls nothing with a command (its static functions cannot be reached
    from another file), at a fraction of the cost of cleaning it."""
    defs = {}
    for m in _RAW_DEF.finditer(text):
        name = m.group(2)
        head = m.group(1) or ""
        if name in csource.NOT_FUNCTIONS or "static" in head or _NOT_A_TYPE.search(head):
            continue
        line_before = text[text.rfind("\n", 0, max(0, m.start() - 1)) + 1:m.start()]
        if "static" in line_before:
            continue
        defs[name] = [False, " ".join(m.group(3).split())]
    return defs


def _restricted_spans(text: str, fn: csource.Function, names: set[str]) -> list[tuple[int, int]]:
    """Spans of a body that only explicit commands reach: sections under
    case labels of a switch on the command (unless a default above falls
    into them), then-branches of equality tests of the command (names:
    the command parameter and the variables computed from it)."""
    alternatives = "|".join(re.escape(w) for w in sorted(names))
    words = re.compile(rf"\b(?:{alternatives})\b")
    equality = re.compile(rf"\b(?:{alternatives})\s*==|==\s*(?:{alternatives})\b")
    bounds = (re.compile(rf"\b(?:{alternatives})\s*>|<=?\s*(?:{alternatives})\b"),
              re.compile(rf"\b(?:{alternatives})\s*<|>=?\s*(?:{alternatives})\b"))
    spans = []
    start, end = fn.body_start, fn.body_end
    for sw in ctext.switches(text, start, end):
        if sw.close_paren < 0 or not words.search(text, sw.open_paren, sw.close_paren):
            continue
        if sw.end < 0:
            continue
        falling_default = False
        for _start, l_end, is_default, section_end in ctext.sections(text, sw):
            section = text[l_end:section_end]
            if is_default:
                falling_default = True
            elif not falling_default:
                spans.append((l_end, section_end))
            # A section that leaves the switch ends the fall-through.
            if re.search(r"\b(break|return|goto|continue)\b[^;]*;\s*$", section.rstrip()):
                falling_default = False
    for m in re.finditer(r"\bif\s*\(", text[start:end]):
        open_paren = start + m.end() - 1
        close_paren = ctext.match_close(text, open_paren)
        if close_paren < 0:
            continue
        cond = text[open_paren + 1:close_paren]
        if not re.search(r"==|[<>]", cond) or not _explicit_test(cond, equality, bounds):
            continue
        body_end = ctext.statement_end(text, close_paren + 1, end)
        spans.append((close_paren + 1, body_end))
    return spans


def _explicit_test(cond: str, equality: re.Pattern,
                   bounds: tuple[re.Pattern, re.Pattern] | None = None) -> bool:
    """`p == A`, `p == A || p == B`, `p == A && x`: true only for
    recognised commands (equality: a test `p ==` of the command).  With
    bounds (a lower and an upper bound on p), an alternative may also be
    a closed range `(p >= A && p <= B)`, the private commands of
    net/core/dev_ioctl.c (`cmd >= SIOCDEVPRIVATE && cmd <= SIOCDEVPRIVATE + 15`)."""
    alternatives = ctext.split_top(cond.replace("||", "\x00"), "\x00")

    def explicit(alternative: str) -> bool:
        alternative = alternative.strip()
        while alternative.startswith("(") and ctext.match_close(alternative, 0) == len(alternative) - 1:
            alternative = alternative[1:-1].strip()
        parts = ctext.split_top(alternative.replace("&&", "\x01"), "\x01")
        if any(equality.search(part) for part in parts):
            return True
        return bounds is not None and all(any(b.search(part) for part in parts) for b in bounds)

    return all(explicit(a) for a in alternatives)


# An argument that is a bare name, possibly cast: `, cmd)`, `((u32)cmd,`.
_BARE_ARGUMENT = re.compile(r"[(,]\s*(?:\(\s*(?:unsigned\s+)?\w+\s*\)\s*)?([A-Za-z_]\w*)\s*(?=[,)])")
_CALLEE = re.compile(r"\b([A-Za-z_]\w*)\s*\($")
_MEMBER_END = re.compile(r"(?:->|\.)\s*$")
_MEMBER_ARGUMENT = re.compile(r"(?:->|\.)\s*([A-Za-z_]\w*)$")
_COMPARED = re.compile(r"[!=]=\s*" + TRYNEXT_ERRNOS)
_COMPARED_FIRST = re.compile(TRYNEXT_ERRNOS + r"\s*[!=]=\s*([A-Za-z_]\w*)\b(?!\s*\()")


def _enclosing_paren(text: str, i: int, limit: int) -> int:
    """The `(` of the innermost parenthesis open at i, or -1."""
    depth = 0
    j = i - 1
    while j >= limit:
        ch = text[j]
        if ch == ")":
            depth += 1
        elif ch == "(":
            if depth == 0:
                return j
            depth -= 1
        elif ch in ";{}":
            return -1
        j -= 1
    return -1


def _compared_callees(text: str, funcs: list[csource.Function]) -> set[str]:
    """Functions whose value the text compares with a try-next errno:
    `f(..) == -ENOIOCTLCMD`, or `r = f(..)` and later `r != -ENOIOCTLCMD`."""
    found = set()
    for m in _COMPARED_FIRST.finditer(text):       # -ENOIOCTLCMD != ret
        fn = next((f for f in funcs if f.body_start <= m.start() < f.body_end), None)
        if fn is not None:
            found.update(_assigned_from(text, fn, m.group(1), m.start()))
    for m in _COMPARED.finditer(text):
        before = text[max(0, m.start() - 400):m.start()].rstrip()
        if before.endswith(")"):
            open_paren = before.rfind("(")
            depth = 0
            for k in range(len(before) - 1, -1, -1):
                if before[k] == ")":
                    depth += 1
                elif before[k] == "(":
                    depth -= 1
                    if depth == 0:
                        open_paren = k
                        break
            callee = _CALLEE.search(before[:open_paren + 1])
            if callee and callee.group(1) not in _NOT_CALLEES:
                found.add(callee.group(1))
        var = re.search(r"([A-Za-z_]\w*)\s*$", before)
        if not var:
            continue
        fn = next((f for f in funcs if f.body_start <= m.start() < f.body_end), None)
        if fn is not None:
            found.update(_assigned_from(text, fn, var.group(1), m.start()))
    return found


def _assigned_from(text: str, fn: csource.Function, var: str, before: int) -> set[str]:
    """The functions whose value fn assigns to var before offset `before`."""
    return {a.group(1) for a in re.finditer(
        rf"(?<![=!<>])\b{re.escape(var)}\s*=\s*(?:\(\s*[\w\s\*]+\)\s*)?([A-Za-z_]\w*)\s*\(",
        text[fn.body_start:before]) if a.group(1) not in _NOT_CALLEES}


def _is_integer_param(decl: str) -> bool:
    return "*" not in decl and "struct" not in decl and "union" not in decl


def _function_facts(text: str, fn: csource.Function, local_functions: set[str]
                    ) -> tuple[list[list], list[list], set[str]]:
    """The calls, callbacks and ops dispatches of one function that pass on
    one of its integer parameters (file_facts() gathers them per file)."""
    calls: list[list] = []
    callbacks: list[list] = []
    members: set[str] = set()
    names = fn.param_names()
    params = {n: i for i, (n, d) in enumerate(zip(names, fn.params)) if n and _is_integer_param(d)}
    if not params:
        return calls, callbacks, members
    body = text[fn.body_start:fn.body_end]
    returned = None
    restricted: dict[str, list[tuple[int, int]]] = {}
    done = set()
    for hit in _BARE_ARGUMENT.finditer(text, fn.body_start, fn.body_end):
        if hit.group(1) not in params:
            continue
        open_paren = _enclosing_paren(text, hit.start() + 1, fn.body_start)
        if open_paren < 0 or open_paren in done:
            continue
        done.add(open_paren)
        m = _CALLEE.search(text, max(fn.body_start, open_paren - 64), open_paren + 1)
        if not m or m.group(1) in _NOT_CALLEES:
            continue
        callee = m.group(1)
        prefix = text[max(fn.body_start, m.start() - 80):m.start()]
        if _MEMBER_END.search(prefix):
            # ops->F(.., cmd, ..): a dispatch through an ops structure,
            # no call of a function by that name.
            members.add(callee)
            continue
        if _RETURN_PREFIX.search(prefix):
            plain = True
        else:
            assigned = _ASSIGN_PREFIX.search(prefix)
            if not assigned:
                continue
            if returned is None:
                returned = set(_RETURNED_NAME.findall(body))
            if assigned.group(1) not in returned:
                continue
            close_paren = ctext.match_close(text, open_paren)
            # The rules' form: nothing assigns the variable again.
            plain = not re.search(rf"\b{re.escape(assigned.group(1))}\s*=(?!=)",
                                  text[close_paren:fn.body_end])
        close_paren = ctext.match_close(text, open_paren)
        if close_paren < 0:
            continue
        args = [a.strip() for a in ctext.split_top(text[open_paren + 1:close_paren])]
        p = hit.group(1)
        if p not in restricted:
            restricted[p] = _restricted_spans(text, fn, csource.command_words(body, p))
        reaches = not any(a <= m.start() < b for a, b in restricted[p])
        i = next((k for k, a in enumerate(args) if _CAST.sub("", a) == p), -1)
        if i < 0:
            continue
        calls.append([fn.name, params[p], callee, i, reaches, plain])
        for j, other in enumerate(args):
            cb = other.lstrip("&").strip()
            # A function of this file, or a name the body neither
            # declares nor uses elsewhere (not a local variable).
            if j != i and (member := _MEMBER_ARGUMENT.search(other)):
                members.add(member.group(1))     # wrapper(.., cmd, .., ops->F)
            elif j != i and _NAME.fullmatch(cb) and cb not in names and (
                    cb in local_functions or len(re.findall(rf"\b{cb}\b", body)) == 1):
                callbacks.append([fn.name, params[p], callee, i, cb, reaches])
    return calls, callbacks, members


def file_facts(data: bytes, whole: bool = False) -> dict:
    """The facts of one C file (whole: a header, read whole however few
    tokens it has, for its static inline helpers), as a JSON-able record:

    defs:      {name: [static, parameter list as written]} (parsed in the
               join, for the few functions it reaches)
    bindings:  [[struct or '', field, function, container struct.member or '']]
    calls:     [[caller, param index, callee, argument index, reaches unknown,
                 the rules' form]]  -- the callee's value is returned
    callbacks: [[caller, param index, wrapper, argument index of the command,
                 callback, reaches unknown]]
    dispatches: [[caller, ops member it hands the command to]]
    trynext:   [functions whose value this file compares with an errno]
    includes:  [the #include lines' names, as written: '"x.h"', '<linux/y.h>']
    pasted:    {macro: [[field, suffix] of `.field = param ## suffix`, and
               [other macro, ''] for each it hands its parameter to]}
    pasted_uses: [[struct, macro, argument]]: a macro of one identifier in
               an initialiser (FB_DEFAULT_SBUS_OPS(cg3) in cg3.c's fb_ops)
    """
    text = csource.decode(data)
    if not whole and not any(t in data for t in IOCTL_TOKENS):
        defs = _definitions_uncleaned(text)
        # A non-static function taking a command may be a helper that hands
        # it on further: read such a file whole (118 files in 6.12).
        if not any(_COMMAND_PARAM.search(params) for _, params in defs.values()):
            return {"defs": defs}
    pasted = pasted_macros(text)
    text = csource.clean(text)
    funcs = csource.functions(text)
    defs = {f.name: [f.static, ", ".join(f.params)] for f in funcs}
    bindings = [[b.struct, b.field, b.function, b.via] for b in csource.bindings(text)]
    calls, callbacks = [], []
    dispatches: list[list[str]] = []
    local_functions = {f.name for f in funcs}
    trynext = _compared_callees(text, funcs) if re.search(r"[!=]=", text) else set()
    for fn in funcs:
        fn_calls, fn_callbacks, members = _function_facts(text, fn, local_functions)
        calls += fn_calls
        callbacks += fn_callbacks
        dispatches.extend([fn.name, member] for member in sorted(members))
    return {"defs": defs, "bindings": bindings, "calls": calls, "callbacks": callbacks,
            "dispatches": dispatches, "trynext": sorted(trynext),
            "includes": include_names(csource.decode(data)),
            "pasted": pasted, "pasted_uses": pasted_uses(text)}


_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(\s*([A-Za-z_]\w*)\s*\)((?:[^\n]*\\\n)*[^\n]*)",
                     re.M)


def pasted_macros(text: str) -> dict[str, list[list[str]]]:
    """Macros of one parameter that build an ops table's fields by token
    pasting (sbuslib.h's __FB_DEFAULT_SBUS_OPS_IOCTL(p): `.fb_ioctl =
    p ## _sbusfb_ioctl`), with the macros they hand the parameter to
    (FB_DEFAULT_SBUS_OPS(p) -> __FB_DEFAULT_SBUS_OPS_IOCTL(p))."""
    out: dict[str, list[list[str]]] = {}
    for m in _DEFINE.finditer(text):
        name, param, body = m.group(1), re.escape(m.group(2)), m.group(3)
        fields = [[f, suffix] for f, suffix in
                  re.findall(r"\.\s*(\w+)\s*=\s*%s\s*##\s*(\w+)" % param, body)]
        calls = [[other, ""] for other in re.findall(r"\b([A-Z_][A-Z0-9_]*)\s*\(\s*%s\s*\)" % param, body)]
        for item in fields + calls:
            if item not in out.setdefault(name, []):
                out[name].append(item)
    return {k: v for k, v in out.items() if v}


def expand_pasted(uses: Iterable[Sequence[str]], macros: dict[str, list[list[str]]]) -> list[list[str]]:
    """[struct, field, function, ''] of each use of a pasting macro
    (pasted_uses()), through the macros it hands its parameter to."""
    out = []
    for struct, macro, arg in uses:
        todo, seen = [macro], set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            for first, suffix in macros.get(name, ()):
                if suffix:
                    out.append([struct, first, arg + suffix, ""])
                else:
                    todo.append(first)
    return out


def pasted_uses(text: str) -> list[list[str]]:
    """[struct, MACRO, argument] of each `MACRO(arg)` that is an element of
    a struct's static initialiser."""
    out = []
    for m in re.finditer(r"[{,]\s*([A-Z_][A-Z0-9_]*)\s*\(\s*([A-Za-z_]\w*)\s*\)\s*(?=[,}])", text):
        struct = csource._initialiser_struct(text, m.start(1))
        if struct:
            out.append([struct, m.group(1), m.group(2)])
    return out


_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*("[^"\n]+"|<[^>\n]+>)', re.M)


def include_names(text: str) -> list[str]:
    """The #include lines' names, as written: '"x.h"', '<linux/y.h>'."""
    return _INCLUDE.findall(text)


def macros_seen(own: dict[str, list[list[str]]],
                included: Iterable[dict[str, list[list[str]]]]) -> dict[str, list[list[str]]]:
    """The pasting macros a file sees: its own, else the first included
    header's of that name."""
    macros: dict[str, list[list[str]]] = {}
    for found in included:
        for name, items in found.items():
            macros.setdefault(name, items)
    macros.update(own)
    return macros


def included_paths(rel: str, spelled: str) -> list[str]:
    """Where an #include of the file rel may lead, relative to the tree
    root, in the compiler's order: "x.h" beside the file first, then
    include/; <linux/x.h> in include/.  Headers only: a .c file that
    another includes (sound/core/control.c's "control_compat.c") is left
    as the per-file scan reads it."""
    name = spelled[1:-1].strip()
    if not name.endswith(".h"):
        return []
    beside = [os.path.normpath(os.path.join(os.path.dirname(rel), name))] if spelled[0] == '"' else []
    return [p for p in (*beside, os.path.normpath(os.path.join("include", name))) if not p.startswith("..")]


# ------------------------------------------------------------ cache

# One SQLite file: 15,000 small files cost more to create than the facts
# cost to extract.  Three tables:
#   facts  content key -> the file's record (file_facts, as JSON)
#   seen   file path -> (its stat, its content key): a file whose stat is
#          unchanged is not read again (reading the whole tree is most of
#          a warm phase 1: 620 MB for 6.12); "" for a file that takes no part
#   joins  join key (every taking part file's path and content key) ->
#          the targets (cross_file_targets()), so that a second subdirectory, or a rerun,
#          does not pay for the join either
DB_NAME = "facts.sqlite3"
_SCHEMA = ("CREATE TABLE IF NOT EXISTS facts (key TEXT PRIMARY KEY, record TEXT NOT NULL)",
           "CREATE TABLE IF NOT EXISTS seen (path TEXT PRIMARY KEY, stat TEXT NOT NULL, key TEXT NOT NULL)",
           "CREATE TABLE IF NOT EXISTS joins (key TEXT PRIMARY KEY, targets TEXT NOT NULL)")
# A file changed this shortly before it was read may change again within
# the clock's granularity and keep its stat (git's "racy" index entries):
# such a file's stat is not remembered, so it is read again next time.
RACY_NS = 2_000_000_000
_now_ns = time.time_ns


@functools.lru_cache(maxsize=None)
def code_version() -> str:
    """VERSION and the source of this module, csource and ctext: a change to
    the code that extracts or joins the facts is a new key, bumped or not."""
    h = hashlib.sha256(VERSION.encode())
    h.update(b"\0" + Path(__file__).read_bytes() + b"\0" + csource.code_digest().encode())
    return h.hexdigest()


def cache_key(data: bytes) -> str:
    return hashlib.sha256(code_version().encode() + b"\0" + data).hexdigest()


def join_key(keys: dict[str, str]) -> str:
    """The key of cross_file_targets()'s result: the code, the interface table and every
    taking part file (path and content key)."""
    h = hashlib.sha256(code_version().encode() + b"\0")
    h.update(interfaces.TABLE.read_bytes() + b"\0")
    for rel in sorted(keys):
        h.update(f"{rel}\0{keys[rel]}\n".encode())
    return h.hexdigest()


def _stat_id(st: os.stat_result) -> str:
    """A file's stat, with the code version: the content key it is
    remembered with was made by that code."""
    return f"{code_version()[:16]}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}:{st.st_dev}"


# Readers by (process, folder): a connection must not cross a fork.
_readers: dict[tuple[int, str], sqlite3.Connection | None] = {}


def _reader(folder: str) -> sqlite3.Connection | None:
    key = (os.getpid(), folder)
    if key not in _readers:
        try:
            _readers[key] = sqlite3.connect(os.path.join(folder, DB_NAME), timeout=30)
        except sqlite3.Error:
            _readers[key] = None
    return _readers[key]


def _lookup(folder: str, query: str, key: str) -> tuple | None:
    con = _reader(folder)
    if con is None:
        return None
    try:
        return con.execute(query, (key,)).fetchone()
    except sqlite3.Error:
        return None


def _load(folder: str, key: str) -> dict | None:
    row = _lookup(folder, "SELECT record FROM facts WHERE key = ?", key)
    try:
        return json.loads(row[0]) if row else None
    except ValueError:
        return None


def _prepare(folder: Path) -> None:
    """The cache file and its tables, before any worker reads it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with sqlite3.connect(folder / DB_NAME, timeout=30) as con:
            for statement in _SCHEMA:
                con.execute(statement)
        con.close()
    except (OSError, sqlite3.Error):
        pass


def _store(folder: Path, table: str, rows: list[tuple[str, ...]]) -> None:
    """New rows in one transaction.  A cache that cannot be written only
    costs time."""
    if not rows:
        return
    marks = ", ".join("?" * len(rows[0]))
    try:
        with sqlite3.connect(folder / DB_NAME, timeout=30) as con:
            con.executemany(f"INSERT OR REPLACE INTO {table} VALUES ({marks})", rows)
        con.close()
    except (OSError, sqlite3.Error):
        pass


@dataclass(frozen=True)
class _Known:
    rel: str
    key: str                          # content key; "" for a file that takes no part
    record: dict | None = None        # extracted now (None: in the cache, loaded when needed)
    fresh: str | None = None          # that record as JSON, new to the cache
    seen: tuple[str, str, str] | None = None   # (path, stat, key) to remember


def _read(job: tuple[str, str, str]) -> _Known:
    """One file's content key, and its facts when the cache does not hold
    them.  A file without an ioctl or errno token takes no part."""
    root, rel, folder = job
    path = os.path.join(root, rel)
    try:
        st = os.stat(path)
    except OSError:
        return _Known(rel, "")
    stat_id = _stat_id(st)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return _Known(rel, "")
    key = ""
    header = rel.endswith(".h")
    if any(t in data for t in IOCTL_TOKENS) or any(t in data for t in ERRNO_TOKENS):
        # a header's record is read whole: another record than the same bytes' as a .c file
        key = cache_key(b"header\0" + data if header else data)
    # The stat is taken before the read: a later change gives a new stat.
    racy = max(st.st_mtime_ns, st.st_ctime_ns) > _now_ns() - RACY_NS
    seen = None if racy else (path, stat_id, key)
    if not key or _lookup(folder, "SELECT 1 FROM facts WHERE key = ?", key):
        return _Known(rel, key, seen=seen)
    record = file_facts(data, whole=header)
    return _Known(rel, key, record, json.dumps(record, separators=(",", ":")), seen)


def _known_files(root: Path, files: Sequence[str], jobs: int, folder: Path,
                 trust_stat: bool = True) -> list[_Known]:
    """The files whose stat is remembered unchanged are known here (one
    query for every remembered stat: a query per file costs more than the
    stat).  Each worker stats, reads, hashes and extracts its own files of
    the rest: sending the bytes from one reader would cost more than the
    reading."""
    known: list[_Known] = []
    remembered = _remembered(folder) if trust_stat else {}
    rest = []
    for rel in files:
        path = os.path.join(root, rel)
        row = remembered.get(path)
        try:
            if row is not None and row[0] == _stat_id(os.stat(path)):
                known.append(_Known(rel, row[1]))
                continue
        except OSError:
            continue                  # gone: takes no part
        rest.append(rel)
    order = {rel: i for i, rel in enumerate(files)}
    return sorted(known + _read_files(root, rest, jobs, folder), key=lambda k: order[k.rel])


def _remembered(folder: Path) -> dict[str, tuple[str, str]]:
    """path -> (stat, content key) of every remembered file."""
    con = _reader(str(folder))
    if con is None:
        return {}
    try:
        return {path: (stat, key) for path, stat, key in con.execute("SELECT path, stat, key FROM seen")}
    except sqlite3.Error:
        return {}


def _read_files(root: Path, files: list[str], jobs: int, folder: Path) -> list[_Known]:
    work = [(str(root), rel, str(folder)) for rel in files]
    if jobs > 1 and len(work) > 1:
        with concurrent.futures.ProcessPoolExecutor(max_workers=jobs) as pool:
            found = list(pool.map(_read, work, chunksize=256))
    else:
        found = [_read(job) for job in work]
    # Records before the stats that point to them: a reader never meets
    # a remembered key whose record is missing, unless a write failed.
    _store(folder, "facts", [(k.key, k.fresh) for k in found if k.fresh is not None])
    _store(folder, "seen", [k.seen for k in found if k.seen is not None])
    return found


def collect(root: Path, files: Iterable[str], jobs: int = 1,
            cache: Path | None = None) -> dict[str, dict]:
    """rel -> facts for the files that can take part (an ioctl or errno
    token in them), from the cache where the content is known."""
    folder = cache if cache is not None else tree.cache_dir() / "facts"
    _prepare(folder)
    return _records(root, _known_files(root, list(files), jobs, folder), jobs, folder)


def _records(root: Path, found: list[_Known], jobs: int, folder: Path) -> dict[str, dict]:
    records = {}
    lost = []
    for k in found:
        if not k.key:
            continue
        record = k.record if k.record is not None else _load(str(folder), k.key)
        if record is None:
            lost.append(k.rel)
        else:
            records[k.rel] = record
    # A remembered key whose record could not be written or read: read again.
    for k in _known_files(root, lost, jobs, folder, trust_stat=False) if lost else ():
        if k.key:
            records[k.rel] = k.record if k.record is not None else _load(str(folder), k.key) or {"defs": {}}
    return records


class Headers:
    """The headers the join reads on demand (a helper a handler hands the
    command to, defined in a header the handler's file includes), through
    the facts cache; `keys` remembers each one's content key, '' for a
    header that is missing or takes no part."""

    def __init__(self, root: Path, folder: Path) -> None:
        self.root, self.folder = root, folder
        self.keys: dict[str, str] = {}
        self.records: dict[str, dict | None] = {}
        self._remembered: dict[str, tuple[str, str]] | None = None

    def record(self, rel: str) -> dict | None:
        if rel not in self.records:
            known = self._known(rel)
            self.keys[rel] = known.key if known else ""
            self.records[rel] = (known.record or _load(str(self.folder), known.key)) if known and known.key else None
        return self.records[rel]

    def _known(self, rel: str) -> _Known | None:
        """rel's content key (and record, when read now); None when missing.
        The remembered stats are read once, not once per header."""
        path = os.path.join(self.root, rel)
        try:
            stat_id = _stat_id(os.stat(path))
        except OSError:
            return None
        if self._remembered is None:
            self._remembered = _remembered(self.folder)
        row = self._remembered.get(path)
        if row is not None and row[0] == stat_id:
            return _Known(rel, row[1])
        return _read_files(self.root, [rel], 1, self.folder)[0]

    def unchanged(self, keys: dict[str, str]) -> bool:
        """Whether every header a stored join read still has its content key."""
        for rel, key in keys.items():
            known = self._known(rel)
            if (known.key if known else "") != key:
                return False
        return True


def cached_join(root: Path, files: Iterable[str], jobs: int = 1,
                cache: Path | None = None) -> list[Target]:
    """cross_file_targets() of the files' facts, answered by the cache when no file
    taking part (the headers it read included), the code and the interface
    table changed since."""
    folder = cache if cache is not None else tree.cache_dir() / "facts"
    _prepare(folder)
    found = _known_files(root, list(files), jobs, folder)
    key = join_key({k.rel: k.key for k in found if k.key})
    headers = Headers(Path(root), folder)
    row = _lookup(str(folder), "SELECT targets FROM joins WHERE key = ?", key)
    if row is not None:
        try:
            stored = json.loads(row[0])
            if headers.unchanged(stored["headers"]):
                return [Target(*t) for t in stored["targets"]]
        except (ValueError, TypeError, KeyError):
            pass
    targets = cross_file_targets(_records(root, found, jobs, folder), headers)
    stored = {"targets": [list(astuple(t)) for t in targets], "headers": headers.keys}
    _store(folder, "joins", [(key, json.dumps(stored))])
    return targets


# ------------------------------------------------------------ the join

def _interfaces() -> tuple[dict[tuple[str, str], int], dict[str, list[str]]]:
    """(struct, field) -> cmd_arg; field -> its interfaces."""
    table: dict[tuple[str, str], int] = {}
    by_field: dict[str, list[str]] = {}
    for i in interfaces.table():
        table[(i.struct, i.field)] = i.cmd_arg
        by_field.setdefault(i.field, []).append(i.name)
    return table, by_field


def cross_file_targets(records: dict[str, dict], headers: Headers | None = None) -> list[Target]:
    """Every target that the per-file rules cannot see on their own;
    headers: where the helpers defined in headers are read (none without)."""
    walk = _Walk(records, headers)
    walk.bind_ops_tables()
    walk.follow_calls()
    return walk.targets()


class _Walk:
    """cross_file_targets()'s walk: from the functions stored in ops tables down the calls
    and callbacks that pass the command on, DEPTH levels deep."""

    def __init__(self, records: dict[str, dict], headers: Headers | None = None) -> None:
        self.records = dict(records)
        self.headers = headers
        self.callers: dict[str, set[str]] | None = None    # name -> folders that use it, not defining it
        self.table, self.by_field = _interfaces()
        self.defined: dict[str, list[tuple[str, bool, str]]] = {}
        for rel, rec in records.items():
            for name, (static, params) in rec["defs"].items():
                self.defined.setdefault(name, []).append((rel, static, params))
        self.trynext: set[str] = set()
        for rec in records.values():
            self.trynext.update(rec.get("trynext", ()))
        self.calls: dict[tuple[str, str], list] = {}
        self.callbacks: dict[tuple[str, str], list] = {}
        for rel, rec in records.items():
            for c in rec.get("calls", ()):
                self.calls.setdefault((rel, c[0]), []).append(c)
            for c in rec.get("callbacks", ()):
                self.callbacks.setdefault((rel, c[0]), []).append(c)
        # A function handed a callback with the command (dvb_usercopy,
        # video_usercopy) is a wrapper: it copies the argument and calls the
        # handler, so its own -EINVALs are about the argument.
        self.wrappers = {c[2] for found in self.callbacks.values() for c in found if c[4] in self.defined}
        self.cores = core_functions(records)
        # (file, function, interface, cmd_arg) -> (shallowest depth, whether
        # the rules reach it on their own along some path).  A target is
        # visited again when a shallower or an own path turns up.
        self.seen: dict[tuple[str, str, str, int], tuple[int, bool]] = {}
        self.work: list[tuple[str, str, str, int, int, bool]] = []

    def resolve(self, name: str, near: str) -> list[tuple[str, bool, tuple[str, ...]]]:
        """Definitions by name with their parameter names, parsed once each."""
        if name in self.trynext or name in self.wrappers or name in self.cores.names:
            return []
        defs = self.defined.get(name, [])
        local = [d for d in defs if d[0] == near]
        found = local[-1:] if local else [d for d in defs if not d[1]]
        if not found:
            found = self.in_headers(name, near)
        return [(rel, static, parameter_names(text)) for rel, static, text in found
                if (rel, name) not in self.cores.dispatchers]

    def in_headers(self, name: str, near: str) -> list[tuple[str, bool, str]]:
        """name's definition in a header that the file near includes (a
        `static inline` helper, tun_vnet_ioctl() in drivers/net/tun_vnet.h),
        read now and joined like a file; none when the files of
        SHARED_FOLDERS or more other folders call it (a library's, like
        the cores')."""
        if self.headers is None:
            return []
        for spelled in self.records.get(near, {}).get("includes", ()):
            for rel in included_paths(near, spelled):
                record = self.headers.record(rel)
                if record is None or name not in record["defs"]:
                    continue
                if len(self.folders_calling(name) - {os.path.dirname(rel)}) >= SHARED_FOLDERS:
                    return []
                self.add(rel, record)
                static, params = record["defs"][name]
                return [(rel, static, params)]
        return []

    def add(self, rel: str, record: dict) -> None:
        """A header's record joined like a file's, once."""
        if rel in self.records:
            return
        self.records[rel] = record
        for name, (static, params) in record["defs"].items():
            self.defined.setdefault(name, []).append((rel, static, params))
        for c in record.get("calls", ()):
            self.calls.setdefault((rel, c[0]), []).append(c)
        for c in record.get("callbacks", ()):
            self.callbacks.setdefault((rel, c[0]), []).append(c)

    def folders_calling(self, name: str) -> set[str]:
        """The folders of the files that call or bind name without defining it."""
        if self.callers is None:
            self.callers = {}
            for rel, rec in self.records.items():
                used = ([b[2] for b in rec.get("bindings", ())] + [c[2] for c in rec.get("calls", ())]
                        + [c[4] for c in rec.get("callbacks", ())])
                for used_name in used:
                    if used_name not in rec["defs"]:
                        self.callers.setdefault(used_name, set()).add(os.path.dirname(rel))
        return self.callers.get(name, set())

    def visit(self, rel: str, fn: str, iface: str, cmd_arg: int, params: Sequence[str], depth: int,
              own: bool) -> None:
        if cmd_arg >= len(params) or not params[cmd_arg]:
            return
        key = (rel, fn, iface, cmd_arg)
        old = self.seen.get(key)
        if old is not None and old[0] <= depth and (old[1] or not own):
            return
        if old is not None:
            depth, own = min(depth, old[0]), own or old[1]
        self.seen[key] = (depth, own)
        self.work.append((rel, fn, iface, cmd_arg, depth, own))

    def bind_ops_tables(self) -> None:
        """The functions stored in an ops table's ioctl field.  Ops
        structures that are members of another structure are set at run
        time through it (hw->ops.ioctl = fn): the member's type is only in
        headers, which neither this nor the rules read."""
        embedded = {f"{c}.{m}": ops for (c, m), ops in interfaces.embedded_ops(interfaces.table()).items()}
        for rel, rec in sorted(self.records.items()):
            # the rules see a binding of the file's text, not one a macro pastes
            seen_by_rules = [(b, True) for b in rec.get("bindings", [])]
            for (struct, field, fn, via), visible in seen_by_rules + [(b, False) for b in
                                                                     self.pasted_bindings(rel, rec)]:
                struct = embedded.get(via, struct)
                if (struct, field) in self.table:
                    iface = f"{struct}.{field}"
                elif not struct and len(self.by_field.get(field, ())) == 1:
                    iface = self.by_field[field][0]
                else:
                    continue
                owner, member = iface.split(".")
                cmd_arg = self.table[(owner, member)]
                for where, _static, params in self.resolve(fn, rel):
                    self.visit(where, fn, iface, cmd_arg, params, 0, visible and where == rel)

    def pasted_bindings(self, rel: str, rec: dict) -> list[list[str]]:
        """[struct, field, function, ''] of the ops tables a token-pasting
        macro of the file or of a header it includes builds: cg3.c's
        FB_DEFAULT_SBUS_OPS(cg3) stores cg3_sbusfb_ioctl in .fb_ioctl
        (sbuslib.h), which no binding of the text shows."""
        uses = rec.get("pasted_uses", ())
        if not uses:
            return []
        headers = self.headers
        included = ([(headers.record(header) or {}).get("pasted", {})
                     for spelled in rec.get("includes", ()) for header in included_paths(rel, spelled)]
                    if headers is not None else [])
        return expand_pasted(uses, macros_seen(rec.get("pasted", {}), included))

    def follow_calls(self) -> None:
        """Down the calls and callbacks that pass the command on."""
        while self.work:
            rel, fn, iface, cmd_arg, depth, own = self.work.pop()
            if depth >= DEPTH:
                continue
            for _, p_index, callee, arg, reaches, plain in self.calls.get((rel, fn), ()):
                if p_index != cmd_arg or not reaches:
                    continue
                for where, static, params in self.resolve(callee, rel):
                    self.visit(where, callee, iface, arg, params, depth + 1,
                               own and plain and static and where == rel)
            for _, p_index, _wrapper, arg, cb, reaches in self.callbacks.get((rel, fn), ()):
                if p_index != cmd_arg or not reaches:
                    continue
                for where, _static, params in self.resolve(cb, rel):
                    index = _callback_command(params, params_name(self.records, rel, fn, cmd_arg), arg)
                    self.visit(where, cb, iface, index, params, depth + 1, False)

    def targets(self) -> list[Target]:
        """The targets the rules do not reach on their own, and the cores'.
        The rules take a function's first row: of the interfaces one
        function serves, the one that keeps -ENOIOCTLCMD (a core tries the
        next handler on it) comes first, so that no caller loses that value."""
        cautious = {i.name: (not i.keep_enoioctlcmd, i.to != "ENOIOCTLCMD") for i in interfaces.table()}
        found = {Target(rel, fn, iface, cmd_arg)
                 for (rel, fn, iface, cmd_arg), (_, own) in self.seen.items() if not own}
        found.update(reported_cores(self.records))
        return sorted(found, key=lambda t: (t.file, t.function, cautious[t.interface], t.interface, t.cmd_arg))


def reported_cores(records: dict[str, dict]) -> list[Target]:
    """The cores whose own unknown-command answers the scan lists, although
    no series changes them (the reported_cores column of cocci/interfaces.tsv:
    the missing-operation answers of atm_dev_ioctl(), the table miss of
    drm_ioctl(); tools/enotty/judge/handlers.py CORES says why each stays),
    those the read files define, as targets under the row's interface."""
    return sorted(Target(core.file, core.function, iface.name, core.cmd_arg)
                  for iface in interfaces.table() for core in iface.reported_cores
                  if core.function in records.get(core.file, {}).get("defs", {}))


@dataclass(frozen=True)
class Cores:
    names: frozenset[str]                        # never a target, in any file
    dispatchers: frozenset[tuple[str, str]]      # (file, function): never a target


# A handler or helper that files of this many other folders bind or call
# is a library of a core (drm_ioctl, video_ioctl2, sock_no_ioctl,
# tty_mode_ioctl, vfio_pci_core_ioctl), not one driver's.
SHARED_FOLDERS = 2


def core_functions(records: dict[str, dict]) -> Cores:
    """The cores, whose answers are the core's to change, not a driver's:
    every function the `dispatch` column of cocci/interfaces.tsv names
    (blkdev_ioctl, scsi_ioctl, __video_do_ioctl, ...), its `kept_hooks`
    (the KVM arch defaults: cocci/INTERFACES.rst, "KVM arch ioctls:
    decision"), every function that hands the command on through an ops
    member named like a table field (`disk->fops->ioctl(.., cmd, ..)`,
    `dvb_usercopy(file, cmd, arg, dvbdev->kernel_ioctl)`), and every
    function that files in SHARED_FOLDERS or more other folders bind or
    hand a command to: the answer such a function gives of its own (a
    missing operation, a foreign command, a table's unknown entry) is its
    core's, for every driver behind it, and belongs in a core patch."""
    rows = interfaces.table()
    fields = {i.field for i in rows}
    names = {i.dispatch.rpartition(":")[2] for i in rows if i.dispatch} | set(interfaces.kept_hooks(rows))
    dispatchers = {(rel, fn) for rel, rec in records.items()
                   for fn, member in rec.get("dispatches", ()) if member in fields}
    exported: dict[str, list[str]] = {}
    for rel, rec in records.items():
        for name, (static, _params) in rec["defs"].items():
            if not static:
                exported.setdefault(name, []).append(rel)
    users: dict[tuple[str, str], set[str]] = {}
    for rel, rec in records.items():
        used = ([b[2] for b in rec.get("bindings", ())] + [c[2] for c in rec.get("calls", ())]
                + [c[4] for c in rec.get("callbacks", ())])
        for name in used:
            if name in rec["defs"]:
                continue          # the file's own function
            for where in exported.get(name, ()):
                users.setdefault((where, name), set()).add(os.path.dirname(rel))
    shared = {key for key, folders in users.items()
              if len(folders - {os.path.dirname(key[0])}) >= SHARED_FOLDERS}
    return Cores(frozenset(names), frozenset(dispatchers | shared))


def params_name(records: dict[str, dict], rel: str, fn: str, index: int) -> str:
    params = parameter_names(records[rel]["defs"].get(fn, [False, ""])[1])
    return params[index] if index < len(params) else ""


@functools.lru_cache(maxsize=None)
def parameter_names(params: str) -> tuple[str, ...]:
    """'struct file *f, unsigned int cmd' -> ('f', 'cmd')."""
    return tuple(csource.param_name(p) for p in ctext.split_top(params)) if params.strip() else ()


def _callback_command(params: Sequence[str], caller_cmd: str, wrapper_index: int) -> int:
    """The callback's command parameter: the one named like the caller's,
    else one named cmd, else the position the wrapper got it in."""
    for name in (caller_cmd, "cmd"):
        if name and name in params:
            return params.index(name)
    return wrapper_index


def extra_targets(root: Path, files: Iterable[str], jobs: int = 1,
                  cache: Path | None = None) -> dict[str, list[Target]]:
    """Phase 1: file (relative to root) -> the targets defined there that
    the rules cannot find on their own, for the files given (the scan's C
    files; a target is only looked for among them)."""
    by_file: dict[str, list[Target]] = {}
    for t in cached_join(Path(root), files, jobs, cache):
        by_file.setdefault(t.file, []).append(t)
    return by_file


def write_tsv(targets: Iterable[Target], out: TextIO) -> None:
    """The rows the rules read with -D enotty_facts=FILE: no header, one
    `file<TAB>function<TAB>interface<TAB>cmd_arg` line per target, in the
    order given (join's: a function's most cautious interface first)."""
    for t in targets:
        out.write(f"{t.file}\t{t.function}\t{t.interface}\t{t.cmd_arg}\n")


def tsv_text(targets: Iterable[Target]) -> str:
    """The same rows as one string (for the scan's per-file cache key)."""
    return "".join(f"{t.file}\t{t.function}\t{t.interface}\t{t.cmd_arg}\n" for t in targets)
