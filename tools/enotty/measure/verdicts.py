"""Verdicts for every row of the census: mechanical rules, rows read by hand,
and the carry-over of a verdict to another tree.

    python3 -m enotty.measure.verdicts apply --kdir DIR CENSUS.tsv [READ.tsv ..] [--todo]
    python3 -m enotty.measure.verdicts carry --kdir DIR --to-kdir OLD VERDICTS.tsv OLD_CENSUS.tsv
    python3 -m enotty.measure.verdicts count VERDICTS.tsv
    python3 -m enotty.measure.verdicts missed CENSUS.tsv VERDICTS.tsv [CENSUS.tsv VERDICTS.tsv ..] SITES.tsv

`apply` decides each census row by the first rule that matches it, else by
a READ.tsv row (file line function verdict class reason) for the same site,
and prints the verdicts TSV (file line function verdict class reason how).
A row that neither decides is an error, listed on stderr; `--todo` prints
those rows with their guard instead, for reading.  A read row overrides no
rule: a rule that is wrong is fixed or dropped, not patched around.

`missed` lists the REAL rows that SITES.tsv (the output's sites.tsv, or
`make report`'s TSV) does not convert: absent, or in no series (`series`
is `-`); a report without a `series` column counts every listed site as
converted.  Columns: file line function errno verdict-class reason
(the reading's reason, a guess at why the output misses it); counts on
stderr.  A REAL row no rule reports that ``kept.tsv`` (beside the first
census) names is "kept by a" consumer, state or core, not a miss.

`carry` gives a row of OLD_CENSUS the verdict of the same statement in the
same function of DIR's verdicts where the function's text is identical in
both trees (the line moved by the function's offset), and says on stderr
how many rows could not carry over.

The rules see tokens, not types: a guard is the condition of the innermost
`if` (braced or not) around the exit; "derived" names are those assigned
from an expression that mentions the command (`nr = _IOC_NR(cmd)`, `ret =
sub(dev, cmd, arg)`), so that a guard on them counts as a command test.
"""
from __future__ import annotations

import argparse
import csv
import io
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

from ..find.ctext import Token, tokenize
from ..judge.recall import missed, read_kept
from .census import CENSUS_COLUMNS, UsageError, command_param, param_name, read_text, split_params, write_tsv

VERDICT_COLUMNS = ("file", "line", "function", "verdict", "class", "reason", "how")
READ_COLUMNS = ("file", "line", "function", "verdict", "class", "reason")
VERDICTS = ("REAL", "MIXED", "STAYS")

USER_COPY = re.compile(r"^(__)?(copy_(from|to)_user|get_user|put_user|clear_user|strncpy_from_user|memdup_user"
                       r"|copy_struct_from_user|copy_from_sockptr|copy_to_sockptr|memdup_user_nul"
                       r"|copy_(from|to)_user_iter|vmemdup_user|strndup_user|unsafe_(get|put)_user"
                       r"|get_compat_\w+|put_compat_\w+|compat_(get|put)_\w+|access_ok|copy_\w*_to_user|copy_\w*_from_user)$")
PERMISSION = re.compile(r"^(capable|ns_capable|file_ns_capable|sockopt_ns_capable|has_capability\w*|perfmon_capable"
                        r"|bpf_capable|checkpoint_restore_ns_capable|FMODE_\w+|inode_owner_or_capable|may_\w+)$")
# Errnos that say "this device or state", never "this command".
STATE_ERRNOS = frozenset("EIO ENODEV ENXIO EBUSY EAGAIN EINTR ERESTARTSYS ESHUTDOWN ETIMEDOUT ENOLINK EBADF "
                         "ENOTCONN EPIPE ENOSPC EPERM EACCES EROFS ENOMEDIUM EHOSTDOWN ENETDOWN ECONNRESET "
                         "EBADFD ESTALE ENOENT ENOKEY EKEYREVOKED EDEADLK ECANCELED ERESTARTNOINTR "
                         "ERESTARTNOHAND ENOBUFS EALREADY EINPROGRESS EUCLEAN".split())
# Members whose core hands on known commands only (net/core/dev_ioctl.c: dev_ifsioc() passes
# SIOC[GS]MII* and SIOC[GS]HWTSTAMP to ndo_eth_ioctl and nothing else; drivers/cdrom/cdrom.c:
# cdrom_ioctl() calls cdrom_device_ops.audio_ioctl for the CDROM audio commands it cases).
KNOWN_ONLY_MEMBERS = {"ndo_eth_ioctl": "dev_ifsioc() passes only the MII and HWTSTAMP commands",
                      "audio_ioctl": "cdrom_ioctl() passes only the audio commands it knows"}
# KVM's arch hooks answer per KVM's own convention (kept_hooks of cocci/interfaces.tsv).
KVM_ARCH_HOOKS = frozenset(("kvm_arch_vm_ioctl", "kvm_arch_vcpu_ioctl", "kvm_arch_dev_ioctl"))


# ------------------------------------------------------------------ function text

@dataclass(frozen=True)
class Function:
    name: str
    start: int   # line of the name
    end: int     # line of the closing brace
    params: list[str]
    body: list[Token]   # from `{` to `}`


def find_functions(tokens: Sequence[Token], name: str) -> list[Function]:
    """Every definition of `name` in a file's tokens: `name (...) {` at
    brace depth 0, attributes between `)` and `{` allowed
    (__acquires(x), __must_hold(x))."""
    return _definitions(tokens, lambda t: t == name, attributes=True)


def all_functions(tokens: Sequence[Token]) -> list[Function]:
    """Every function definition at depth 0 (a name, its parameters, `{`)."""
    return _definitions(tokens, lambda t: re.fullmatch(r"[A-Za-z_]\w*", t) is not None, attributes=False)


def _definitions(tokens: Sequence[Token], wanted: Callable[[str], bool], attributes: bool) -> list[Function]:
    """The definitions at brace depth 0 whose name `wanted` accepts; with
    attributes, tokens between the parameters' `)` and `{` are skipped."""
    out = []
    depth = 0
    n = len(tokens)
    i = 0
    while i < n:
        t = tokens[i].text
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
        elif depth == 0 and i + 1 < n and tokens[i + 1].text == "(" and wanted(t):
            close = _match(tokens, i + 1)
            j = close + 1
            while attributes and j < n and tokens[j].text not in ("{", ";", ",", "=", ")"):
                if tokens[j].text == "(":
                    j = _match(tokens, j)
                j += 1
            if close > 0 and j < n and tokens[j].text == "{":
                end = _match(tokens, j, "{", "}")
                sig = " ".join(x.text for x in tokens[i + 1:close + 1])
                out.append(Function(t, tokens[i].line, tokens[end].line,
                                    split_params(sig.replace("( ", "(").replace(" )", ")")), list(tokens[j:end + 1])))
                i = end + 1
                continue
        i += 1
    return out


def _match(tokens: Sequence[Token], i: int, open_: str = "(", close: str = ")") -> int:
    depth = 0
    for k in range(i, len(tokens)):
        if tokens[k].text == open_:
            depth += 1
        elif tokens[k].text == close:
            depth -= 1
            if depth == 0:
                return k
    return len(tokens) - 1


def _match_back(tokens: Sequence[Token], i: int, open_: str = "(", close: str = ")") -> int:
    depth = 0
    for k in range(i, -1, -1):
        if tokens[k].text == close:
            depth += 1
        elif tokens[k].text == open_:
            depth -= 1
            if depth == 0:
                return k
    return 0


def function_text(lines: Sequence[str], fn: Function) -> str:
    return "".join(lines[fn.start - 1:fn.end])


# ------------------------------------------------------------------ site context

@dataclass
class Site:
    row: dict[str, str]
    fn: Function
    at: int                   # index in fn.body of the `return` / `=` token's statement start
    command: str | None
    derived: frozenset[str]
    headers: list[tuple[str, list[str]]]   # innermost first: (keyword, condition tokens)
    labels: list[str]         # the labels right before the statement (`default`, `case`)
    statement: list[str]
    first_dispatch: int       # index of the first token that tests the command
    helper_calls: list[bool] | None = None   # per call of a static helper in its file: known commands only


def command_name(fn: Function) -> str | None:
    sig = "(" + ", ".join(fn.params) + ")"
    idx = command_param(sig)
    if idx is None or idx >= len(fn.params):
        return None
    return param_name(fn.params[idx])


def derived_names(body: Sequence[Token], command: str | None) -> frozenset[str]:
    """Names assigned (or initialised) from an expression mentioning the
    command or a name already derived from it, to a fixpoint."""
    if command is None:
        return frozenset()
    names = {command}
    changed = True
    while changed:
        changed = False
        for i, t in enumerate(body):
            if t.text != "=" or i == 0 or not re.fullmatch(r"[A-Za-z_]\w*", body[i - 1].text):
                continue
            target = body[i - 1].text
            if target in names:
                continue
            j = i + 1
            depth = 0
            while j < len(body) and not (depth == 0 and body[j].text in (";", ",")):
                if body[j].text in ("(", "["):
                    depth += 1
                elif body[j].text in (")", "]"):
                    depth -= 1
                    if depth < 0:
                        break
                if body[j].text in names:
                    names.add(target)
                    changed = True
                    break
                j += 1
    return frozenset(names)


def statement_start(body: Sequence[Token], i: int) -> int:
    k = i
    while k > 0 and body[k - 1].text not in (";", "{", "}", ":", ")", "else"):
        k -= 1
    return k


def headers_of(body: Sequence[Token], start: int) -> tuple[list[tuple[str, list[str]]], list[str]]:
    """The constructs around the statement that begins at `start`, innermost
    first (`if`, `else`, `switch`, `for`, `while`, a loop macro's name), and
    the case labels right before it."""
    out: list[tuple[str, list[str]]] = []
    labels: list[str] = []
    direct = True       # still at the statement's own level (labels count)
    k = start
    while k > 0:
        prev = body[k - 1].text
        if prev == ":":
            j = k - 2
            while j > 0 and body[j].text not in ("case", "default", ";", "{", "}", ":"):
                j -= 1
            if body[j].text in ("case", "default"):
                if direct:
                    labels.append(body[j].text)
                k = j
            else:
                k = k - 2   # a goto label
            continue
        if prev == ")":
            open_ = _match_back(body, k - 1)
            kw = body[open_ - 1].text if open_ > 0 else ""
            out.append((kw, [t.text for t in body[open_ + 1:k - 1]]))
            direct = False
            k = open_ - 1
            continue
        if prev == "else":
            out.append(("else", []))
            direct = False
            k = _if_before_else(body, k - 1)
            continue
        if prev == "{":
            k -= 1
            continue
        if prev in (";", "}"):
            direct = False
            k = _enclosing_open(body, k - 1)
            continue
        if prev == "do":
            out.append(("do", []))
            direct = False
            k -= 1
            continue
        k -= 1
    return out, labels


def _enclosing_open(body: Sequence[Token], i: int) -> int:
    """The index just after the `{` that encloses token i (whose own
    statement is a sibling of the one we came from)."""
    depth = 0
    j = i
    while j >= 0:
        if body[j].text == "}":
            depth += 1
        elif body[j].text == "{":
            if depth == 0:
                return j + 1
            depth -= 1
        j -= 1
    return 0


def _if_before_else(body: Sequence[Token], else_at: int) -> int:
    """The index of the `if` whose statement ends right before `else`."""
    j = else_at - 1
    if j >= 0 and body[j].text == "}":
        j = _match_back(body, j, "{", "}") - 1
    else:
        while j > 0 and body[j - 1].text not in (";", "{", "}", ")", "else"):
            j -= 1
        j -= 1
    # j is at the `)` of `if (...)`
    if j >= 0 and body[j].text == ")":
        open_ = _match_back(body, j)
        return max(open_ - 1, 0)
    return max(j, 0)


def arms_at(body: Sequence[Token], pos: int, names: frozenset[str]) -> list[tuple[bool, str]]:
    """For each switch around token `pos`, outermost first: whether it
    switches on the command (or a derived name), and the label of the arm
    `pos` is in (`case`, `default`, or "" before any label)."""
    frames: list[list] = []   # [on_command, depth, arm]
    depth = 0
    pending: bool | None = None
    i = 0
    while i < pos and i < len(body):
        t = body[i].text
        if t == "switch" and i + 1 < len(body) and body[i + 1].text == "(":
            close = _match(body, i + 1)
            pending = _mentions((x.text for x in body[i + 2:close]), names)
            i = close + 1
            continue
        if t == "{":
            depth += 1
            if pending is not None:
                frames.append([pending, depth, ""])
                pending = None
        elif t == "}":
            if frames and frames[-1][1] == depth:
                frames.pop()
            depth -= 1
        elif t in ("case", "default") and frames:
            frames[-1][2] = t
        i += 1
    return [(bool(f[0]), str(f[2])) for f in frames]


def known_only_call(body: Sequence[Token], pos: int, names: frozenset[str]) -> bool:
    """The call at `pos` is reached by known commands only: inside a `case`
    arm of a switch on the command, or in `if (cmd == X ...)`."""
    if any(on and arm == "case" for on, arm in arms_at(body, pos, names)):
        return True
    start = statement_start(body, pos)
    headers, labels = headers_of(body, start)
    if any(on and arm == "case" for on, arm in arms_at(body, start, names)) or "case" in labels and "default" not in labels:
        return True
    for kw, cond in headers:
        if kw == "else":
            return False
        if kw == "if" and _equality_test(cond, names):
            return True
    return False


def first_command_test(body: Sequence[Token], names: frozenset[str]) -> int:
    for i, t in enumerate(body):
        if t.text in names and not (i + 1 < len(body) and body[i + 1].text == "=" and
                                    not (i + 2 < len(body) and body[i + 2].text == "=")):
            return i
    return len(body)


def site_context(row: dict[str, str], fn: Function) -> Site | None:
    line = int(row["line"])
    hits = [i for i, t in enumerate(fn.body) if t.line == line and t.text in ("return", "=")]
    if not hits:
        return None
    i = hits[0]
    start = statement_start(fn.body, i)
    command = command_name(fn)
    derived = derived_names(fn.body, command)
    headers, labels = headers_of(fn.body, start)
    end = i
    while end < len(fn.body) and fn.body[end].text != ";":
        end += 1
    statement = [t.text for t in fn.body[start:end + 1]]
    return Site(row, fn, start, command, derived, headers, labels, statement,
                first_command_test(fn.body, derived))


# ------------------------------------------------------------------ the rules

@dataclass(frozen=True)
class Decision:
    verdict: str
    klass: str
    reason: str


Rule = Callable[[Site, str], "Decision | None"]


def _guard(site: Site) -> list[str] | None:
    if site.headers and site.headers[0][0] == "if":
        return site.headers[0][1]
    return None


def _mentions(tokens: Iterable[str], names: Iterable[str]) -> bool:
    s = set(names)
    return any(t in s for t in tokens)


def rule_already_enotty(site: Site, root: str) -> Decision | None:
    if site.row["errno"] == "ENOTTY":
        return Decision("STAYS", "already-enotty", "already answers -ENOTTY")
    return None


def rule_try_next(site: Site, root: str) -> Decision | None:
    if site.row["errno"] == "ENOIOCTLCMD":
        return Decision("STAYS", "try-next", "-ENOIOCTLCMD: the caller tries the next handler, or the core answers ENOTTY")
    return None


def _equality_test(cond: list[str], names: frozenset[str]) -> bool:
    """`cmd == X` or several joined by `||`, nothing else."""
    text = " ".join(cond)
    parts = [p.strip().strip("()").strip() for p in text.split("||")]
    return all(re.fullmatch(r"\(?\s*(\w+)\s*==\s*[A-Za-z_]\w*(\s*\(.*\))?\s*\)?", p) and
               re.match(r"\(?\s*(\w+)", p).group(1) in names for p in parts)  # type: ignore[union-attr]


def rule_known_command_branch(site: Site, root: str) -> Decision | None:
    if site.command is None:
        return None
    for kw, cond in site.headers:
        if kw == "else":
            return None
        if kw == "if" and _equality_test(cond, site.derived):
            return Decision("STAYS", "argument-check", f"inside `{' '.join(cond)}`: only that known command reaches it")
    return None


def rule_known_only_helper(site: Site, root: str) -> Decision | None:
    """A static helper whose every call in its file lies where only known
    commands reach (a `case` arm of a switch on the command, `if (cmd ==
    X)`): no unknown command reaches any of its exits."""
    if site.row["role"] != "helper" or site.helper_calls is None:
        return None
    if site.helper_calls and all(site.helper_calls):
        return Decision("STAYS", "known-only", f"{site.row['entry']}() and its other callers call it for known commands only")
    return None


def rule_after_command_filter(site: Site, root: str) -> Decision | None:
    """Below a top-level `if (cmd != X) return ...;` only X goes on."""
    for close, cond in returning_ifs(site):
        if close + 1 < site.at:
            if (len(cond) == 3 and cond[0] in site.derived and cond[1] == "!=" and
                    re.fullmatch(r"[A-Z_][A-Z0-9_]*", cond[2])):
                return Decision("STAYS", "argument-check", f"after `{' '.join(cond)}` returned, only {cond[2]} reaches it")
            if (len(cond) >= 4 and cond[0] == "!" and re.fullmatch(r"\w*valid\w*", cond[1]) and cond[2] == "("
                    and cond[-1] == ")" and _mentions(cond[3:-1], site.derived)):
                return Decision("STAYS", "argument-check", f"after `{' '.join(cond)}` returned, only the commands {cond[1]}() lists go on")
    return None


def rule_user_copy(site: Site, root: str) -> Decision | None:
    if site.row["errno"] != "EFAULT":
        return None
    guard = _guard(site) or []
    if not any(USER_COPY.match(t) for t in guard + site.statement):
        return None
    if site.at < site.first_dispatch and shared_by_unknown(site):
        return Decision("MIXED", "guard-before-dispatch", "user copy of the argument before the command is looked at: every command alike")
    return Decision("STAYS", "argument-check", "user copy of a known command's argument or result")


def shared_by_unknown(site: Site) -> bool:
    """A handler's guard before its dispatch is met by unknown commands too;
    a helper's only when the helper itself has a default for them."""
    if site.row["role"] == "handler":
        return True
    body = site.fn.body
    return any(t.text == "default" and any(on for on, _ in arms_at(body, i, site.derived))
               for i, t in enumerate(body))


def rule_no_memory(site: Site, root: str) -> Decision | None:
    if site.row["errno"] == "ENOMEM":
        return Decision("STAYS", "resource", "allocation failure")
    return None


def rule_state_guard(site: Site, root: str) -> Decision | None:
    """A state errno behind a guard that tests neither the command nor a value
    derived from it, outside any default: a device or permission state."""
    guard = _guard(site)
    if site.row["arm"] != "outside" or site.row["errno"] not in STATE_ERRNOS or guard is None:
        return None
    if _mentions(guard, site.derived):
        return None
    if any(PERMISSION.match(t) for t in guard):
        return Decision("STAYS", "state-check", "permission test, every command alike")
    return Decision("STAYS", "state-check", f"`{' '.join(guard)[:60]}`: a state test, not about the command")


def rule_argument_guard(site: Site, root: str) -> Decision | None:
    """-EINVAL (or a kin) behind a guard that tests neither the command nor a
    value derived from it, outside any default: an argument or state check,
    shared by every command when it comes before the dispatch."""
    guard = _guard(site)
    if site.row["arm"] != "outside" or guard is None or site.row["kind"] == "init":
        return None
    if site.command is None or _mentions(guard, site.derived):
        return None
    if site.at >= site.first_dispatch:
        return None
    if shared_by_unknown(site):
        return Decision("MIXED", "guard-before-dispatch", f"`{' '.join(guard)[:60]}` before the command is looked at: every command alike")
    return Decision("STAYS", "argument-check", f"`{' '.join(guard)[:60]}`: a helper's argument check; the helper itself has no default")


def rule_known_only_core(site: Site, root: str) -> Decision | None:
    why = KNOWN_ONLY_MEMBERS.get(root)
    if why is None:
        return None
    return Decision("STAYS", "core", f"{root}: {why}; no unknown command reaches it")


def rule_kvm_arch(site: Site, root: str) -> Decision | None:
    if site.row["function"] in KVM_ARCH_HOOKS and site.row["arm"] == "default":
        return Decision("STAYS", "kvm-arch", "KVM arch hook's default, KVM's own convention (kept_hooks)")
    return None


# The OSS API (the emulation in sound/core/oss/ and sound/core/seq/oss/, the
# drivers of sound/oss/, the synths' *_oss.c callbacks): its programmer's
# guide gives EINVAL as the answer to an ioctl the implementation does not
# support and tells applications to probe each ioctl with it
# (manuals.opensound.com/developer, OSS_GETVERSION and "Possible error codes"),
# so its defaults are read, not decided by plain-default.
def oss_api(file: str) -> bool:
    return file.startswith(("sound/core/oss/", "sound/core/seq/oss/", "sound/oss/")) or \
        file.startswith("sound/") and file.endswith("_oss.c")


def filtered_before(site: Site) -> bool:
    """A top-level `if (x) return` before the site on a value computed from the
    command (`err = md_ioctl_valid(cmd); if (err) return err;`): the commands
    that reach the site may all be known ones, so reading decides."""
    return any(_mentions(cond, site.derived - {site.command or ""}) for _close, cond in returning_ifs(site))


def returning_ifs(site: Site) -> Iterator[tuple[int, list[str]]]:
    """(index of the closing parenthesis, condition's tokens) of each
    top-level `if (...) return` of the function before the site."""
    body = site.fn.body
    depth = 0
    for i in range(site.at):
        t = body[i].text
        depth += t == "{"
        depth -= t == "}"
        if depth == 1 and t == "if" and body[i + 1].text == "(":
            close = _match(body, i + 1)
            if body[close + 1].text == "return":
                yield close, [x.text for x in body[i + 2:close]]


JUMPS = frozenset({"break", "return", "goto", "continue"})


def _before_directives(body: Sequence[Token], k: int) -> int:
    """k, moved back over the preprocessor lines (`#endif`) right before it."""
    while k > 0:
        line = body[k - 1].line
        first = k - 1
        while first > 0 and body[first - 1].line == line:
            first -= 1
        if body[first].text != "#":
            return k
        k = first
    return k


def falls_into_labels(body: Sequence[Token], start: int) -> bool:
    """The labels before the statement at start are reached by falling
    through from the case above them (pci's `fallthrough;` into
    `default:`): the statement after them answers a known command too."""
    k = start
    while k > 1 and body[k - 1].text == ":" and body[k - 2].text == "default":
        k -= 2
    while k > 0 and body[k - 1].text == ":":
        j = k - 2
        while j > 0 and body[j].text not in ("case", ";", "{", "}"):
            j -= 1
        if body[j].text != "case":
            break
        k = j
    k = _before_directives(body, k)
    if k == 0 or body[k - 1].text == "{":
        return False
    end = k - 1
    if body[end].text == "}":
        depth, o = 0, end
        while o > 0:
            depth += {"}": 1, "{": -1}.get(body[o].text, 0)
            if depth == 0:
                break
            o -= 1
        if body[o - 1].text != ":":
            return True           # the end of an if or loop block: it may fall
        end = _before_directives(body, end) - 1
    if body[end].text != ";":
        return True
    j = end - 1
    while j > 0 and body[j - 1].text not in (";", "{", "}", ":"):
        j -= 1
    return body[j].text not in JUMPS


def rule_plain_default(site: Site, root: str) -> Decision | None:
    """The first statement after a lone `default:` of a switch on the
    handler's command parameter itself returns or assigns the errno."""
    if site.row["role"] != "handler" or site.row["arm"] != "default" or site.labels != ["default"]:
        return None
    if site.row["errno"] in ("ENOTTY", "ENOIOCTLCMD", "ENODEV") or site.row["kind"] == "init":
        return None   # -ENODEV in a default is a "not mine" answer to a caller that tries the next one
    if not site.headers or site.headers[0][0] != "switch":
        return None
    expr = [t for t in site.headers[0][1] if t not in ("(", ")", "unsigned", "int", "long", "u32", "__u32")]
    if expr != [site.command]:
        return None
    if filtered_before(site):
        return None
    if falls_into_labels(site.fn.body, site.at):
        return Decision("MIXED", "fallthrough-default", "a known command falls through into the default")
    if root.startswith("ndo_") or site.row["file"].startswith(("virt/kvm/", "arch/")) and "/kvm/" in site.row["file"] \
            or oss_api(site.row["file"]):
        return None
    return Decision("REAL", "plain-default", f"default of the switch on {site.command} answers -{site.row['errno']}")


RULES: list[tuple[str, Rule]] = [
    ("already-enotty", rule_already_enotty),
    ("try-next", rule_try_next),
    ("known-only-core", rule_known_only_core),
    ("kvm-arch", rule_kvm_arch),
    ("known-only-helper", rule_known_only_helper),
    ("known-command-branch", rule_known_command_branch),
    ("after-command-filter", rule_after_command_filter),
    ("user-copy", rule_user_copy),
    ("no-memory", rule_no_memory),
    ("state-guard", rule_state_guard),
    ("argument-guard", rule_argument_guard),
    ("plain-default", rule_plain_default),
]


# ------------------------------------------------------------------ apply

def roots(rows: Sequence[dict[str, str]]) -> dict[str, str]:
    """Each function's root member: a handler's entry, a helper's caller's root."""
    entry = {r["function"]: (r["role"], r["entry"]) for r in rows}
    out: dict[str, str] = {}
    for fn in entry:
        seen: set[str] = set()
        cur = fn
        while cur in entry and entry[cur][0] == "helper" and cur not in seen:
            seen.add(cur)
            cur = entry[cur][1]
        out[fn] = entry[cur][1] if cur in entry and entry[cur][0] == "handler" else "?"
    return out


class Tree:
    def __init__(self, root: Path) -> None:
        self.root = root
        self._tokens: dict[str, list[Token]] = {}
        self._lines: dict[str, list[str]] = {}

    def tokens(self, rel: str) -> list[Token]:
        if rel not in self._tokens:
            self._tokens[rel] = tokenize(read_text(self.root / rel))
        return self._tokens[rel]

    def lines(self, rel: str) -> list[str]:
        if rel not in self._lines:
            self._lines[rel] = read_text(self.root / rel).splitlines(keepends=True)
        return self._lines[rel]

    def helper_calls(self, rel: str, fn: Function) -> list[bool] | None:
        """For a static helper: per use of its name elsewhere in the file,
        whether only known commands reach it; None when not static or its
        address is taken."""
        toks = self.tokens(rel)
        if not is_static(toks, fn):
            return None
        out = []
        callers = [f for f in all_functions(toks) if not (f.start == fn.start)]
        for caller in callers:
            names = derived_names(caller.body, command_name(caller))
            for i, t in enumerate(caller.body):
                if t.text != fn.name:
                    continue
                if i + 1 >= len(caller.body) or caller.body[i + 1].text != "(":
                    return None
                out.append(known_only_call(caller.body, i, names))
        uses = sum(1 for t in toks if t.text == fn.name)
        if uses != len(out) + 1 + sum(1 for f in find_functions(toks, fn.name) if f.start != fn.start):
            return None   # used outside a function body (an ops table) or twice defined
        return out

    def function(self, rel: str, name: str, line: int) -> Function | None:
        if not (self.root / rel).is_file():
            return None
        for fn in find_functions(self.tokens(rel), name):
            if fn.start <= line <= fn.end:
                return fn
        return None


def is_static(tokens: Sequence[Token], fn: Function) -> bool:
    i = next((k for k, t in enumerate(tokens) if t.line == fn.start and t.text == fn.name), None)
    if i is None:
        return False
    k = i - 1
    while k >= 0 and tokens[k].text not in (";", "}", "{", ")") and not tokens[k].text.startswith("#"):
        if tokens[k].text == "static":
            return True
        k -= 1
    return False


def decide(tree: Tree, row: dict[str, str], root: str) -> tuple[Decision, str] | None:
    fn = tree.function(row["file"], row["function"], int(row["line"]))
    if fn is None:
        return None
    site = site_context(row, fn)
    if site is None:
        return None
    if row["role"] == "helper":
        site.helper_calls = tree.helper_calls(row["file"], fn)
    for name, rule in RULES:
        d = rule(site, root)
        if d is not None:
            return d, f"rule:{name}"
    return None


def guard_text(tree: Tree, row: dict[str, str]) -> str:
    lines = tree.lines(row["file"])
    n = int(row["line"])
    return " | ".join(x.strip() for x in lines[max(0, n - 3):n])[:200]


def read_verdicts(paths: Sequence[Path]) -> dict[tuple[str, str, str], Decision]:
    out: dict[tuple[str, str, str], Decision] = {}
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"{path}: {exc.strerror}") from None
        for r in csv.DictReader(io.StringIO(text), delimiter="\t", quoting=csv.QUOTE_NONE):
            if any(r.get(c) in (None, "") for c in READ_COLUMNS):
                raise UsageError(f"{path}: a row lacks one of {', '.join(READ_COLUMNS)}: {r}")
            if r["verdict"] not in VERDICTS:
                raise UsageError(f"{path}: {r['file']}:{r['line']}: verdict {r['verdict']!r} not one of {', '.join(VERDICTS)}")
            out[(r["file"], r["line"], r["function"])] = Decision(r["verdict"], r["class"], r["reason"])
    return out


def apply(tree: Tree, census: Sequence[dict[str, str]], read: dict[tuple[str, str, str], Decision]
          ) -> tuple[list[tuple[str, ...]], list[dict[str, str]]]:
    rooted = roots(census)
    out: list[tuple[str, ...]] = []
    todo: list[dict[str, str]] = []
    for row in census:
        got = decide(tree, row, rooted.get(row["function"], "?"))
        if got is None:
            d = read.get((row["file"], row["line"], row["function"]))
            if d is None:
                todo.append(row)
                continue
            got = d, "read"
        d, how = got
        out.append((row["file"], row["line"], row["function"], d.verdict, d.klass, d.reason, how))
    return out, todo


# ------------------------------------------------------------------ carry

def carry(new: Tree, old: Tree, verdicts: Sequence[dict[str, str]], old_census: Sequence[dict[str, str]]
          ) -> tuple[list[tuple[str, ...]], list[dict[str, str]]]:
    by_site = {(v["file"], v["function"], int(v["line"])): v for v in verdicts}
    out: list[tuple[str, ...]] = []
    lost: list[dict[str, str]] = []
    for row in old_census:
        line = int(row["line"])
        ofn = old.function(row["file"], row["function"], line)
        v = None
        if ofn is not None:
            for nfn in find_functions(new.tokens(row["file"]), row["function"]) if (new.root / row["file"]).is_file() else []:
                if function_text(new.lines(row["file"]), nfn) == function_text(old.lines(row["file"]), ofn):
                    v = by_site.get((row["file"], row["function"], line - ofn.start + nfn.start))
                    break
        if v is None:
            lost.append(row)
            continue
        out.append((row["file"], row["line"], row["function"], v["verdict"], v["class"], v["reason"], v["how"]))
    return out, lost


# ------------------------------------------------------------------ missed

# ------------------------------------------------------------------ cli

def load(path: Path, columns: Sequence[str]) -> list[dict[str, str]]:
    from .census import read_tsv
    return read_tsv(path, columns)


def kernel(path: str) -> Tree:
    root = Path(path).expanduser()
    if not (root / "include/uapi/asm-generic/errno-base.h").is_file() and not root.is_dir():
        raise UsageError(f"{root} is not a directory")
    return Tree(root.resolve())


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if not args or args[0] not in ("apply", "carry", "count", "missed"):
            raise UsageError("usage: verdicts apply|carry|count|missed ... (see the module's docstring)")
        p = argparse.ArgumentParser(prog=f"python3 -m enotty.measure.verdicts {args[0]}")
        if args[0] == "apply":
            p.add_argument("--kdir", required=True)
            p.add_argument("--todo", action="store_true", help="print the undecided rows instead")
            p.add_argument("census", type=Path)
            p.add_argument("read", type=Path, nargs="*")
            a = p.parse_args(args[1:])
            tree = kernel(a.kdir)
            out, todo = apply(tree, load(a.census, CENSUS_COLUMNS), read_verdicts(a.read))
            if a.todo:
                sys.stdout.write(write_tsv(CENSUS_COLUMNS + ("context",),
                                           ([r[c] for c in CENSUS_COLUMNS] + [guard_text(tree, r)] for r in todo)))
                return 0
            if todo:
                for r in todo[:20]:
                    print(f"undecided: {r['file']}:{r['line']} {r['function']}", file=sys.stderr)
                raise UsageError(f"{len(todo)} census rows have no verdict (rule or read); --todo lists them")
            sys.stdout.write(write_tsv(VERDICT_COLUMNS, out))
            return 0
        if args[0] == "carry":
            p.add_argument("--kdir", required=True, help="the tree the verdicts are for")
            p.add_argument("--to-kdir", required=True, help="the other tree")
            p.add_argument("verdicts", type=Path)
            p.add_argument("census", type=Path, help="the other tree's census")
            a = p.parse_args(args[1:])
            out, lost = carry(kernel(a.kdir), kernel(a.to_kdir), load(a.verdicts, VERDICT_COLUMNS),
                              load(a.census, CENSUS_COLUMNS))
            print(f"verdicts: {len(out)} rows carried over, {len(lost)} not (function text differs or absent)",
                  file=sys.stderr)
            sys.stdout.write(write_tsv(VERDICT_COLUMNS, out))
            return 0
        if args[0] == "missed":
            p.add_argument("tables", type=Path, nargs="+", help="CENSUS VERDICTS pairs, then SITES.tsv")
            a = p.parse_args(args[1:])
            if len(a.tables) < 3 or len(a.tables) % 2 == 0:
                raise UsageError("missed needs CENSUS.tsv VERDICTS.tsv pairs, then SITES.tsv")
            *pairs, sites = a.tables
            loaded = [(load(pairs[i], ("file", "line", "errno")), load(pairs[i + 1], VERDICT_COLUMNS))
                      for i in range(0, len(pairs), 2)]
            out, counts = missed(loaded, load(sites, ("file", "line")), read_kept(pairs[0].parent / "kept.tsv"))
            print(f"REAL {counts['REAL']}, MIXED {counts['MIXED']}, STAYS {counts['STAYS']}; REAL found "
                  f"{counts['found']}, converted {counts['converted']}, not converted {len(out)}"
                  f" (left out {counts['found'] - counts['converted']}, kept without a rule {counts['kept']},"
                  f" not found {counts['not found']})", file=sys.stderr)
            sys.stdout.write(write_tsv(("file", "line", "function", "errno", "reason-guess"), out))
            return 0
        p.add_argument("verdicts", type=Path)
        a = p.parse_args(args[1:])
        rows = load(a.verdicts, VERDICT_COLUMNS)
        counts = Counter(r["verdict"] for r in rows)
        hows = Counter("rule" if r["how"].startswith("rule:") else r["how"] for r in rows)
        print("\t".join(f"{v} {counts[v]}" for v in VERDICTS) + f"\ttotal {len(rows)}\t" +
              "\t".join(f"{h} {n}" for h, n in sorted(hows.items())))
        return 0
    except UsageError as exc:
        print(f"enotty.measure.verdicts: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
