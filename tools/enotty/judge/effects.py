"""What a converted site changes for user space, read from the kernel text.

A site says "this line answered -EINVAL and will answer -ENOTTY".  Whether a
program ever sees the difference depends on the code around the line and
on the core that calls the handler.  This module reads the C text (no C
parser, so each verdict is conservative and "unknown" is an allowed value)
and answers, per site:

  paths     native, compat, both, native+SIOC-compat (sockets: 32-bit callers
            only with the SIOC* commands compat_sock_ioctl_trans() passes on),
            native+V-compat (V4L2: 32-bit callers only
            with 'V' commands below BASE_VIDIOC_PRIVATE) or unknown: which
            ioctl syscall brings an unknown command to the converted line.
  reach     yes, partly, no or unknown: whether an unknown command gets past
            the checks before the dispatch (floppy's normalize_ioctl(),
            fsl-diu's `if (!arg) return -EINVAL;`); no-operation: the line
            answers only when the driver behind the dispatcher has no
            operation for it (uacce's `if (uacce->ops->ioctl) .. else`).
  guard     the check that answers first ("-" when none).
  branches  "all", or the #if/#else twin that keeps the old answer.
  uncased   known commands of the handler's ioctl family (from the uapi
            header that defines the handled ones) that have no case and now
            reach the converted line, minus those a core before the driver
            takes (the core_filters column of cocci/interfaces.tsv); a case
            that only one #if branch holds is NAME[CONFIG_X=n]: in that
            configuration it reaches the line too.
  forward   what a socket handler's -ENOIOCTLCMD now lets through.
  fallback  where the core still answers EINVAL after the driver.
  visible   yes, invisible (a leaf -ENOIOCTLCMD that the VFS already made
            ENOTTY) or unreachable (no unknown command reaches the line).
  entry     the function the ops table binds when the site's function is
            its helper (amiflop's fd_ioctl() for fd_locked_ioctl()), or "-".

Entry point: analyse_sites(sites, tree) -> {Site: Effects}.
"""
from __future__ import annotations

import collections
import functools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import AbstractSet, Callable

from ..find import interfaces
from ..find.sites import Effects, Site
from ..find import csource, ctext
from ..find.ctext import match_close
from ..kernel import kconfig

OLD_ANSWERS = ("EINVAL", "ENOSYS")
# Answers of a moment (a signal, no memory, try again): a check that gives
# one is no state an unknown command is kept from ENOTTY by.
TRANSIENT = ("ERESTARTSYS", "EINTR", "ENOMEM", "EAGAIN")
_ERRNO = re.compile(r"-\s*(E[A-Z0-9]+)\b")
_CMD_NAMES = ("cmd", "command", "ioctl", "ioctl_cmd", "ioctl_num", "iocmd", "no", "req",
              "request", "code", "cmnd", "num")

# --- C text ----------------------------------------------------------------

@dataclass
class CFile:
    """One source file: raw text, blanked text and line offsets."""
    path: str
    raw: str
    code: str = ""
    lines: ctext.Lines = field(init=False)
    definitions: list[Function] | None = field(init=False, default=None, repr=False,
                                               compare=False)   # functions() reads them once

    def __post_init__(self) -> None:
        self.code = ctext.blank_lexemes(self.raw)
        self.lines = ctext.Lines(self.raw)

    def offset(self, line: int) -> int:
        return self.lines.offset(line)

    def line_of(self, offset: int) -> int:
        return self.lines(max(offset, 0))

    def line_text(self, line: int) -> str:
        return self.raw.splitlines()[line - 1] if 0 < line <= len(self.lines.starts) else ""


@dataclass(frozen=True)
class Function:
    name: str
    start: int        # offset of the name
    params: str       # text between the parentheses
    body: int         # offset of '{'
    end: int          # offset of the matching '}'


def functions(cf: CFile, name: str | None = None) -> list[Function]:
    """The file's function definitions in every #if branch, as the C
    reader reads them (find.csource.functions: heads that begin at column
    0, not those in a #define), optionally of one name."""
    if cf.definitions is None:
        cf.definitions = []
        for f in csource.functions(ctext.blank_directives(cf.code)):
            open_paren = cf.code.index("(", f.start)
            close = match_close(cf.code, open_paren)
            cf.definitions.append(Function(f.name, f.start, cf.code[open_paren + 1:close], f.body_start, f.body_end))
    return [f for f in cf.definitions if name is None or f.name == name]


def function_at(cf: CFile, name: str, line: int) -> Function | None:
    off = cf.offset(line)
    for fn in functions(cf, name):
        if fn.body <= off <= fn.end:
            return fn
    return None


def cmd_param(fn: Function) -> str:
    names = [re.findall(r"(\w+)\s*$", p.strip())[0] for p in fn.params.split(",")
             if re.findall(r"(\w+)\s*$", p.strip())]
    for candidate in _CMD_NAMES:
        if candidate in names:
            return candidate
    return "cmd"


def _mentions(text: str, word: str) -> bool:
    return re.search(r"\b%s\b" % re.escape(word), text) is not None


def depth_profile(code: str, start: int, end: int) -> list[int]:
    """Brace depth before each offset of code[start:end], relative to start."""
    depth, out = 0, []
    for c in code[start:end]:
        out.append(depth)
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
    return out


def on_path(code: str, start: int, pos: int, anchor: int) -> bool:
    """Whether every block open at pos is still open at anchor (start: body
    '{'), and no case label of the same block lies between them: a check
    under `case LOOP_SET_BLOCK_SIZE:` is not on the way to `default:`."""
    prof = depth_profile(code, start, anchor + 1)
    d = prof[pos - start]
    if min(prof[pos - start:]) < d:
        return False
    # No block closes below pos before anchor: the labels of the block of
    # pos are those at the top level of code[pos:anchor].
    return not ctext.top_labels(code, pos, anchor)


def _enclosing_if(code: str, start: int, pos: int, anchor: int) -> str:
    """The condition of the `if (C) {` block that holds pos, when that block
    is one level deep, has no else, and its if is on the way to anchor;
    '' otherwise (a loop, a switch, an else branch, deeper nesting)."""
    prof = depth_profile(code, start, anchor + 1)
    d = prof[pos - start]
    brace = code.rfind("{", start, pos)
    while brace > start and prof[brace - start] != d - 1:
        brace = code.rfind("{", start, brace)
    if brace <= start or d != 2:
        return ""
    close = match_close(code, brace)
    head = code[code.rfind("\n", start, brace) + 1:brace]
    m = re.match(r"\s*if\s*\(", head)
    if close < 0 or close > anchor or not m or re.match(r"\s*else\b", code[close + 1:]):
        return ""
    if_at = code.rfind("\n", start, brace) + 1 + len(head) - len(head.lstrip())
    cond_open = code.find("(", if_at)
    cond_close = match_close(code, cond_open)
    if cond_close < 0 or cond_close > brace or code[cond_close + 1:brace].strip():
        return ""
    if not on_path(code, start, if_at, anchor):
        return ""
    return " ".join(code[cond_open + 1:cond_close].split())


# Shapes whose site is the initialiser that the switch further down
# returns for what no case took: ioctl_switch_no_default changes it,
# ioctl_switch_add_default adds a default instead, ioctl_default_add_assign
# sets the answer in the default that lets the command out.
INITIALISERS = ("ioctl_switch_no_default", "ioctl_switch_add_default", "ioctl_default_add_assign")


def switches(code: str, fn: Function) -> list[tuple[int, int, int]]:
    """(keyword offset, '{', '}') of each switch in a body."""
    return [(sw.keyword, sw.brace, sw.end) for sw in ctext.switches(code, fn.body, fn.end)
            if 0 <= sw.brace < fn.end]


def anchor_of(cf: CFile, fn: Function, line: int, initialiser: bool | str = False) -> int:
    """Where the dispatch that holds the converted line starts.
    initialiser: the line sets the value that a switch without default,
    further down, returns for what no case took (ioctl_switch_no_default):
    that switch is the dispatch, and a check between the two answers an
    unknown command first (userfaultfd before UFFDIO_API); "chain": the
    last of several such switches is the dispatch."""
    off = cf.offset(line)
    inside = [s for s in switches(cf.code, fn) if s[1] < off < s[2]]
    if inside:
        return max(inside)[0]
    after = [s for s in switches(cf.code, fn) if s[0] > off]
    if initialiser == "chain" and after:
        # a chain of switches (ioctl_switch_chain): an unknown command
        # passes them all, and every check before the last one answers
        # it first (gpib's !board->online)
        tops = [s for s in after if not any(o[1] < s[0] < o[2] for o in after)]
        return tops[-1][0]
    if initialiser and after:
        return after[0][0]
    # a switch without default: the line after it answers what no case
    # took; not one inside a block closed before the line (tape_char's
    # switch on op.mt_op under `if (no == MTIOCTOP)`)
    before = [s for s in switches(cf.code, fn) if s[2] < off and on_path(cf.code, fn.body, s[0], off)]
    if before:
        return before[-1][0]
    return off


# --- guards before the dispatch ----------------------------------------------

@dataclass(frozen=True)
class Guard:
    line: int
    text: str        # the condition or call, shortened
    errno: str       # what it answers
    kind: str        # "unknown-command answer" (a check on the command alone),
                     # "command filter" (one that already answers -ENOTTY by
                     # the command's _IOC_* fields: not the patch's business),
                     # "command normaliser" (a call that rewrites &cmd from a table),
                     # "every command" (`if (cmd)`), "argument check", "state check",
                     # "no operation" (the site itself: the driver has no ->f)


_IF = re.compile(r"\bif\s*\(")


def _conditional_copy(code: str, after: int, limit: int) -> tuple[str, str] | None:
    """(condition, errno) when the block at after holds only
    `if (copy_from_user(..)) return -E..;` (or get_user()): a copy that
    the enclosing test of the command makes for some commands only."""
    k = after
    while k < limit and code[k] in " \t\n":
        k += 1
    if k >= limit or code[k] != "{":
        return None
    end = match_close(code, k)
    if end < 0 or end > limit:
        return None
    m = re.fullmatch(r"\s*if\s*\((.*)\)\s*\{?\s*return\s+-\s*(E[A-Z0-9]+)\s*;\s*\}?\s*", code[k + 1:end], re.S)
    if not m or not re.search(r"\b(copy_from_user|get_user)\s*\(", m.group(1)):
        return None
    return " ".join(m.group(1).split()), m.group(2)


def _then_branch(code: str, after: int, limit: int) -> str:
    """The statement an if runs, if it leaves unconditionally (return or goto), else ''."""
    k = after
    while k < limit and code[k] in " \t\n":
        k += 1
    if k < limit and code[k] == "{":
        end = match_close(code, k)
        block = code[k + 1:end]
        prof = depth_profile(block, 0, len(block))
        statements = [""]
        for i, c in enumerate(block):
            statements[-1] += c
            if c == ";" and prof[i] == 0:
                statements.append("")
        last = [st.strip() for st in statements if st.strip()]
        if not last or not re.match(r"(return|goto)\b", last[-1]):
            return ""
        return block
    end = code.find(";", k, limit)
    if end < 0:
        return ""
    text = code[k:end + 1]
    return text if re.match(r"(return|goto)\b", text) else ""


def operands(cond: str) -> list[str]:
    """The top-level && / || operands of a condition."""
    text = cond.strip()
    while text.startswith("(") and match_close(text, 0) == len(text) - 1:
        text = text[1:-1].strip()
    out, depth, cur, i = [], 0, "", 0
    while i < len(text):
        c = text[i]
        depth += c == "("
        depth -= c == ")"
        if depth == 0 and text[i:i + 2] in ("&&", "||"):
            out.append(cur.strip())
            cur, i = "", i + 2
            continue
        cur += c
        i += 1
    out.append(cur.strip())
    return [o for o in out if o]


def _callee_errnos(cf: CFile, callee: str, converted: AbstractSet[int] = frozenset()) -> set[str]:
    """The errnos callee returns, but on the lines the series converts: a
    lookup helper whose table miss the series changes (floppy's
    normalize_ioctl(), ioctl_lookup_miss) no longer answers the old value."""
    out: set[str] = set()
    for fn in functions(cf, callee):
        for m in re.finditer(r"\breturn\s+-\s*(E[A-Z0-9]+)\s*;", cf.code[fn.body:fn.end]):
            if cf.line_of(fn.body + m.start()) not in converted:
                out.add(m.group(1))
    return out


def argument_names(code: str, fn: Function) -> set[str]:
    """The handler's argument (its last parameter, `arg`) and the locals
    set from it (`argp = (void __user *)arg`): a check of one of them is
    an argument check; `data->zombie` on the device's data is not."""
    last = re.findall(r"(\w+)\s*$", fn.params.split(",")[-1].strip()) if fn.params.strip() else []
    names = set(last)
    for m in re.finditer(r"\b(\w+)\s*=\s*([^;=]*);", code[fn.body:fn.end]):
        if last and _mentions(m.group(2), last[0]):
            names.add(m.group(1))
    return names


# A check before the dispatch that answers -ENOTTY for a class of commands
# by their number alone (another _IOC_TYPE, an _IOC_NR out of range): no
# unknown command it takes sees the patch, so the message says which do.
COMMAND_FILTER = "command filter"
_IOC_FIELD = re.compile(r"\b_IOC_(TYPE|NR|DIR|SIZE)\s*\(")


def _command_filter(cond: str, cmd: str) -> bool:
    """Whether every operand of cond tests a field (_IOC_TYPE(), _IOC_NR(),
    ...) of the command and nothing of the state or the argument."""
    terms = operands(cond)
    return bool(terms) and all(_mentions(t, cmd) and _IOC_FIELD.search(t) for t in terms)


def _direction_only(cond: str, cmd: str) -> bool:
    """cond tests the command only by its direction and by name (dvb's
    `O_RDONLY && (_IOC_DIR(cmd) != _IOC_READ || cmd == FE_GET_EVENT)`
    -> -EPERM): an unknown command of that direction fails it first."""
    rest = re.sub(r"\b_IOC_DIR\s*\(\s*%s\s*\)|\b%s\s*==\s*[A-Z_][A-Z0-9_]*" % (re.escape(cmd), re.escape(cmd)),
                  "", cond)
    return rest != cond and "_IOC_DIR" in cond and not _mentions(rest, cmd)


# A test of the command's class (not of named commands) whose branch
# returns what another handler answers: pcm_oss hands every 'M' command to
# the OSS mixer before its own 'P' test.  Its Guard's errno is the callee.
HAND_OFF = "hand-off"
# An assertion's condition (`snd_BUG_ON(idx >= 2)`): the return under it
# answers no command.
_ASSERTION = r"(?:unlikely\s*\(\s*)?(?:WARN_ON|WARN_ON_ONCE|BUG_ON|snd_BUG_ON)\b"
_ASSERTED = re.compile(r"\bif\s*\(\s*" + _ASSERTION + r"[^;]*;")


def _hand_off(then: str, cond: str, cmd: str) -> str:
    """The function a class test hands the command to, or ''."""
    m = re.search(r"\breturn\s+(\w+)\s*\(([^;]*)\)\s*;\s*\}?\s*$", then)
    if not m or not re.search(r"\b%s\b" % re.escape(cmd), m.group(2)):
        return ""
    # the command's type, as _IOC_TYPE() or a shift reads it: mptctl's
    # `(cmd & ~IOCSIZE_MASK) == (MPTIOCINFO & ~IOCSIZE_MASK)` names a command
    of_type = re.compile(r"\b_IOC_TYPE\s*\(\s*%s\s*\)|\b%s\s*>>\s*(?:8|_IOC_TYPESHIFT)\b"
                         % (re.escape(cmd), re.escape(cmd)))
    terms = operands(cond)
    if not terms or not all(of_type.search(t) for t in terms):
        return ""
    return m.group(1)


def _with_directive(cf: CFile, fn: Function, line: int, cond: str) -> str:
    """cond, prefixed with the innermost #if still open at its line
    ('#if IS_REACHABLE(CONFIG_SND_MIXER_OSS): cond')."""
    open_ = _open_directives(cf, cf.line_of(fn.body), line)
    return f"{open_[-1]}: {cond}" if open_ else cond


def _open_directives(cf: CFile, first: int, line: int) -> list[str]:
    """The #if directives still open at line, counted from first."""
    stack: list[str] = []
    for text in cf.raw.splitlines()[first - 1:line - 1]:
        m = _DIRECTIVE.match(text)
        if not m:
            continue
        if m.group(1).startswith("if"):
            stack.append(f"#{m.group(1)}{m.group(2).rstrip()}")
        elif m.group(1) == "endif" and stack:
            stack.pop()
    return stack


def guards(cf: CFile, fn: Function, anchor: int, skip_lines: set[int]) -> list[Guard]:
    """Early returns of an old answer on the way from the body to anchor."""
    code = cf.code
    cmd = cmd_param(fn)
    argument = argument_names(code, fn) - {cmd}
    found = []
    for m in _IF.finditer(code, fn.body, anchor):
        outer = ""
        if not on_path(code, fn.body, m.start(), anchor):
            # usbtest_ioctl(): `if (dev->info->alt >= 0) { if (...) { retval =
            # -ENODEV; goto free_mutex; } ... }`: a check one plain if deep
            outer = _enclosing_if(code, fn.body, m.start(), anchor)
            if not outer:
                continue
        line = cf.line_of(m.start())
        cond_close = match_close(code, m.end() - 1)
        if cond_close < 0 or cond_close > anchor:
            continue
        cond = " ".join(code[m.end():cond_close].split())
        if outer:
            cond = f"{outer} && {cond}"
        prev_word = code[max(fn.body, m.start() - 6):m.start()]
        if "else" in prev_word:
            continue
        then = _then_branch(code, cond_close + 1, anchor)
        copy = _conditional_copy(code, cond_close + 1, anchor) if not then and _mentions(cond, cmd) else None
        if copy:
            # landisk's gio_ioctl(): `if (cmd & 0x01) { if (copy_from_user(..))
            # return -EFAULT; }` copies the argument of every odd number
            found.append(Guard(line, f"{cond} && {copy[0]}", copy[1], "argument check"))
            continue
        if not re.search(r"\b(return|goto)\b", then):
            continue
        last = cf.line_of(code.find(then, cond_close) + len(then))
        if skip_lines & set(range(line, last + 1)):
            continue          # the series converts this check itself
        errnos = set(_ERRNO.findall(then))
        handed = _hand_off(then, cond, cmd)
        if handed and not _ERRNO.findall(_ASSERTED.sub("", then)):
            # the condition as written: the cleaned code blanks 'M'
            written = " ".join(cf.raw[m.end():cond_close].split())
            found.append(Guard(line, _with_directive(cf, fn, line, written), handed, HAND_OFF))
            continue
        via = ""
        if not errnos and re.search(r"\bgoto\b", then):
            # `ret = -EBADFD; if (!tun) goto unlock;` (tun): the value set
            # just before the test is what the jump returns
            before = code[max(fn.body, m.start() - 120):m.start()]
            set_just_before = re.search(r"\b\w+\s*=\s*-\s*(E[A-Z0-9]+)\s*;\s*$", before)
            if set_just_before:
                errnos = {set_just_before.group(1)}
        if not errnos:
            ret = re.search(r"\breturn\s+(\w+)\s*;", then)
            var = ret.group(1) if ret else (cond.strip("!() ") if re.fullmatch(r"!?\(?\w+\)?", cond) else "")
            if not var:
                continue
            call = None
            for c in re.finditer(r"\b%s\s*=\s*(\w+)\s*\(([^;]*)\)\s*;" % re.escape(var),
                                 code[fn.body:m.start()]):
                call = c
            if not call:
                continue
            via = call.group(1)
            errnos = _callee_errnos(cf, via, skip_lines)
            cond = f"{via}({' '.join(call.group(2).split())})"
        if errnos and errnos <= {"ENOTTY", "ENOIOCTLCMD"} and _command_filter(cond, cmd):
            # autofs_root_ioctl_unlocked()'s type and number range test: a
            # command it fails never reaches the dispatch, and already got
            # ENOTTY; what the patch changes is the rest (the message says so)
            # said by the fields it tests, which the message words
            tested = dict.fromkeys(f"_IOC_{f}({cmd})" for f in _IOC_FIELD.findall(cond))
            found.append(Guard(line, "by " + ", ".join(tested), sorted(errnos)[-1], COMMAND_FILTER))
            continue
        old = sorted(errnos & set(OLD_ANSWERS))
        # Another answer before the dispatch (-EBADFD for a tun fd not yet
        # attached, -EPERM without CAP_SYS_ADMIN) also keeps an unknown
        # command from ENOTTY while it holds: a state or argument check.
        other = sorted(errnos - set(OLD_ANSWERS) - {"ENOTTY", "ENOIOCTLCMD"} - set(TRANSIENT))
        if not old and not (other and (not _mentions(cond, cmd) or _direction_only(cond, cmd))):
            continue
        old = old or other
        if re.match(_ASSERTION, cond):
            continue          # an assertion, not an answer
        terms = operands(cond)
        equality = re.compile(r"\b%s\s*==\s*[A-Z_][A-Z0-9_]*" % re.escape(cmd))
        cmd_terms = [t for t in terms if _mentions(t, cmd)]
        if cmd_terms and all(equality.search(t) and not _mentions(equality.sub("", t), cmd)
                             and "!" not in t.replace("!=", "") for t in cmd_terms):
            continue          # refuses named known commands only
        copied = set(re.findall(r"\bcopy_from_user\s*\(\s*&?\s*(\w+)", code[fn.body:m.start()]))
        if all(_mentions(t, cmd) for t in terms):
            if via and re.search(r"&\s*%s\b" % re.escape(cmd), cond):
                kind = "command normaliser"
            elif re.fullmatch(r"\(?\s*%s\s*\)?" % re.escape(cmd), cond):
                kind = "every command"
            else:
                kind = "unknown-command answer"
        elif any(re.search(r"\b(copy_from_user|get_user)\s*\(", t)   # mptctl's header
                 or any(_mentions(t, v) for v in copied | argument)
                 for t in terms if not _mentions(t, cmd)):
            kind = "argument check"
        else:
            kind = "state check"
        found.append(Guard(line, cond if len(cond) <= 60 else cond[:57] + "...", old[0], kind))
    return found


# The answer a dispatcher gives when the driver behind it has no operation
# for the command at all: `if (!ops->f) return -EINVAL;`, `if (ops->f) ret =
# ops->f(..); else ret = -EINVAL;`, or the return after `if (ops->f) return
# ops->f(..);` (uacce's default, dmasound's mixer_ioctl()).  Drivers that
# provide the operation answer for themselves, so this line is what user
# space sees only on a driver without one.
_OP = r"([A-Za-z_][\w.]*(?:->\w+|\.\w+)+)"
_MISSING_OP = (
    re.compile(r"\bif\s*\(\s*(?:unlikely\s*\(\s*)?!\s*" + _OP + r"\s*\)?\s*\)\s*\{?\s*$"),
    re.compile(r"\bif\s*\(\s*" + _OP + r"\s*\)\s*[^;{}]*;\s*else\s*\{?\s*$"),
    re.compile(r"\bif\s*\(\s*" + _OP + r"\s*\)\s*return\b[^;{}]*;\s*$"),
)


def missing_operation(cf: CFile, fn: Function, line: int) -> str:
    """The operation (uacce->ops->ioctl) whose absence is the only way to
    the site's line, or ""."""
    before = cf.code[fn.body + 1:cf.offset(line)]
    for pattern in _MISSING_OP:
        m = pattern.search(before)
        if m:
            return m.group(1)
    # a local holding the operation (drm_ioctl(): func = ioctl->func;
    # if (unlikely(!func)) { ..; retcode = -EINVAL; goto err_i1; })
    m = _MISSING_LOCAL.search(before)
    if m:
        held = re.findall(r"\b%s\s*=(?!=)\s*([^;]*);" % re.escape(m.group(1)), before[:m.start()])
        if held and re.fullmatch(r"\s*" + _OP + r"\s*", held[-1]):
            return held[-1].strip()
    return ""


_MISSING_LOCAL = re.compile(r"\bif\s*\(\s*(?:unlikely\s*\(\s*)?!\s*([A-Za-z_]\w*)\s*\)?\s*\)\s*\{[^{}]*$")


def callers(cf: CFile, name: str) -> list[tuple[Function, int]]:
    """(caller, offset of the call) for in-file calls of name, and for
    calls that hand name on with the caller's command: dvb_frontend_ioctl()
    calls `dvb_usercopy(file, cmd, arg, dvb_frontend_do_ioctl)`."""
    out = []
    for fn in functions(cf):
        if fn.name == name:
            continue
        body = cf.code[fn.body:fn.end]
        for m in re.finditer(r"\b%s\s*\(" % re.escape(name), body):
            out.append((fn, fn.body + m.start()))
        for m in re.finditer(r"([(,])\s*&?\s*%s\s*[,)]" % re.escape(name), body):
            call = _enclosing_call(body, m.start(1))
            if call is not None and _mentions(body[call:m.end()], cmd_param(fn)):
                out.append((fn, fn.body + call))
    return out


def _enclosing_call(body: str, at: int) -> int | None:
    """Offset of the name of the call whose argument list holds at (the
    `(` or `,` before an argument); None outside a call."""
    depth = 0
    for k in range(at, -1, -1):
        c = body[k]
        if c == ")":
            depth += 1
        elif c == "(":
            if depth == 0:
                name = re.search(r"(\w+)\s*$", body[:k])
                return name.start(1) if name else None
            depth -= 1
        elif c in ";{}" and depth == 0:
            return None
    return None


# --- #if twins ------------------------------------------------------------------

_DIRECTIVE = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)$")


def conditional_groups(cf: CFile, first: int, last: int) -> list[list[tuple[int, int, str]]]:
    """Each #if group inside lines [first, last] as branches (from, to, directive)."""
    stack: list[list[tuple[int, int, str]]] = []
    groups = []
    lines = cf.raw.splitlines()
    for n in range(first, min(last, len(lines)) + 1):
        m = _DIRECTIVE.match(lines[n - 1])
        if not m:
            continue
        kind = m.group(1)
        directive = f"#{kind}{m.group(2).rstrip()}"
        if kind.startswith("if"):
            stack.append([(n, n, directive)])
        elif stack and kind in ("elif", "else"):
            a, _, d = stack[-1][-1]
            stack[-1][-1] = (a, n, d)
            stack[-1].append((n, n, directive))
        elif stack and kind == "endif":
            a, _, d = stack[-1][-1]
            stack[-1][-1] = (a, n, d)
            groups.append(stack.pop())
    return groups


def other_branch_answer(cf: CFile, group: list[tuple[int, int, str]], mine: tuple[int, int, str],
                        errnos: re.Pattern[str], skip: AbstractSet[int] = frozenset()
                        ) -> tuple[int, str, str] | None:
    """(line, errno, directive) of the first answer matching errnos in a
    branch of the #if group other than mine, lines in skip aside."""
    for a, b, directive in group:
        if (a, b, directive) == mine:
            continue
        for n in range(a + 1, b):
            m = re.search(r"(?:return|=)\s*-\s*(E[A-Z0-9]+)\b", cf.line_text(n))
            if m and errnos.fullmatch(m.group(1)) and n not in skip:
                return n, m.group(1), directive
    return None


_OLD_ANSWER = re.compile(r"EINVAL|ENOSYS")


def twin_branches(cf: CFile, fn: Function, line: int, converted: set[int]) -> str:
    """'all', or which #if branch keeps an old answer the patch does not touch."""
    first, last = cf.line_of(fn.start), cf.line_of(fn.end)
    for group in sorted(conditional_groups(cf, first, last), key=lambda g: g[0][0], reverse=True):
        mine = [b for b in group if b[0] < line < b[1]]
        if not mine:
            continue
        kept = other_branch_answer(cf, group, mine[0], _OLD_ANSWER, converted)
        if kept:
            n, errno, directive = kept
            return f"{directive.split()[0]} branch (of {group[0][2]}) keeps -{errno} at line {n}"
        twins = [b for b in group if b != mine[0]]
        if len(group) == 2 and mine[0] == group[1] and group[1][2].startswith("#else") and any(
                re.search(r"\breturn\s*\(?\s*-\s*ENOIOCTLCMD\b", cf.line_text(n))
                for a, b, _d in twins for n in range(a + 1, b)):
            # sisfb_ioctl(): #ifdef SIS_NEW_CONFIG_COMPAT return -ENOIOCTLCMD;
            # #else return -EINVAL; the other branch already reaches user
            # space as ENOTTY, so only the configuration of this one changes
            cfg = absent_when(group[0][2], negate=False)
            if cfg != "config":
                return (f"only with {cfg} (the other branch of {group[0][2]} answers -ENOIOCTLCMD,"
                        " which user space already sees as ENOTTY)")
        answers_too = any(n in converted or re.search(
            r"(?:return|=)\s*-\s*E(?:INVAL|NOSYS|NOIOCTLCMD|NOTTY)\b", cf.line_text(n))
            for a, b, _d in twins for n in range(a + 1, b))
        if len(group) == 2 and group[1][2].startswith("#else") and not answers_too:
            # he_ioctl(): the #ifdef CONFIG_ATM_HE_USE_SUNI branch hands the
            # command to the PHY, the #else one answers -EINVAL: the change
            # is one of that configuration only
            cfg = absent_when(group[0][2], negate=mine[0] == group[0])
            if cfg != "config":
                return f"only with {cfg} (the other branch of {group[0][2]} answers otherwise)"
    # a second definition of the same function under another #if branch
    for other in functions(cf, fn.name):
        if other.start == fn.start:
            continue
        body = cf.code[other.body:other.end]
        for m in re.finditer(r"(?:return|=)\s*-\s*(EINVAL|ENOSYS)\b", body):
            n = cf.line_of(other.body + m.start())
            if n not in converted:
                return f"other definition of {fn.name}() keeps -{m.group(1)} at line {n}"
    return "all"


# --- uapi families -----------------------------------------------------------------

_IOC_DEFINE = re.compile(
    r"^\s*#\s*define\s+([A-Z_][A-Z0-9_]*)\s+_S?IO(?:R|W|WR)?\s*\(\s*([^,)]+?)\s*,", re.M)
_IOC_VALUE = re.compile(r"^\s*#\s*define\s+([A-Z_][A-Z0-9_]*)\s+(_S?IO(?:R|W|WR)?\s*\([^)]*\))", re.M)
# A header's own wrapper of _IO*() with the type fixed (omapfb.h's
# `#define OMAP_IOW(num, dtype) _IOW('O', num, dtype)`), and the commands
# defined through one (`#define OMAPFB_MIRROR OMAP_IOW(31, int)`).
_IOC_WRAPPER = re.compile(
    r"^\s*#\s*define\s+([A-Z_][A-Z0-9_]*)\(([^)]*)\)\s+_S?IO(?:R|W|WR)?\s*\(\s*([^,)]+?)\s*,", re.M)
_WRAPPED_DEFINE = r"^\s*#\s*define\s+([A-Z_][A-Z0-9_]*)\s+(%s)\s*\("
# An enum member with an _IO*() value (xe_drm.h's
# `DRM_XE_OBSERVATION_IOCTL_ENABLE = _IO('i', 0x0),`).
_IOC_ENUM = re.compile(r"^\s*([A-Z_][A-Z0-9_]*)\s*=\s*(_S?IO(?:R|W|WR)?\s*\(\s*([^,)]+?)\s*,[^)]*\))", re.M)


# What a header leaves out for every reader (fs.h's BLKELVGET, BLKELVSET).
_IF_ZERO = re.compile(r"^\s*#\s*if\s+0\b.*?^\s*#\s*endif\b[^\n]*$", re.M | re.S)
_NUMBER_DEFINE = re.compile(r"^\s*#\s*define\s+([A-Z_][A-Z0-9_]*)\s+0x([0-9a-fA-F]{2})([0-9a-fA-F]{2})\b", re.M)


def _numbered_commands(text: str, kinds: set[str]) -> list[tuple[str, str]]:
    """(name, type) of the commands a header defines as a plain number
    whose type byte is a character type the header's _IO*() use (fb.h's
    FBIO_ALLOC 0x4613 beside FBIOGET_VBLANK _IOR('F', 0x12, ...))."""
    out = []
    for m in _NUMBER_DEFINE.finditer(text):
        kind = f"'{chr(int(m.group(2), 16))}'"
        if kind in kinds:
            out.append((m.group(1), kind))
    return out


def _wrapped_commands(text: str) -> list[tuple[str, str]]:
    """(name, type) of the commands a header defines through its wrappers."""
    wrappers = {m.group(1): m.group(3) for m in _IOC_WRAPPER.finditer(text)
                if m.group(3).strip() not in {p.strip() for p in m.group(2).split(",")}}
    if not wrappers:
        return []
    pattern = re.compile(_WRAPPED_DEFINE % "|".join(map(re.escape, wrappers)), re.M)
    return [(m.group(1), wrappers[m.group(2)]) for m in pattern.finditer(text)]


class Uapi:
    """Ioctl command macros of a tree's uapi headers: name -> (header, type)."""

    def __init__(self, tree: Path):
        self.tree = tree
        self.commands: dict[str, tuple[str, str]] = {}
        self.families: dict[tuple[str, str], list[str]] = {}
        # name -> its _IO*() as written, spaces dropped: two names with the
        # same one are one command (VFIO_IOMMU_DIRTY_PAGES is
        # VFIO_DEVICE_FEATURE, which the VFIO core answers itself)
        self.values: dict[str, str] = {}
        generic: set[str] = set()
        roots = [tree / "include/uapi"] + sorted(tree.glob("arch/*/include/uapi"))
        for root in roots:
            for header in sorted(root.rglob("*.h")):
                rel = str(header.relative_to(tree))
                text = _IF_ZERO.sub("", header.read_text(errors="replace"))
                if root == roots[0]:
                    # names the generic headers define in any form (FIONREAD
                    # is a number there, an _IOR() on some architectures)
                    generic |= set(re.findall(r"^\s*#\s*define\s+(\w+)", text, re.M))
                found = [(m.group(1), m.group(2)) for m in _IOC_DEFINE.finditer(text)]
                found += [(m.group(1), m.group(3)) for m in _IOC_ENUM.finditer(text)]
                if rel.startswith("include/uapi/linux/"):
                    # not asm-generic's or an architecture's ioctls.h: their
                    # numbers (TCGETS, FIONREAD) are every file's
                    found += _numbered_commands(text, {" ".join(kind.split()) for _, kind in found})
                for m in [*_IOC_VALUE.finditer(text), *_IOC_ENUM.finditer(text)]:
                    self.values.setdefault(m.group(1), "".join(m.group(2).split()))
                for name, kind in found + _wrapped_commands(text):
                    kind = " ".join(kind.split())
                    if root != roots[0] and name in generic:
                        continue
                    if name not in self.commands:
                        self.commands[name] = (rel, kind)
                        self.families.setdefault((rel, kind), []).append(name)


def _case_value(label: str) -> str:
    """The value of a case label as ctext.top_labels finds it: case X: -> X."""
    return label[len("case"):-1].strip()


def arms_matching(code: str, fn: Function, pattern: re.Pattern[str]) -> list[list[str]]:
    """The labels of each case group of fn's switches whose body matches
    pattern (a call that hands the command on)."""
    return [labels for sw in switches(code, fn) for labels, text in case_groups(code, sw)
            if pattern.search(text)]


def case_groups(code: str, sw: tuple[int, int, int]) -> list[tuple[list[str], str]]:
    """(labels, body) of each case group of a switch, default as 'default'.

    A group that ends in `fallthrough;` joins the next one: its commands
    get that group's treatment too.
    """
    _, open_, close = sw
    body = code[open_ + 1:close]
    labels_at = ctext.top_labels(body)
    groups: list[tuple[list[str], str]] = []
    pending: list[str] = []
    for i, (start, label_end, is_default) in enumerate(labels_at):
        pending.append("default" if is_default else _case_value(body[start:label_end]))
        end = labels_at[i + 1][0] if i + 1 < len(labels_at) else len(body)
        text = body[label_end:end]
        if text.strip() and not re.search(r"\bfallthrough\s*;\s*$", text):
            groups.append((pending, text))
            pending = []
    if pending:
        groups.append((pending, ""))
    return groups


class Tree:
    """A kernel tree read once per file."""

    def __init__(self, root: Path):
        self.root = root
        self._files: dict[str, CFile | None] = {}
        self._uapi: Uapi | None = None

    def file(self, rel: str) -> CFile | None:
        if rel not in self._files:
            path = self.root / rel
            self._files[rel] = CFile(rel, path.read_text(errors="replace")) if path.is_file() else None
        return self._files[rel]

    def has_compat(self, rel: str) -> bool:
        """Whether a kernel with rel in it can have CONFIG_COMPAT: False
        for a file under arch/ARCH/, or one the Makefiles build only with
        an architecture's own symbol (drivers/Makefile: obj-$(CONFIG_S390)
        += s390/), when no Kconfig of that architecture defines COMPAT (um,
        m68k, arm; s390 since 7.x: vfio_ap has no 32-bit callers), True
        elsewhere."""
        parts = rel.split("/")
        arch = parts[1] if parts[0] == "arch" and len(parts) >= 3 else self._building_arch(rel)
        return not arch or "COMPAT" in kconfig.arch_symbols(self.root, arch)

    def _building_arch(self, rel: str) -> str:
        """The architecture whose own symbol (CONFIG_S390 for arch/s390)
        the build of rel needs, or ''."""
        try:
            symbols = kconfig.build_symbols(self.root, rel)
        except kconfig.DerivationError:
            return ""
        for sym in symbols:
            name = sym.removeprefix("CONFIG_").lower()
            if (self.root / "arch" / name / "Kconfig").is_file():
                return name
        return ""

    @property
    def uapi(self) -> Uapi:
        if self._uapi is None:
            self._uapi = Uapi(self.root)
        return self._uapi

    def filtered(self, interface: str) -> tuple[set[str], bool] | None:
        """(commands the core answers itself, whether the rest are passed on),
        from the switches of the interface's core_filters, which run before
        the driver's handler: a non-forwarding case's commands never reach it."""
        row = interfaces.row(interface)
        specs = row.core_filters if row else ()
        if not specs:
            return None
        taken: set[str] = set()
        for spec in specs:
            cf = self.file(spec.file)
            fns = functions(cf, spec.function) if cf else []
            if cf is None or not fns:
                return None
            for sw in _command_switches(cf.code, fns[0]):
                for labels, text in case_groups(cf.code, sw):
                    if spec.forward is None or not re.search(spec.forward, text):
                        taken |= {lab for lab in labels if lab != "default"}
            # commands the core tests by name outside its switch: counted as
            # taken, so that no command is called uncased on a guess
            body = cf.code[fns[0].body:fns[0].end]
            taken |= set(re.findall(r"\bcmd\s*==\s*([A-Z_][A-Z0-9_]*)", body))
        return taken, True


def _command_switches(code: str, fn: Function) -> list[tuple[int, int, int]]:
    """The core's switches on the command: the first top-level switch and
    any later top-level one on the same expression (vfio's cdev-only
    switch, then its switch for every device fd)."""
    found = switches(code, fn)
    tops = [s for s in found if not any(o[1] < s[0] < o[2] for o in found)]

    def head(s: tuple[int, int, int]) -> str:
        return " ".join(code[s[0]:s[1]].split())
    return [s for s in tops if head(s) == head(tops[0])] if tops else []


def callees(cf: CFile, name: str, depth: int = 3) -> set[str]:
    """The in-file functions name calls, directly or through others, up to depth levels."""
    bodies = {f.name: cf.code[f.body:f.end] for f in functions(cf)}
    seen: set[str] = set()
    frontier = {name}
    for _ in range(depth):
        nxt = {other for f in frontier if f in bodies for other in bodies
               if other not in seen and other != f and _calls(bodies[f], other)}
        seen |= nxt
        frontier = nxt
    return seen - {name}


def _calls(body: str, name: str) -> bool:
    return re.search(r"\b%s\s*\(" % re.escape(name), body) is not None


def mentioned_on_path(cf: CFile, fn: Function) -> set[str]:
    """Upper-case names the handler's path mentions: the file outside any
    function (macros, tables) and the functions that call fn or that fn or
    its callers call.  A command named only by another handler of the file
    (linehandle_ioctl()'s GPIOHANDLE_SET_* beside lineevent_ioctl()) is no
    case of this one."""
    path = chain(cf, fn.name)
    path |= {c for name in set(path) for c in callees(cf, name)}
    text = list(cf.code)
    for other in functions(cf):
        if other.name not in path:
            text[other.body:other.end + 1] = " " * (other.end + 1 - other.body)
    return set(re.findall(r"\b[A-Z_][A-Z0-9_]+\b", "".join(text)))


_IFDEF = re.compile(r"#\s*(ifdef|ifndef)\s+(\w+)$")
_IF_CONFIG = re.compile(r"#\s*if\s+(?:(?:IS_ENABLED|IS_BUILTIN|defined)\s*\(\s*(\w+)\s*\)|(\w+))$")


def absent_when(directive: str, negate: bool) -> str:
    """The configuration in which the branch that directive opens is left out
    ('CONFIG_GPIO_CDEV_V1=n' for `#ifdef CONFIG_GPIO_CDEV_V1`); negate: the
    branch is that directive's #else.  'config' when the condition is no
    single symbol."""
    m = _IFDEF.match(directive.strip())
    if m:
        on = (m.group(1) == "ifdef") != negate
        name = m.group(2)
    else:
        m2 = _IF_CONFIG.match(directive.strip())
        if not m2:
            return "config"
        on, name = not negate, m2.group(1) or m2.group(2)
    if not name.startswith("CONFIG_"):
        return f"{name} {'undefined' if on else 'defined'}"
    return f"{name}={'n' if on else 'y'}"


NEVER = "never"     # a conditional case the file itself never builds


@functools.lru_cache(maxsize=None)
def _arch_deps(root: Path, arch: str) -> kconfig.KconfigDeps:
    return kconfig.KconfigDeps(root, arch)


def _always_built(root: Path, rel: str, when: str) -> bool:
    """when is CONFIG_X=n for an architecture's X that the file's own build
    needs: ocxl's #ifdef CONFIG_PPC64 case is always there (OCXL depends on
    PPC_POWERNV, which depends on PPC64), so no configuration leaves it out."""
    m = re.fullmatch(r"CONFIG_(\w+)=n", when)
    if not m:
        return False
    arches = [a for a in sorted(os.listdir(root / "arch")) if (root / "arch" / a).is_dir()
              and m.group(1) in kconfig.arch_symbols(root, a)]
    if len(arches) != 1:
        return False
    try:
        needed = kconfig.build_symbols(root, rel)
    except kconfig.DerivationError:
        return False
    return m.group(1) in _arch_deps(root, arches[0]).closure(needed)[0]


def _never_defined(code: str, name: str) -> bool:
    """The file #undefs name and #defines it nowhere: its #ifdef is dead."""
    return re.search(r"^\s*#\s*undef\s+%s\b" % re.escape(name), code, re.M) is not None and \
        re.search(r"^\s*#\s*define\s+%s\b" % re.escape(name), code, re.M) is None


def _tagged(name: str, when: str) -> str:
    """An uncased command with the configuration that leaves its case out."""
    return f"{name}[{when}]"


def conditional_labels(cf: CFile, sw: tuple[int, int, int]) -> dict[str, str]:
    """Case labels of a switch that only one #if branch inside it holds:
    label -> the configurations that leave it out (absent_when), joined by
    WHEN_SEP, the innermost last: via-pmu's PMU_IOC_GRAB_BACKLIGHT is under
    CONFIG_INPUT_ADBHID inside CONFIG_PMAC_BACKLIGHT_LEGACY, so either =n
    leaves it out."""
    first, last = cf.line_of(sw[1]), cf.line_of(sw[2])
    out: dict[str, str] = {}
    seen: dict[str, int] = {}
    body = cf.code[sw[1] + 1:sw[2]]
    labels = [(_case_value(body[start:end]), cf.line_of(sw[1] + 1 + start))
              for start, end, is_default in ctext.top_labels(body) if not is_default]
    groups = conditional_groups(cf, first, last)
    for label, line in labels:
        seen[label] = seen.get(label, 0) + 1
        inner = [(g, b) for g in groups for b in g if b[0] < line < b[1]]
        if not inner:
            continue
        whens: list[str] = []
        for group, branch in sorted(inner, key=lambda gb: gb[1][0]):     # the outermost first
            negate = branch[2].startswith("#else")
            when = absent_when(group[0][2] if negate else branch[2], negate) \
                if branch[2].startswith(("#if", "#else")) else "config"
            if when.endswith(" undefined") and _never_defined(cf.code, when.split()[0]):
                # lp.c: #undef LP_STATS, and no #define of it ("never LP_STATS")
                whens = [f"{NEVER} {when.split()[0]}"]
                break
            if when not in whens:
                whens.append(when)
        out[label] = WHEN_SEP.join(whens)
    return {k: v for k, v in out.items() if seen[k] == 1}


WHEN_SEP = ";"


def each_condition(conditional: dict[str, str]) -> list[tuple[str, str]]:
    """(label, configuration) for every configuration that leaves a
    conditional_labels() label out."""
    return [(name, when) for name, whens in conditional.items() for when in whens.split(WHEN_SEP)]


def dispatch_labels(cf: CFile, fn: Function, site: Site) -> tuple[set[str], dict[str, str]] | None:
    """(commands the dispatch holding the site names, those it names under
    an #if only -> absent_when), or None when the line is in no dispatch."""
    code = cf.code
    off = cf.offset(site.line)
    found = switches(code, fn)
    inside = [s for s in found if s[1] < off < s[2]]
    before = [s for s in found if s[2] < off]
    after = [s for s in found if s[0] > off]
    if inside:
        sw = max(inside)
    elif site.rule in INITIALISERS and before:
        sw = before[-1]
    elif site.rule in INITIALISERS and after:
        # the initialiser before the switch that keeps it (via-pmu's
        # int error = -EINVAL;): that switch's cases
        sw = after[0]
    elif site.rule == "ioctl_cmd_range_split":
        # if (S || cmd < A || cmd > B): the commands inside the range are
        # known ones, and no name says which
        return set(), {}
    elif site.rule in ("ioctl_if_chain", "ioctl_cmd_state_split"):
        # ioctl_cmd_state_split: if (cmd != A || S), the commands tested
        # by != are the known ones.
        op = "==" if site.rule == "ioctl_if_chain" else "!="
        cmd = re.escape(cmd_param(fn))
        body = code[fn.body:fn.end]
        named = set(re.findall(r"\b%s\s*%s\s*([A-Z_][A-Z0-9_]*)" % (cmd, op), body))
        named |= set(re.findall(r"\b([A-Z_][A-Z0-9_]*)\s*%s\s*%s\b" % (op, cmd), body))
        return named, {}
    else:
        return None
    labels = {lab for labels, _ in case_groups(code, sw) for lab in labels}
    return labels, conditional_labels(cf, sw)


# Interfaces whose core answers commands of every file, not of one kind of
# device: do_vfs_ioctl()'s FIONREAD and FS_IOC_* are no driver's family.
GENERIC_CORES = frozenset({"file_operations"})


def _arch_only_absent(header: str, when: str) -> bool:
    """Whether a command of header (arch/sparc/include/uapi/...) is named
    under a condition that is false on exactly that architecture
    ('__sparc__ undefined', 'CONFIG_SPARC=n')."""
    parts = header.split("/")
    if parts[0] != "arch":
        return False
    arch = parts[1].lower()
    name = when.split()[0].split("=")[0].lower().strip("_").removeprefix("config_")
    return name.startswith(arch) and (when.endswith("undefined") or when.endswith("=n"))


def uncased_commands(tree: Tree, cf: CFile, fn: Function, site: Site,
                     calling: list[tuple[CFile, str]] | None = None) -> str:
    """Known commands of the handled family that reach the converted line,
    comma-separated, or '-': those with no case, and those whose case only
    one #if branch holds, as NAME[CONFIG_X=n] (absent_when).  None for a
    handler that gets a sub-command (usbfs: the ioctl_code of USBDEVFS_IOCTL,
    so the other USBDEVFS_* never reach it as such).  calling: for a helper
    in a header, the files of its handlers, which handle commands before
    the call (tap.c and tun.c before tun_vnet_ioctl()): a command is listed
    only when none of them names it, so that the message's sentence holds
    for every caller (tun handles TUNGETDEVNETNS, which tap hands on)."""
    row = interfaces.row(site.interface)
    if row and row.subcommand:
        return "-"
    refused = _refused_first(cf, fn, site)
    if refused:
        return ",".join(f"{name}[{REFUSED}]" for name in refused)
    helped = helper_commands(tree, cf, fn, site)
    branch = [f"{name}[branch {selector}]" for name, selector in other_branch_commands(cf, fn, site)]
    found = dispatch_labels(cf, fn, site)
    if found is None:
        return ",".join(helped + branch) or "-"
    labels, conditional = found
    built = [(name, when) for name, when in each_condition(conditional)
             if not _always_built(tree.root, cf.path, when)]
    uapi = tree.uapi
    filtered = tree.filtered(site.interface)
    taken = filtered[0] if filtered else set()
    families = {uapi.commands[lab] for lab in labels if lab in uapi.commands}
    if row and row.struct not in GENERIC_CORES:
        # the core's own commands are the device's family too: do_fb_ioctl()
        # hands sstfb_ioctl() FBIOGET_VBLANK, which <linux/fb.h> defines
        # beside the commands the core answers itself
        families |= {uapi.commands[n] for n in taken if n in uapi.commands}
    if not families:
        # no uapi family (sit's SIOCGET6RD is SIOCDEVPRIVATE + 8): a case
        # that only one #if branch holds still reaches the line without it
        absent = sorted(_tagged(name, when) for name, when in built
                        if re.fullmatch(r"[A-Z][A-Z0-9_]+", name) and "COMPAT" not in when)
        return ",".join(absent + [h for h in helped if h.partition("[")[0] not in labels]
                        + branch) or "-"
    # A command another function of the file handles belongs to that
    # function's fd (vduse_dev_ioctl()'s VDUSE_DEV_* beside the control
    # device's vduse_ioctl()): a reviewer reads it as broken if listed here.
    mentioned = mentioned_on_path(cf, fn) | (set(re.findall(r"\b[A-Z_][A-Z0-9_]+\b", cf.code))
                                             - _only_forwarded(cf, fn))
    # a helper's callers: a command one of them handles reaches the helper
    # through the others only; it is tagged with each of those
    # (tap_ioctl()'s fd gets tun's TUNSET*, which tun.c handles)
    by_caller = [(handler, set(re.findall(r"\b[A-Z_][A-Z0-9_]+\b", c.code))) for c, handler in calling or []]
    own = set(mentioned)
    if by_caller:
        mentioned |= set.union(*(names for _h, names in by_caller))
    def handled_by_variant(name: str) -> bool:
        # ppdev handles PPGETTIME as PPGETTIME32/PPGETTIME64: same number, other name
        return any(m.startswith(name) and m[len(name):] in ("32", "64", "_32", "_64", "_OLD",
                                                            "_NEW", "_COMPAT")
                   for m in mentioned)

    def kin_first(name: str) -> tuple[int, str]:
        # GPIOHANDLE_SET_* beside a handled GPIOHANDLE_GET_* before the
        # rest of gpio.h: a message names the first few
        return (-max(len(os.path.commonprefix([name, lab])) for lab in labels), name)

    same_value = {uapi.values[n] for n in taken | set(labels) if n in uapi.values}
    candidates = sorted({name for fam in families for name in uapi.families[fam]
                         if name not in own and name not in taken
                         and uapi.values.get(name, name) not in same_value
                         and not name.endswith("_OLD") and not handled_by_variant(name)}, key=kin_first)
    names = [n for n in candidates if n not in mentioned]
    through = [f"{n}[{THROUGH}{handler}]" for handler, theirs in by_caller
               for n in candidates if n in mentioned and n not in theirs]
    # a command of arch/sparc/include/uapi exists on sparc only (atyfb's
    # Sun ioctls beside the <linux/fb.h> ones)
    arch = {name: uapi.commands[name][0].split("/")[1] for name in names
            if uapi.commands[name][0].startswith("arch/")}
    missing = [n if n not in arch or cf.path.startswith(f"arch/{arch[n]}/") else f"{n}[on {arch[n]}]"
               for n in names]
    # an #ifdef CONFIG_COMPAT case of a 32-bit layout (AUTOFS_IOC_SETTIMEOUT32)
    # is the native command itself on a 32-bit kernel: nothing to say of it
    # and a command of arch/<arch>/include/uapi is no command where that
    # architecture's #if is false (atyfb's FBIOGTYPE without __sparc__)
    missing += sorted(_tagged(name, when) for name, when in built
                      if name in uapi.commands and name not in taken
                      and not ("COMPAT" in when and re.search(r"32$", name))
                      and not _arch_only_absent(uapi.commands[name][0], when))
    missing += [h for h in helped if h.partition("[")[0] not in labels]
    said = {m.partition("[")[0] for m in missing}
    missing += [b for b in branch if b.partition("[")[0] not in said]
    missing += through
    return ",".join(missing) if missing else "-"


THROUGH = "through "     # an uncased command's tag: it reaches the helper through that handler only
REFUSED = "refused first"   # the tag of a case that `if (cmd) return -EINVAL;` refuses before the switch


def _only_forwarded(cf: CFile, fn: Function) -> set[str]:
    """Names the file mentions only as case labels of another function's
    switch whose arm hands the command on to an ioctl operation or to fn
    (sbuslib's sbusfb_compat_ioctl(): `case FBIOSATTR: ... return
    info->fbops->fb_ioctl(info, cmd, arg);`): the 32-bit path passes them
    to the handler, it does not handle them (a reviewer found them missing
    from sbuslib's list)."""
    code = cf.code
    hands_on = re.compile(r"->\s*\w*ioctl\s*\(|\b%s\s*\(" % re.escape(fn.name))
    counted: collections.Counter[str] = collections.Counter()
    for other in functions(cf):
        if other.name != fn.name:
            for labels in arms_matching(code, other, hands_on):
                counted.update(lab for lab in labels if re.fullmatch(r"[A-Z_][A-Z0-9_]+", lab))
    return {name for name, n in counted.items() if len(re.findall(r"\b%s\b" % name, code)) == n}


def _refused_first(cf: CFile, fn: Function, site: Site) -> list[str]:
    """The case labels of the switches after a site that is the return of
    `if (cmd)`: every command is refused there, the cased ones too
    (atomisp's "Disable all private IOCTLs for now!"); [] for any other site."""
    if site.rule != "ioctl_if_chain":
        return []
    at = cf.offset(site.line)
    before = cf.code[fn.body:at]
    if not re.search(r"\bif\s*\(\s*%s\s*\)\s*\{?\s*$" % re.escape(cmd_param(fn)), before):
        return []
    return sorted({lab for sw in switches(cf.code, fn) if sw[0] > at
                   for labels, _ in case_groups(cf.code, sw) for lab in labels if lab != "default"})


def other_branch_commands(cf: CFile, fn: Function, site: Site) -> list[tuple[str, str]]:
    """(command, selector) for the known commands that reach the line after
    a switch on something else (the selector) when it takes a branch
    without their case: vme_user_ioctl() switches on type[minor], each
    branch holds a switch on the command with no default and then breaks,
    so VME_SET_MASTER on a slave minor falls to the final return."""
    code = cf.code
    off = cf.offset(site.line)
    cmd = cmd_param(fn)
    on_cmd = re.compile(ctext.switch_head(cmd))
    out: list[tuple[str, str]] = []
    for sw in ctext.switches(code, fn.body, fn.end):
        if not 0 <= sw.brace < sw.end < off or on_cmd.match(code, sw.keyword):
            continue
        if code[sw.end + 1:off].strip():
            continue    # the line is not the statement right after the switch
        inner = [i for i in ctext.switches(code, sw.brace, sw.end)
                 if i.keyword != sw.keyword and on_cmd.match(code, i.keyword) and 0 <= i.brace < i.end]
        groups = [case_groups(code, (i.keyword, i.brace, i.end)) for i in inner]
        if len(inner) < 2 or any("default" in labs for g in groups for labs, _ in g):
            continue
        # each inner switch is followed in its branch by a break, and no
        # branch answers by itself
        rest = list(code[sw.brace:sw.end])
        for i in inner:
            rest[i.keyword - sw.brace:i.end + 1 - sw.brace] = " " * (i.end + 1 - i.keyword)
        if re.search(r"\breturn\b|\bgoto\b", "".join(rest)) or \
                not all(re.match(r"\s*break\s*;", code[i.end + 1:]) for i in inner):
            continue
        sets = [{lab for labs, _ in g for lab in labs} for g in groups]
        every = set.intersection(*sets)
        selector = " ".join(code[sw.open_paren + 1:sw.close_paren].split())
        if "," in selector:
            continue    # a cell of the sites table is a comma-separated list
        for labs in sets:
            out += [(lab, selector) for lab in sorted(labs - every) if (lab, selector) not in out]
    return out


# The helper a core expects a handler of its interface to call for the
# commands it hands on to every one of them: tty_ioctl() passes a line
# discipline the termios commands (TCGETS, TCSETS, ...) that the tty driver
# does not take, and n_tty, n_hdlc and n_gsm answer them with
# n_tty_ioctl_helper() (which ends in tty_mode_ioctl()).  A discipline that
# does not call it (serport) answers them with its own unknown-command exit.
# interface -> (core function, the helper's file, the helper and what it calls)
HELPERS = {
    "tty_ldisc_ops.ioctl": ("tty_ioctl", "drivers/tty/tty_ioctl.c", ("n_tty_ioctl_helper", "tty_mode_ioctl")),
}


def helper_commands(tree: Tree, cf: CFile, fn: Function, site: Site) -> list[str]:
    """NAME[core>helper] for each command the interface's helper (HELPERS)
    answers when the handler's path never calls it, in the helper's order;
    [] when it does, or the helper is not in the tree."""
    found = HELPERS.get(site.interface)
    if not found:
        return []
    core, file, names = found
    reached = chain(cf, fn.name) | callees(cf, fn.name) | {fn.name}
    bodies = "".join(cf.code[f.body:f.end] for f in functions(cf) if f.name in reached)
    if any(_calls(bodies, name) for name in names):
        return []
    helper = tree.file(file)
    if helper is None:
        return []
    out: list[str] = []
    for name in names:
        for f in functions(helper, name)[:1]:
            for sw in switches(helper.code, f)[:1]:
                for labels, _text in case_groups(helper.code, sw):
                    out += [f"{lab}[{core}>{names[0]}]" for lab in labels
                            if lab != "default" and re.fullmatch(r"[A-Z][A-Z0-9_]*", lab)
                            and f"{lab}[{core}>{names[0]}]" not in out]
    return out


# --- paths, forward, fallback ------------------------------------------------------

def chain(cf: CFile, name: str, depth: int = 3) -> set[str]:
    """name and the in-file functions that call it, up to depth levels."""
    seen = {name}
    frontier = {name}
    for _ in range(depth):
        nxt = {caller.name for f in frontier for caller, _ in callers(cf, f)} - seen
        seen |= nxt
        frontier = nxt
    return seen


def initialisers(cf: CFile, field_name: str, value_in: set[str], struct: str = "") -> list[str]:
    """Texts of the brace initialisers (or assignment statements) binding
    field to a name in value_in; with struct, only brace initialisers of a
    variable of that struct type (a snd_hwdep_ops' .ioctl is no SCSI host's)."""
    out = []
    for m in re.finditer(r"\.\s*%s\s*=\s*&?(\w+)" % re.escape(field_name), cf.code):
        if m.group(1) not in value_in:
            continue
        # the enclosing brace block
        depth, k = 0, m.start()
        while k > 0:
            k -= 1
            if cf.code[k] == "}":
                depth += 1
            elif cf.code[k] == "{":
                if depth == 0:
                    break
                depth -= 1
        end = match_close(cf.code, k) if cf.code[k] == "{" else -1
        if struct and not (end > 0 and re.search(r"\bstruct\s+%s\s+\w+(?:\s*\[\s*\])?\s*=\s*$"
                                                 % re.escape(struct), cf.code[max(0, k - 200):k])):
            continue
        out.append(cf.code[k:end + 1] if end > 0 else cf.code[m.start():m.end()])
    return out


def _reaches_unknown(cf: CFile, compat_fn: str, natives: set[str]) -> bool | None:
    """Whether compat_fn passes an unknown command on to one of natives."""
    fns = functions(cf, compat_fn)
    if not fns:
        return None
    fn = fns[0]
    code = cf.code
    calls = [fn.body + m.start() for m in re.finditer(
        r"\b(%s)\s*\(" % "|".join(map(re.escape, sorted(natives))), code[fn.body:fn.end])]
    if not calls:
        return False
    sws = switches(code, fn)
    cmd = cmd_param(fn)
    for off in calls:
        inside = [s for s in sws if s[1] < off < s[2]]
        if not inside:
            if not any(_turns_away(code, s, cmd) for s in sws if s[2] < off and on_path(code, fn.body, s[0], off)):
                return True
            continue
        sw = max(inside)
        labels_before = ctext.LABEL.findall(code, sw[1], off)
        if labels_before and labels_before[-1].startswith("default"):
            return True
    return False


def _turns_away(code: str, sw: tuple[int, int, int], cmd: str) -> bool:
    """Whether a switch on the command returns at its default: (via-pmu's
    compat_pmu_ioctl() translates the commands it knows and answers the
    rest -ENOIOCTLCMD), so that only cased commands get past it."""
    if not cmd or not re.fullmatch(r"switch\s*\(\s*%s\s*\)\s*" % re.escape(cmd), code[sw[0]:sw[1]]):
        return False
    body = code[sw[1] + 1:sw[2]]
    defaults = [end for _start, end, is_default in ctext.top_labels(body) if is_default]
    return bool(defaults) and re.match(r"\s*return\b", body[defaults[0]:]) is not None


def compat_paths(cf: CFile, fn: Function, site: Site, tree: "Tree | None" = None) -> str:
    """Which ioctl syscalls bring an unknown command to the site's function."""
    verdict = _compat_paths(cf, fn, site)
    row = interfaces.row(site.interface)
    if verdict == "unknown" and tree is not None and row and row.compat_field:
        # A helper whose ops table is in another file of its folder
        # (rfcomm_dev_ioctl() in rfcomm/tty.c, called from rfcomm/sock.c's
        # .ioctl, which its .compat_ioctl calls too): judge from the caller.
        # Without a compat_field no table can tell more.
        verdict = _paths_from_siblings(tree, cf, fn, site)
    if tree is not None and verdict not in ("native", "unknown") and not tree.has_compat(site.file):
        # arch/um/drivers/ubd_kern.c binds blkdev_compat_ptr_ioctl, but
        # UML has no CONFIG_COMPAT: no 32-bit caller reaches it
        return "native"
    if row and row.compat_by_core not in ("", "all") and verdict in ("native", "unknown"):
        # The core hands a class of compat commands to the native op
        # whatever the driver's own compat member does with the rest:
        # compat_sock_ioctl_trans() the SIOC* it knows to sock_do_ioctl(),
        # v4l2_compat_ioctl32() 'V' commands below BASE_VIDIOC_PRIVATE.
        return f"native+{row.compat_by_core}-compat"
    return verdict


def _in_siblings(tree: "Tree", cf: CFile, fn: Function, site: Site) -> list[tuple[CFile, Function]]:
    """Other .c files of the site's folder that bind fn in an ops table
    (cxlflash/main.c: .ioctl = cxlflash_ioctl, defined in superpipe.c) or
    call it (rfcomm/sock.c calls rfcomm/tty.c's rfcomm_dev_ioctl()), each
    with the function to judge there: fn itself, or its caller."""
    member = re.escape(site.interface.partition(".")[2])
    bound = re.compile(r"\.\s*%s\s*=\s*&?\s*%s\b" % (member, re.escape(fn.name)))
    call = re.compile(r"\b%s\s*\(" % re.escape(fn.name))
    out = []
    for rel in _sibling_files(tree, cf):
        if rel == site.file:
            continue
        other = tree.file(rel)
        if other is None:
            continue
        if bound.search(other.code):
            out.append((other, Function(fn.name, -1, fn.params, -1, -1)))
            continue
        if call.search(other.code):
            out += [(other, caller) for caller, _offset in callers(other, fn.name)]
    return out


def _paths_from_siblings(tree: "Tree", cf: CFile, fn: Function, site: Site) -> str:
    found = {_compat_paths(other, f, site) for other, f in _in_siblings(tree, cf, fn, site)}
    for verdict in ("both", "native", "compat"):
        if verdict in found:
            return verdict
    return "unknown"


def _compat_paths(cf: CFile, fn: Function, site: Site) -> str:
    """The verdict from the interface's compat columns and the ops tables
    of the file: whether a compat caller reaches fn's native member."""
    member = site.interface.partition(".")[2]
    if "compat" in member:
        return "compat"
    row = interfaces.row(site.interface)
    if row and row.compat_by_core == "all":
        return "both"
    if row is None or not row.compat_field:
        return "unknown"
    compat_member, pass_through = row.compat_field, row.compat_pass
    reaching = chain(cf, fn.name)
    bound_member, bound_names = member, reaching
    if row.compat_beside:
        bound_member, bound_names = row.compat_beside[0], {row.compat_beside[1]}
    blocks = initialisers(cf, bound_member, bound_names)
    assigned = re.findall(r"\b%s\s*=\s*(\w+)\s*;" % re.escape(compat_member), cf.code)
    if not blocks and not assigned:
        return "unknown"
    values = {v for v in assigned if v in reaching}
    for block in blocks:
        values |= set(re.findall(r"\.\s*%s\s*=\s*&?(\w+)" % re.escape(compat_member), block))
    verdict = "native"
    for value in sorted(values):
        bound = set(re.findall(r"\.\s*%s\s*=\s*&?(\w+)" % re.escape(bound_member),
                               "".join(blocks)))
        if value in pass_through or value in bound or value == fn.name:
            return "both"
        reached = _reaches_unknown(cf, value, reaching - {value})
        if reached is None:
            verdict = "unknown"
        elif reached:
            return "both"
    return verdict


def forward(site: Site) -> str:
    """Where a site that now answers the try-next value lets a command go
    on to (the interface's forward column), or '-'."""
    row = interfaces.row(site.interface)
    if row and row.forward and site.to == "ENOIOCTLCMD" and site.from_ != "ENOIOCTLCMD":
        return row.forward
    return "-"


def fallback(cf: CFile, fn: Function, site: Site, tree: "Tree | None" = None) -> str:
    """Where the core still answers -EINVAL after the driver: the
    interface's einval_without member missing from the handler's ops
    table, answered by the dispatch of that member's row.  An exported
    helper also reached through another interface's member, bound in
    another file of the folder, is judged for that entry too."""
    own = _fallback_for(cf, fn, site, tree)
    if own != "-" or tree is None or _is_static(cf, fn):
        return own
    reaching = chain(cf, fn.name)
    siblings = [other for rel in _sibling_files(tree, cf) if (other := tree.file(rel)) is not None]
    for row in interfaces.table():
        if row.is_compat or row.to != site.to or not row.einval_without \
                or f"{row.struct}.{row.field}" == site.interface:
            continue
        # esas2r_ioctl_handler(): esas2r_main.c binds esas2r_ioctl() of the
        # helper's file to the SCSI host's .ioctl, with no .compat_ioctl
        for other in siblings:
            blocks = initialisers(other, row.field, reaching, row.struct)
            if blocks and not any(re.search(r"\.\s*%s\s*=" % row.einval_without, b) for b in blocks):
                core = interfaces.row(f"{row.struct}.{row.einval_without}")
                if core is None:
                    continue
                names = sorted({m for b in blocks for m in re.findall(
                    r"\.\s*%s\s*=\s*&?(\w+)" % re.escape(row.field), b)} & reaching)
                file, _, function = core.dispatch.partition(":")
                through = " and ".join(f"{n}()" for n in names)
                return (f"{'compat' if core.is_compat else 'native'}: through {through}, "
                        f"{function}() in {file} answers -EINVAL (no .{row.einval_without})")
    return own


def _sibling_files(tree: "Tree", cf: CFile) -> list[str]:
    """The other .c files of cf's folder."""
    folder = os.path.dirname(cf.path)
    try:
        names = sorted(os.listdir(tree.root / folder))
    except OSError:
        return []
    return [os.path.join(folder, n) for n in names if n.endswith(".c") and os.path.join(folder, n) != cf.path]


def _fallback_for(cf: CFile, fn: Function, site: Site, tree: "Tree | None" = None) -> str:
    """fallback() through the site's own interface."""
    row = interfaces.row(site.interface)
    missing = row.einval_without if row else ""
    core = interfaces.row(f"{row.struct}.{missing}") if row and missing else None
    if not missing or core is None:
        return "-"
    path = "compat" if core.is_compat else "native"
    file, _, function = core.dispatch.partition(":")
    where = f"{function}() in {file}"
    member = site.interface.partition(".")[2]
    blocks = initialisers(cf, member, chain(cf, fn.name))
    if not blocks and tree is not None:
        # the ops table in another file of the folder (cxlflash/main.c)
        for other, f in _in_siblings(tree, cf, fn, site):
            blocks += initialisers(other, member, chain(other, f.name) | {f.name})
    if not blocks:
        return "unknown"
    if any(re.search(r"\.\s*%s\s*=" % missing, b) for b in blocks):
        return "-"
    return f"{path}: {where} answers -EINVAL (no .{missing})"


# --- the handler user space calls -------------------------------------------------

def entry(cf: CFile, fn: Function, site: Site, tree: Tree | None = None) -> str:
    """The function the ops table binds whose helper the site's function is
    (amiflop's .ioctl = fd_ioctl, which calls fd_locked_ioctl()), names
    comma-separated; '-' when the site's function is bound itself or no
    binding of the interface's member to an in-file caller is found.  For
    a helper in a header, `file:function` of the bound functions of the .c
    files beside it that reach it (header_entries())."""
    member = site.interface.partition(".")[2]
    if not member:
        return "-"
    bound = set(_bound_to(member).findall(cf.code))
    if fn.name in bound:
        return "-"
    # the native members of other interfaces with the same answer that bind
    # a caller too: sunrpc's cache_ioctl() is reached from an
    # .unlocked_ioctl and a .proc_ioctl of the same file, esas2r's
    # esas2r_ioctl_handler() from an .unlocked_ioctl and a SCSI host's .ioctl
    # in another file
    members = [member] + [other.field for other in interfaces.table()
                          if other.to == site.to and not other.is_compat and other.field != member]
    reaching = chain(cf, fn.name)
    bound |= _bound_names(cf, members[1:]) & reaching
    callers_here = reaching - {fn.name}
    found = sorted(callers_here & bound)
    if not found and tree is not None and site.file.endswith(".h"):
        found = header_entries(tree, cf, fn.name, member)
    elif tree is not None and not site.file.endswith(".h") and not _is_static(cf, fn):
        # an exported helper: callers of this file that another file of the
        # folder binds (esas2r_ioctl(), the SCSI host's .ioctl), and the
        # bound callers of the other files (esas2r_proc_ioctl())
        bound_there: set[str] = set()
        for rel in _sibling_files(tree, cf):
            other = tree.file(rel)
            bound_there |= _bound_names(other, members) if other is not None else set()
        found = sorted(set(found) | (bound_there & callers_here)) + sorted(
            set(library_entries(tree, cf, fn.name, members)))
    return ",".join(found) if found else "-"


def _entry_files(entry_cell: str) -> list[str]:
    """The files of an entry cell's `file:function` entries (header_entries())."""
    return sorted({e.rpartition(":")[0] for e in entry_cell.split(",") if ":" in e})


def _bound_to(member: str) -> re.Pattern[str]:
    return re.compile(r"(?:\.\s*|\b)%s\s*=\s*&?\s*(\w+)\s*[,;}\n]" % re.escape(member))


def header_entries(tree: Tree, header: CFile, name: str, member: str) -> list[str]:
    """`file:function` of each function bound to member in a .c file beside
    the header that #includes it and reaches its helper name: 7.2's
    tun_vnet_ioctl() in drivers/net/tun_vnet.h is tap.c's tap_ioctl() and,
    through __tun_chr_ioctl(), tun.c's tun_chr_ioctl().  Found the way
    phase 1 found the helper (enotty.find.facts), from the caller's side."""
    include = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"%s"' % re.escape(Path(header.path).name), re.M)
    return _folder_entries(tree, header, name, [member], lambda cf: include.search(cf.raw) is not None)


def _is_static(cf: CFile, fn: Function) -> bool:
    head = cf.code[max(0, fn.start - 200):fn.start]
    return re.search(r"\bstatic\b[^;{}()]*$", head) is not None


def library_entries(tree: Tree, lib: CFile, name: str, members: list[str]) -> list[str]:
    """`file:function` of each function bound to one of members in another .c file
    of the folder, by the text or by a token-pasting macro of a header it
    includes (facts.pasted_bindings()), that reaches the exported helper
    name: sbusfb_ioctl_helper() in sbuslib.c is cg3.c's cg3_sbusfb_ioctl()
    (FB_DEFAULT_SBUS_OPS(cg3)) and the other SBUS framebuffers'."""
    calls = re.compile(r"\b%s\s*\(" % re.escape(name))
    return _folder_entries(tree, lib, name, members, lambda cf: calls.search(cf.code) is not None,
                           pasted=True)


def _folder_entries(tree: Tree, near: CFile, name: str, members: list[str], wanted: Callable[[CFile], bool],
                    pasted: bool = False) -> list[str]:
    """`file:function` of each function bound to one of members (by a
    token-pasting macro too, with pasted) in the other .c files of near's
    folder that wanted keeps, and that reaches name."""
    found = []
    for rel in _sibling_files(tree, near):
        cf = tree.file(rel)
        if cf is None or not wanted(cf):
            continue
        reached: set[str] = set()
        for caller in {f.name for f, _ in callers(cf, name)}:
            reached |= chain(cf, caller)
        bound = _bound_names(cf, members) | (_pasted_bound(tree, cf, members) if pasted else set())
        found += [f"{rel}:{fn}" for fn in sorted(reached & bound)]
    return found


def _bound_names(cf: CFile, members: list[str]) -> set[str]:
    """The names cf binds to any of members."""
    return {n for m in members for n in _bound_to(m).findall(cf.code)}


def _pasted_bound(tree: Tree, cf: CFile, members: list[str]) -> set[str]:
    """The functions a token-pasting macro of cf, or of a header cf
    includes, stores in one of members (the headers phase 1 reads for it)."""
    from ..find import facts     # the extraction of phase 1, read the same way here
    uses = facts.pasted_uses(csource.clean(cf.raw))
    if not uses:
        return set()
    headers = [h.raw for spelled in facts.include_names(cf.raw)
               for rel in facts.included_paths(cf.path, spelled) if (h := tree.file(rel)) is not None]
    macros = facts.macros_seen(facts.pasted_macros(cf.raw), (facts.pasted_macros(h) for h in headers))
    return {fn for _struct, field_name, fn, _via in facts.expand_pasted(uses, macros) if field_name in members}


# --- the verdict -----------------------------------------------------------------

def is_leaf(site: Site) -> bool:
    return site.from_ == "ENOIOCTLCMD" and site.to == "ENOTTY"


def analyse(tree: Tree, site: Site, converted: set[int]) -> Effects:
    """The effect columns of one site; converted: lines of the file the series changes."""
    cf = tree.file(site.file)
    fn = function_at(cf, site.function, site.line) if cf else None
    if cf is None or fn is None:
        return Effects("unknown", "unknown", "-", "unknown", "-", forward(site), "unknown",
                       "invisible" if is_leaf(site) else "unknown")
    anchor = anchor_of(cf, fn, site.line, initialiser="chain" if site.rule == "ioctl_switch_chain"
                       else site.rule in INITIALISERS)
    found = guards(cf, fn, anchor, converted)
    for caller, call in callers(cf, fn.name):
        found += guards(cf, caller, call, converted)
    where = entry(cf, fn, site, tree)
    for other in _entry_files(where):
        # a helper in a header: its callers in the handlers' files check first
        ocf = tree.file(other)
        if ocf is not None:
            for caller, call in callers(ocf, fn.name):
                found += guards(ocf, caller, call, set())
    operation = missing_operation(cf, fn, site.line)
    if any(g.kind in ("command normaliser", "every command") for g in found):
        reach = "no"
    elif operation:
        reach = "no-operation"
        found.append(Guard(site.line, f"!{operation}", site.from_, "no operation"))
    elif found:
        reach = "partly"
    else:
        reach = "yes"
    guard = "; ".join(f"line {g.line}: {g.text} -> -{g.errno} ({g.kind})" for g in found) or "-"
    if is_leaf(site):
        visible = "invisible"
    elif reach == "no":
        visible = "unreachable"
    else:
        visible = "yes"
    return Effects(
        paths=compat_paths(cf, fn, site, tree), reach=reach, guard=guard,
        branches=twin_branches(cf, fn, site.line, converted),
        uncased=uncased_commands(tree, cf, fn, site, [(f, o.rpartition(":")[2]) for o in where.split(",")
                                                      if ":" in o and (f := tree.file(o.rpartition(":")[0]))])
        if not is_leaf(site) else "-",
        forward=forward(site), fallback=fallback(cf, fn, site, tree), visible=visible,
        entry=where)


def analyse_sites(sites: list[Site], root: Path) -> dict[Site, Effects]:
    """Effects of every site, reading each file of the tree once."""
    tree = Tree(root)
    by_file: dict[str, set[int]] = {}
    for s in sites:
        by_file.setdefault(s.file, set()).add(s.line)
    return {s: analyse(tree, s, by_file[s.file]) for s in sites}


NOTABLE = ("guard", "branches", "uncased", "forward", "fallback")


def summary(found: dict[Site, Effects]) -> str:
    """The verdict counts and every site whose effects are more than 'it changes'."""
    lines = []
    for column in ("paths", "reach", "visible"):
        counts = collections.Counter(getattr(e, column) for e in found.values())
        lines.append(f"{column}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    for column in NOTABLE:
        n = sum(getattr(e, column) not in ("-", "all") for e in found.values())
        lines.append(f"{column}: {n} sites")
    for s in sorted(found, key=Site.sort_key):
        e = found[s]
        notes = [f"{c}={getattr(e, c)}" for c in NOTABLE if getattr(e, c) not in ("-", "all")]
        if notes or e.reach not in ("yes",) or "unknown" in (e.paths, e.visible):
            lines.append(f"{s.file}:{s.line} {s.function}() paths={e.paths} reach={e.reach} "
                         f"visible={e.visible} " + " | ".join(notes))
    return "\n".join(lines) + "\n"
