"""A second census of ioctl handlers, found by following the command, to
show what the first census (census.py) and the rules miss together.

    python3 -m enotty.measure.census2 [--kdir DIR] --first CENSUS.tsv > census2.tsv

The first census starts from members whose name contains "ioctl" and
follows direct calls.  This one starts from the same seeds plus the
members the kernel documents as ioctl entries under other names
(`vidioc_default`, `ndo_siocdevprivate`), and then follows the command
wherever it goes:

- a call through a member, `x->m(..., cmd, ...)` or `x.m(...)`, makes m a
  command member: every function the tree stores in m (designated
  initialiser or assignment, in .c and .h files) is a handler, so
  per-machine vectors (`dmasound.mach.mixer_ioctl(cmd, arg)`) and
  sub-feature ops (`f->ops->ioctl(pdev, f, cmd, arg)`) are reached;
- a function handed to a call together with the command
  (`dvb_usercopy(file, cmd, arg, dvb_ca_ioctl)`) is a handler;
- a direct call passing the command makes the callee a helper;
- an ops table built by token pasting (`.unlocked_ioctl = name##_ioctl` in
  a `#define`) binds the pasted name of every use of the macro.

Functions are found on the token stream (no ctags), in every .c and .h
file that mentions "ioctl" or a word "cmd".  Exits are the first census's
(errno_sites), so that a row of both lists is the same row.  Columns: the
first census's, then `found` (how this census reached the function) and
`in_first` (yes when the first census has the site, function when it has
the function but not the site, no when it lacks the function).
"""
from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Sequence

from ..find.ctext import Token, tokenize
from .census import (CENSUS_COLUMNS, call_args, DEFAULT_KDIR, UsageError, command_param, errno_names, errno_sites,
                     kernel_files, param_name, read_text, read_tsv, strip_to_name, write_tsv)
from .verdicts import Function, all_functions

SEED_SUBSTRING = "ioctl"
# Members that carry the command under another name (Documentation/driver-api/media, netdevices.rst).
SEED_MEMBERS = frozenset(("vidioc_default", "ndo_siocdevprivate", "ndo_eth_ioctl", "ndo_do_ioctl"))
PREFILTER = re.compile(rb"ioctl|\bcmd\b")
MAX_DEPTH = 6
COLUMNS = CENSUS_COLUMNS + ("found", "in_first")


@dataclass
class Def:
    fn: Function
    file: str
    static: bool
    cmd: str | None
    member_calls: set[str] = field(default_factory=set)     # members called with the command
    helper_calls: set[str] = field(default_factory=set)     # functions called with the command
    callbacks: set[str] = field(default_factory=set)        # names passed beside the command


@dataclass
class Scan:
    defs: dict[str, list[Def]] = field(default_factory=lambda: defaultdict(list))
    bindings: dict[str, list[tuple[str, str]]] = field(default_factory=lambda: defaultdict(list))  # member -> (fn, file)
    tokens: dict[str, list[Token]] = field(default_factory=dict)
    pasted: set[str] = field(default_factory=set)       # functions bound by a token-pasting macro


def follow_command(d: Def) -> None:
    """Where the function's command goes: members, callees, callbacks."""
    if d.cmd is None:
        return
    body = d.fn.body
    for i in range(1, len(body) - 1):
        name = body[i].text
        if body[i + 1].text != "(" or not re.fullmatch(r"[A-Za-z_]\w*", name):
            continue
        args, _ = call_args(body, i + 1)
        if not any(strip_to_name(a) == d.cmd for a in args):
            continue
        if body[i - 1].text in (".", "->"):
            d.member_calls.add(name)
            continue
        d.helper_calls.add(name)
        for a in args:
            word = strip_to_name(a)
            if word and word != d.cmd and re.fullmatch(r"[a-z_]\w*", word) and len(a) == 1:
                d.callbacks.add(word)


def member_bindings(tokens: Sequence[Token]) -> Iterator[tuple[str, str, int]]:
    """`.m = f`, `->m = f`, `.m = &f` for any member m: (m, f, line)."""
    n = len(tokens)
    for i in range(1, n - 2):
        if tokens[i - 1].text not in (".", "->") or tokens[i + 1].text != "=":
            continue
        j = i + 2
        while j < n and tokens[j].text in ("&", "("):
            j += 1
        if j + 1 < n and re.fullmatch(r"[A-Za-z_]\w*", tokens[j].text) and tokens[j + 1].text in (",", ";", "}", ")"):
            yield tokens[i].text, tokens[j].text, tokens[i].line


@dataclass(frozen=True)
class Template:
    """A macro parameter pasted into a member's value: `.m = p ## _ioctl`."""
    member: str
    param: int
    pieces: tuple[str, ...]   # the pasted pieces, the parameter's own name among them
    name: str                 # that parameter's name


def macro_defs(tokens: Sequence[Token], lines: Sequence[str]) -> Iterator[tuple[str, list[str], list[Token]]]:
    """Every `#define NAME(params) body`: its name, parameters and body
    tokens (the lines continued with a backslash)."""
    n = len(tokens)
    for d in range(1, n - 2):
        if tokens[d - 1].text != "#" or tokens[d].text != "define" or tokens[d + 2].text != "(":
            continue
        if tokens[d + 2].line != tokens[d + 1].line:
            continue
        close = d + 2
        while close < n and tokens[close].text != ")":
            close += 1
        params = [t.text for t in tokens[d + 3:close] if t.text != ","]
        last = tokens[d].line
        while last - 1 < len(lines) and lines[last - 1].rstrip().endswith("\\"):
            last += 1
        body = [t for t in tokens[close + 1:] if t.line <= last]
        yield tokens[d + 1].text, params, body


def templates_and_edges(tokens: Sequence[Token], lines: Sequence[str]
                        ) -> tuple[dict[str, set[Template]], list[tuple[str, str, dict[int, int]]]]:
    """Per macro its pasted members, and the uses of other macros in its
    body that pass its parameters on: (macro, used macro, {used index: own index})."""
    templates: dict[str, set[Template]] = defaultdict(set)
    edges = []
    for name, params, body in macro_defs(tokens, lines):
        n = len(body)
        for i in range(1, n - 4):
            if body[i - 1].text == "." and body[i + 1].text == "=":
                pieces = [body[i + 2].text]
                k = i + 2
                while k + 3 < n and body[k + 1].text == "#" and body[k + 2].text == "#":
                    pieces.append(body[k + 3].text)
                    k += 3
                for idx, prm in enumerate(params):
                    if len(pieces) > 1 and prm in pieces:
                        templates[name].add(Template(body[i].text, idx, tuple(pieces), prm))
        for i in range(n - 1):
            if body[i].text != name and body[i + 1].text == "(" and re.fullmatch(r"[A-Za-z_]\w*", body[i].text):
                args, _ = call_args(body, i + 1)
                mapping = {k: params.index(a[0].text) for k, a in enumerate(args)
                           if len(a) == 1 and a[0].text in params}
                if mapping:
                    edges.append((name, body[i].text, mapping))
    return templates, edges


def close_templates(templates: dict[str, set[Template]], edges: Sequence[tuple[str, str, dict[int, int]]]) -> None:
    """A macro that passes its parameter to a pasting macro pastes it too."""
    changed = True
    while changed:
        changed = False
        for outer, inner, mapping in edges:
            for t in list(templates.get(inner, ())):
                if t.param in mapping:
                    new = Template(t.member, mapping[t.param], t.pieces, t.name)
                    if new not in templates[outer]:
                        templates[outer].add(new)
                        changed = True


def pasted_uses(tokens: Sequence[Token], templates: dict[str, set[Template]]) -> Iterator[tuple[str, str, int]]:
    """(member, pasted function name, line) for every use of a pasting macro."""
    for u in range(1, len(tokens) - 1):
        ts = templates.get(tokens[u].text)
        if not ts or tokens[u + 1].text != "(" or tokens[u - 1].text == "define":
            continue
        args, _ = call_args(tokens, u + 1)
        for t in ts:
            if t.param < len(args) and len(args[t.param]) == 1:
                value = args[t.param][0].text
                yield t.member, "".join(value if p == t.name else p for p in t.pieces), tokens[u].line


def scan(root: Path, progress: bool = False) -> Scan:
    out = Scan()
    files = sorted(kernel_files(root, (".c", ".h")))
    templates: dict[str, set[Template]] = defaultdict(set)
    edges: list[tuple[str, str, dict[int, int]]] = []
    scanned: list[str] = []
    for count, rel in enumerate(files):
        raw = (root / rel).read_bytes()
        if not PREFILTER.search(raw):
            continue
        text = read_text(root / rel)
        toks = tokenize(text)
        scanned.append(rel)
        if b"##" in raw:
            got, more = templates_and_edges(toks, text.splitlines())
            for k, v in got.items():
                templates[k] |= v
            edges.extend(more)
        for m, f, _ in member_bindings(toks):
            out.bindings[m].append((f, rel))
        for fn in all_functions(toks):
            idx = command_param("(" + ", ".join(fn.params) + ")")
            cmd = param_name(fn.params[idx]) if idx is not None and idx < len(fn.params) else None
            d = Def(fn, rel, _is_static(toks, fn), cmd)
            follow_command(d)
            out.defs[fn.name].append(d)
        if progress and count % 5000 == 0:
            print(f"census2: {count}/{len(files)} files", file=sys.stderr)
    close_templates(templates, edges)
    pasting = re.compile(r"\b(" + "|".join(map(re.escape, sorted(templates))) + r")\s*\(") if templates else None
    for rel in scanned:
        if pasting is None or not pasting.search(read_text(root / rel)):
            continue
        for m, f, _ in pasted_uses(tokenize(read_text(root / rel)), templates):
            out.bindings[m].append((f, rel))
            out.pasted.add(f)
    return out


def _is_static(tokens: Sequence[Token], fn: Function) -> bool:
    from .verdicts import is_static
    return is_static(tokens, fn)


def resolve(s: Scan, name: str, from_file: str) -> list[Def]:
    cands = s.defs.get(name, [])
    local = [d for d in cands if d.file == from_file]
    return local or [d for d in cands if not d.static or d.file.endswith(".h")]


def reach(s: Scan) -> dict[tuple[str, int], tuple[Def, str, str, str]]:
    """Every function the command reaches: (file, start) -> (def, role, entry, found)."""
    members = {m for m in s.bindings if SEED_SUBSTRING in m.lower()} | SEED_MEMBERS
    seen: dict[tuple[str, int], tuple[Def, str, str, str]] = {}
    queue: list[tuple[Def, str, str, str, int]] = []
    done_members: set[str] = set()

    def bind(member: str, level: int) -> None:
        if member in done_members:
            return
        done_members.add(member)
        for f, rel in s.bindings.get(member, []):
            for d in resolve(s, f, rel):
                if d.cmd is not None:
                    how = "member" if SEED_SUBSTRING in member.lower() or member in SEED_MEMBERS else "called-member"
                    queue.append((d, "handler", member, "pasted" if f in s.pasted else how, level))

    for m in sorted(members):
        bind(m, 0)
    while queue:
        d, role, entry, found, level = queue.pop(0)
        key = (d.file, d.fn.start)
        if key in seen:
            continue
        seen[key] = (d, role, entry, found)
        if level >= MAX_DEPTH:
            continue
        for m in d.member_calls:
            bind(m, level + 1)
        for callee in d.helper_calls:
            for c in resolve(s, callee, d.file):
                if c.cmd is not None:
                    queue.append((c, "helper", d.fn.name, "helper", level + 1))
        for cb in d.callbacks:
            for c in resolve(s, cb, d.file):
                if c.cmd is not None:
                    queue.append((c, "handler", d.fn.name, "callback", level + 1))
    return seen


def rows(root: Path, first: Sequence[dict[str, str]], progress: bool = False) -> list[tuple[str, ...]]:
    s = scan(root, progress)
    errnos = errno_names(root)
    sites = {(r["file"], r["line"]) for r in first}
    functions = {(r["file"], r["function"]) for r in first}
    out: list[tuple[str, ...]] = []
    for d, role, entry, found in reach(s).values():
        for line, kind, errno, arm in errno_sites(d.fn.body, d.cmd, errnos):
            if (d.file, str(line)) in sites:
                have = "yes"
            elif (d.file, d.fn.name) in functions:
                have = "function"
            else:
                have = "no"
            out.append((d.file, str(line), d.fn.name, role, entry, kind, errno, arm, found, have))
    out.sort(key=lambda r: (r[0], int(r[1]), r[2]))
    deduped: list[tuple[str, ...]] = []
    last = None
    for r in out:
        if (r[0], r[1]) != last:
            deduped.append(r)
        last = (r[0], r[1])
    return deduped


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python3 -m enotty.measure.census2",
                                description="second census: follow the command (TSV on stdout)")
    p.add_argument("--kdir", default=DEFAULT_KDIR, help="kernel tree (read only)")
    p.add_argument("--first", type=Path, required=True, help="the first census of the same tree")
    a = p.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        root = Path(a.kdir).expanduser()
        if not root.is_dir():
            raise UsageError(f"--kdir {root} is not a directory")
        first = read_tsv(a.first, CENSUS_COLUMNS)
        out = rows(root.resolve(), first, progress=True)
    except UsageError as exc:
        print(f"enotty.measure.census2: {exc}", file=sys.stderr)
        return 2
    new = sum(r[-1] != "yes" for r in out)
    print(f"census2: {len(out)} sites, {new} not in the first census", file=sys.stderr)
    sys.stdout.write(write_tsv(COLUMNS, out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
