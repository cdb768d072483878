"""An independent census of ioctl handlers and their errno exits, to measure
the rules' recall on a list that does not share their assumptions.

    python3 -m enotty.measure.census [--kdir DIR]             census TSV on stdout
    python3 -m enotty.measure.census sample --seed N [--count 60] [--where C=V].. [--unless C=V].. CENSUS.tsv
    python3 -m enotty.measure.census compare SAMPLE.tsv [SAMPLE.tsv..] SITES.tsv

Why a second list: `enotty candidates` and the rules agree on what a handler
looks like (the interface table, the recognised dispatch shapes), so a miss
that both share is invisible.  This census knows nothing of those: a handler
is any function that universal-ctags knows as a function definition and that
the tree assigns to a struct member whose name contains "ioctl" (designated
initialisers `.x_ioctl = f` and plain assignments `p->x_ioctl = f`, found on
a C token stream, not with the C-text reader's regular expressions); a helper
is any function such a function calls with its command parameter passed
through.  A candidate site is every `return -E...;`, `x = -E...;` or
initialiser `int ret = -E...;` of an errno constant in those functions, except
inside a `case` arm of a switch on the command (only known commands reach
those).  That is deliberately generous: the sample is classified by reading.
"""
from __future__ import annotations

import argparse
import csv
import io
import os
import random
import re
import subprocess
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from ..find.ctext import Token, tokenize

DEFAULT_KDIR = "~/.cache/enotty/src/linux-source-6.12"
# User-space code and prose; the census is of kernel handlers.
SKIPPED_TOP = ("tools", "Documentation", ".git")
# How far helpers are followed from a handler (handler -> helper -> helper ...).
HELPER_DEPTH = 4
CENSUS_COLUMNS = ("file", "line", "function", "role", "entry", "kind", "errno", "arm")
SAMPLE_COLUMNS = ("file", "line", "function", "shape", "verdict", "reason")

C_KEYWORDS = frozenset(
    "if else while for do switch case default return goto break continue sizeof typeof "
    "__typeof__ _Generic asm __asm__ volatile struct union enum static const inline "
    "unsigned signed int long short char void".split()
)
# Words that may precede the command in a cast or a parameter's type.
TYPE_WORDS = frozenset(
    "unsigned signed int long short char u8 u16 u32 u64 __u32 __u64 uint uint32_t "
    "compat_uint_t compat_ulong_t const".split()
)
# Parameter names that say "this is the command" (before falling back on position).
CMD_NAMES = re.compile(r"^(cmd|command|ioctl|ioctl_cmd|ioctlcmd|iocmd|ucmd|cmd_in|req|request|code|nr|op|opcode|c)$|cmd", re.I)


class UsageError(Exception):
    """Bad input: reported in one line, exit status 2."""


# ---------------------------------------------------------------- tokens

def read_text(path: Path) -> str:
    # Kernel sources are mostly UTF-8 with some Latin-1; the census only
    # needs identifiers and punctuation, so any byte maps to something.
    return path.read_bytes().decode("latin-1")


# ---------------------------------------------------------------- the tree

def kernel_files(root: Path, suffixes: tuple[str, ...]) -> Iterator[str]:
    for folder, dirs, names in os.walk(root):
        if Path(folder) == root:
            dirs[:] = [d for d in dirs if d not in SKIPPED_TOP]
        dirs[:] = [d for d in dirs if d != ".git"]
        for name in names:
            if name.endswith(suffixes):
                yield os.path.relpath(os.path.join(folder, name), root)


def errno_names(root: Path) -> frozenset[str]:
    """The errno constants the tree defines (uapi and kernel-internal)."""
    names: set[str] = set()
    for header in ("include/uapi/asm-generic/errno-base.h", "include/uapi/asm-generic/errno.h",
                   "include/linux/errno.h"):
        path = root / header
        if not path.is_file():
            continue
        toks = tokenize(read_text(path))
        for i in range(len(toks) - 2):
            if toks[i].text == "#" and toks[i + 1].text == "define" and re.fullmatch(r"E[A-Z0-9_]+", toks[i + 2].text):
                names.add(toks[i + 2].text)
    if not names:
        raise UsageError(f"{root}: no errno header (include/uapi/asm-generic/errno-base.h): not a kernel tree?")
    return frozenset(names)


@dataclass(frozen=True)
class FunctionDef:
    name: str
    file: str
    start: int
    end: int
    signature: str
    static: bool


def ctags_functions(root: Path, files: Sequence[str]) -> dict[str, list[FunctionDef]]:
    """Every function definition universal-ctags finds, by name."""
    if not files:
        return {}
    cmd = ["ctags", "-x", "--language-force=C", "--kinds-C=f", "--fields=+neS",
           "--fields-C=+{properties}", "--_xformat=%N\t%F\t%n\t%e\t%{C.properties}\t%S", "-L", "-", "-f", "-"]
    try:
        res = subprocess.run(cmd, cwd=root, input="\n".join(files) + "\n", capture_output=True,
                             text=True, errors="replace", check=False)
    except FileNotFoundError:
        raise UsageError("ctags is missing: apt-get install universal-ctags") from None
    if res.returncode != 0:
        raise UsageError(f"ctags failed: {res.stderr.strip().splitlines()[-1] if res.stderr.strip() else res.returncode}")
    defs: dict[str, list[FunctionDef]] = defaultdict(list)
    for row in res.stdout.splitlines():
        parts = row.split("\t", 5)
        if len(parts) != 6 or not parts[2].isdigit():
            continue
        name, fname, start, end, props, sig = parts
        stop = int(end) if end.isdigit() else int(start)
        defs[name].append(FunctionDef(name, fname, int(start), stop, sig, "static" in props.split(",")))
    return defs


# ------------------------------------------------------- ioctl member uses

@dataclass(frozen=True)
class Binding:
    member: str
    function: str
    file: str
    line: int


def ioctl_bindings(rel: str, tokens: Sequence[Token]) -> list[Binding]:
    """`.m = f`, `.m = &f`, `x->m = f`, `x.m = f` where m contains "ioctl"."""
    found = []
    n = len(tokens)
    for i in range(1, n - 2):
        member = tokens[i].text
        if "ioctl" not in member.lower() or tokens[i - 1].text not in (".", "->"):
            continue
        if tokens[i + 1].text != "=":
            continue
        j = i + 2
        while j < n and tokens[j].text in ("&", "("):
            j += 1
        if j < n and re.fullmatch(r"[A-Za-z_]\w*", tokens[j].text) and tokens[j].text not in C_KEYWORDS:
            # The value must end there: `f,` `f;` `f}` `f)`, not `f(x)` (a call).
            nxt = tokens[j + 1].text if j + 1 < n else ";"
            if nxt in (",", ";", "}", ")"):
                found.append(Binding(member, tokens[j].text, rel, tokens[i].line))
    return found


# ------------------------------------------------------------ function bodies

def split_params(signature: str) -> list[str]:
    inner = signature.strip()
    if inner.startswith("(") and inner.endswith(")"):
        inner = inner[1:-1]
    params, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            params.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        params.append(cur.strip())
    return params


def param_name(param: str) -> str:
    words = re.findall(r"[A-Za-z_]\w*", param)
    return words[-1] if words else ""


def command_param(signature: str) -> int | None:
    """Which parameter carries the command: one named like a command with an
    integer type, else the first integer (non-pointer) parameter."""
    params = split_params(signature)
    integer = [i for i, p in enumerate(params)
               if "*" not in p and "(" not in p and len(re.findall(r"[A-Za-z_]\w*", p)) >= 2
               and not p.startswith(("struct", "const struct", "union")) and "fmode_t" not in p
               and "blk_mode_t" not in p]
    for i in integer:
        if CMD_NAMES.search(param_name(params[i])):
            return i
    return integer[0] if integer else None


def body_tokens(tokens: Sequence[Token], fdef: FunctionDef) -> list[Token]:
    """The tokens of the function's body: from the first `{` after the
    parameter list closes, to its matching `}`."""
    inside = [t for t in tokens if fdef.start <= t.line <= fdef.end]
    depth, i = 0, 0
    while i < len(inside):
        text = inside[i].text
        if text == "(":
            depth += 1
        elif text == ")":
            depth -= 1
        elif text == "{" and depth == 0:
            break
        i += 1
    body = []
    level = 0
    for tok in inside[i:]:
        body.append(tok)
        if tok.text == "{":
            level += 1
        elif tok.text == "}":
            level -= 1
            if level == 0:
                break
    return body


def strip_to_name(arg: Sequence[Token]) -> str | None:
    """The identifier an argument passes through unchanged (casts and
    parentheses aside), or None."""
    words = [t.text for t in arg if t.text not in ("(", ")")]
    if not words:
        return None
    if all(w in TYPE_WORDS for w in words[:-1]):
        return words[-1]
    return None


def call_args(body: Sequence[Token], open_: int) -> tuple[list[list[Token]], int]:
    """The arguments of the call whose `(` is at open_, and the index of its `)`."""
    args: list[list[Token]] = []
    cur: list[Token] = []
    depth = 0
    j = open_
    while j < len(body):
        t = body[j].text
        if t in ("(", "[", "{"):
            depth += 1
            if depth == 1:
                j += 1
                continue
        elif t in (")", "]", "}"):
            depth -= 1
            if depth == 0:
                args.append(cur)
                return args, j
        if t == "," and depth == 1:
            args.append(cur)
            cur = []
        else:
            cur.append(body[j])
        j += 1
    return args, j


def calls_passing(body: Sequence[Token], name: str) -> list[tuple[str, int, int]]:
    """(callee, argument index, line) for every call in body with `name`
    passed through as an argument."""
    out = []
    for i in range(len(body) - 1):
        callee = body[i].text
        if body[i + 1].text != "(" or not re.fullmatch(r"[A-Za-z_]\w*", callee) or callee in C_KEYWORDS:
            continue
        if i > 0 and body[i - 1].text in (".", "->"):
            continue  # a call through a pointer: the target is not known by name
        args, _close = call_args(body, i + 1)
        for k, arg in enumerate(args):
            if strip_to_name(arg) == name:
                out.append((callee, k, body[i].line))
    return out


def is_declaration(lead: Sequence[str]) -> bool:
    """Whether the tokens before `= -E...;` declare the variable (`int ret`,
    `long a, err`) rather than assign it (`ret`, `else ret`, `if (x) ret`)."""
    words = [w for w in lead if w != ","]
    if not all(w == "*" or re.fullmatch(r"[A-Za-z_]\w*", w) for w in words):
        return False
    names = [w for w in words if w != "*"]
    return len(names) >= 2 and not any(w in ("else", "do", "return", "case", "default") for w in names)


@dataclass
class _Frame:
    on_command: bool
    depth: int
    arm: str = "none"


def errno_sites(body: Sequence[Token], cmd: str | None, errnos: frozenset[str]) -> list[tuple[int, str, str, str]]:
    """(line, kind, errno, arm) of every errno return, assignment and
    initialiser in body, except inside a case arm of a switch on cmd."""
    sites = []
    switches: list[_Frame] = []
    depth = 0
    pending_switch: bool | None = None
    stmt_start = 0
    i = 0
    n = len(body)
    while i < n:
        text = body[i].text
        if text == "switch" and i + 1 < n and body[i + 1].text == "(":
            # The controlling expression: up to the matching parenthesis.
            j, pd = i + 1, 0
            words = []
            while j < n:
                if body[j].text == "(":
                    pd += 1
                elif body[j].text == ")":
                    pd -= 1
                    if pd == 0:
                        break
                words.append(body[j].text)
                j += 1
            pending_switch = cmd is not None and cmd in words
            i = j + 1
            continue
        if text == "{":
            depth += 1
            if pending_switch is not None:
                switches.append(_Frame(pending_switch, depth))
                pending_switch = None
            stmt_start = i + 1
        elif text == "}":
            if switches and switches[-1].depth == depth:
                switches.pop()
            depth -= 1
            stmt_start = i + 1
        elif text == ";":
            stmt_start = i + 1
        elif text in ("case", "default") and switches:
            # Labels of the innermost switch (at its depth or in blocks within).
            switches[-1].arm = text
            j = i + 1
            while j < n and body[j].text != ":":
                j += 1
            i = j + 1
            stmt_start = i
            continue
        elif text == "return" or text == "=":
            j = i + 1
            while j < n and body[j].text == "(":
                j += 1
            minus = j < n and body[j].text == "-"
            if minus:
                j += 1
            k = j + 1
            while k < n and body[k].text == ")":
                k += 1
            if j < n and body[j].text in errnos and k < n and body[k].text == ";" and (minus or text == "return"):
                if not any(f.on_command and f.arm == "case" for f in switches):
                    if text == "return":
                        kind = "return"
                    else:
                        kind = "init" if is_declaration([t.text for t in body[stmt_start:i]]) else "assign"
                    arm = next((f.arm for f in reversed(switches) if f.on_command), "none")
                    arm = "default" if arm == "default" else "outside"
                    sites.append((body[i].line, kind, body[j].text, arm))
                i = k
                continue
        i += 1
    return sites


# ------------------------------------------------------------------ census

@dataclass
class Census:
    rows: list[tuple[str, int, str, str, str, str, str, str]] = field(default_factory=list)
    handlers: int = 0
    helpers: int = 0


def build(root: Path, progress: bool = False) -> Census:
    errnos = errno_names(root)
    sources = sorted(kernel_files(root, (".c", ".h")))
    token_cache: dict[str, list[Token]] = {}

    def toks(rel: str) -> list[Token]:
        if rel not in token_cache:
            token_cache[rel] = tokenize(read_text(root / rel))
        return token_cache[rel]

    bindings: list[Binding] = []
    for rel in sources:
        raw = (root / rel).read_bytes()
        if b"ioctl" not in raw.lower():
            continue
        bindings.extend(ioctl_bindings(rel, toks(rel)))
    if progress:
        print(f"census: {len(bindings)} ioctl member assignments", file=sys.stderr)
    defs = ctags_functions(root, sources)

    def resolve(name: str, from_file: str) -> list[FunctionDef]:
        cands = defs.get(name, [])
        local = [d for d in cands if d.file == from_file]
        if local:
            return local
        return [d for d in cands if not d.static or d.file.endswith(".h")]

    # (function def) -> (role, entry, command parameter index)
    seen: dict[tuple[str, int], tuple[FunctionDef, str, str, int]] = {}
    queue: list[tuple[FunctionDef, str, str, int, int]] = []
    for b in bindings:
        for fdef in resolve(b.function, b.file):
            idx = command_param(fdef.signature)
            if idx is None:
                continue
            queue.append((fdef, "handler", b.member, idx, 0))
    while queue:
        fdef, role, entry, idx, level = queue.pop(0)
        key = (fdef.file, fdef.start)
        if key in seen:
            if role == "handler" and seen[key][1] == "helper":
                seen[key] = (fdef, role, entry, idx)
            continue
        seen[key] = (fdef, role, entry, idx)
        if level >= HELPER_DEPTH:
            continue
        params = split_params(fdef.signature)
        if idx >= len(params):
            continue
        cmd = param_name(params[idx])
        for callee, argi, _line in calls_passing(body_tokens(toks(fdef.file), fdef), cmd):
            for cdef in resolve(callee, fdef.file):
                if argi < len(split_params(cdef.signature)):
                    queue.append((cdef, "helper", fdef.name, argi, level + 1))
    census = Census()
    for fdef, role, entry, idx in seen.values():
        if role == "handler":
            census.handlers += 1
        else:
            census.helpers += 1
        params = split_params(fdef.signature)
        command = param_name(params[idx]) if idx < len(params) else None
        for line, kind, errno, arm in errno_sites(body_tokens(toks(fdef.file), fdef), command, errnos):
            census.rows.append((fdef.file, line, fdef.name, role, entry, kind, errno, arm))
    census.rows.sort(key=lambda r: (r[0], r[1], r[2]))
    # One row per site: a line shared by two definitions (#if twins) once.
    deduped, last = [], None
    for row in census.rows:
        if (row[0], row[1]) != last:
            deduped.append(row)
        last = (row[0], row[1])
    census.rows = deduped
    return census


# ----------------------------------------------------- sample and compare

def read_tsv(path: Path, needed: Iterable[str]) -> list[dict[str, str]]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"{path}: {exc.strerror}") from None
    rows = list(csv.DictReader(io.StringIO(text), delimiter="\t", quoting=csv.QUOTE_NONE))
    missing = [c for c in needed if rows and c not in rows[0]] or ([] if rows else ["(no rows)"])
    if missing:
        raise UsageError(f"{path}: not the expected TSV (missing {', '.join(missing)})")
    return rows


def parse_conditions(texts: Sequence[str]) -> list[tuple[str, str]]:
    out = []
    for text in texts:
        column, sep, value = text.partition("=")
        if not sep or column not in CENSUS_COLUMNS:
            raise UsageError(f"{text!r}: expected COLUMN=VALUE with COLUMN one of {', '.join(CENSUS_COLUMNS)}")
        out.append((column, value))
    return out


def stratum(rows: Sequence[dict[str, str]], where: Sequence[tuple[str, str]],
            unless: Sequence[tuple[str, str]]) -> list[dict[str, str]]:
    """The rows that match any `where` condition (all rows if none is
    given) and no `unless` condition: a stratum of the census, so that a
    supplementary sample can look where the unknown-command exits gather."""
    return [r for r in rows
            if (not where or any(r[c] == v for c, v in where)) and not any(r[c] == v for c, v in unless)]


def draw_sample(census_rows: Sequence[dict[str, str]], seed: int, count: int) -> list[dict[str, str]]:
    if count > len(census_rows):
        raise UsageError(f"the census has {len(census_rows)} sites, fewer than {count}")
    picked = random.Random(seed).sample(list(census_rows), count)
    return sorted(picked, key=lambda r: (r["file"], int(r["line"])))


@dataclass
class Comparison:
    by_shape: dict[str, Counter[str]]
    verdicts: Counter[str]
    real: int
    real_found: int
    real_converted: int
    found: int
    found_real: int
    converted: int
    converted_real: int
    misses: list[dict[str, str]]
    # Sample sites in a series that reading says are not REAL (precision).
    wrong: list[dict[str, str]] = field(default_factory=list)


def merge_samples(samples: Sequence[Sequence[dict[str, str]]]) -> list[dict[str, str]]:
    """Several classified samples as one, a site drawn twice counted once
    (the two readings must agree)."""
    merged: dict[tuple[str, str], dict[str, str]] = {}
    for sample in samples:
        for row in sample:
            key = (row["file"], row["line"])
            if key in merged and merged[key]["verdict"] != row["verdict"]:
                raise UsageError(f"{key[0]}:{key[1]}: classified {merged[key]['verdict']!r} and {row['verdict']!r}")
            merged.setdefault(key, row)
    return list(merged.values())


def compare(sample: Sequence[dict[str, str]], sites: Sequence[dict[str, str]]) -> Comparison:
    """Recall: of the sample's REAL sites, how many sites.tsv lists (found)
    and how many are in a series (converted).  Precision: of the sample's
    sites that sites.tsv lists (or converts), how many are REAL."""
    listed = {(s["file"], s["line"]): s for s in sites}
    by_shape: dict[str, Counter[str]] = defaultdict(Counter)
    verdicts: Counter[str] = Counter()
    comp = Comparison(by_shape, verdicts, 0, 0, 0, 0, 0, 0, 0, [])
    for row in sample:
        verdict = row["verdict"].split(":")[0].strip().upper()
        if not verdict:
            raise UsageError(f"{row['file']}:{row['line']}: not classified (empty verdict)")
        verdicts[verdict] += 1
        hit = listed.get((row["file"], row["line"]))
        in_series = hit is not None and hit.get("series", "-") not in ("-", "")
        if hit is not None:
            comp.found += 1
            comp.found_real += verdict == "REAL"
        if in_series:
            comp.converted += 1
            comp.converted_real += verdict == "REAL"
            if verdict != "REAL" and hit is not None:
                comp.wrong.append(dict(row, rule=hit.get("rule", "-"), visible=hit.get("visible", "-")))
        if verdict != "REAL":
            continue
        shape = row["shape"] or "-"
        by_shape[shape]["real"] += 1
        comp.real += 1
        if hit is not None:
            by_shape[shape]["found"] += 1
            comp.real_found += 1
        if in_series:
            by_shape[shape]["converted"] += 1
            comp.real_converted += 1
        if hit is None or not in_series:
            comp.misses.append(dict(row, missed="not found" if hit is None else "found, in no series"))
    return comp


def pct(num: int, den: int) -> str:
    return f"{100.0 * num / den:.1f}% ({num}/{den})" if den else "n/a (0/0)"


def format_comparison(comp: Comparison) -> str:
    out = ["shape\treal\tfound\tconverted\tmissed"]
    for shape in sorted(comp.by_shape):
        c = comp.by_shape[shape]
        out.append(f"{shape}\t{c['real']}\t{c['found']}\t{c['converted']}\t{c['real'] - c['found']}")
    out.append(f"total\t{comp.real}\t{comp.real_found}\t{comp.real_converted}\t{comp.real - comp.real_found}")
    out.append("")
    out.append("verdicts: " + ", ".join(f"{v} {n}" for v, n in sorted(comp.verdicts.items())))
    out.append(f"recall (REAL sites listed in sites.tsv): {pct(comp.real_found, comp.real)}")
    out.append(f"recall (REAL sites in a series):         {pct(comp.real_converted, comp.real)}")
    out.append(f"precision (listed sites that are REAL):  {pct(comp.found_real, comp.found)}")
    out.append(f"precision (converted sites that are REAL): {pct(comp.converted_real, comp.converted)}")
    if comp.misses:
        out.append("")
        out.append("misses:")
        for m in sorted(comp.misses, key=lambda r: (r["shape"], r["file"], int(r["line"]))):
            out.append(f"  {m['shape']}\t{m['file']}:{m['line']}\t{m['function']}\t{m['missed']}\t{m['reason']}")
    if comp.wrong:
        out.append("")
        out.append("in a series but not REAL:")
        for w in sorted(comp.wrong, key=lambda r: (r["file"], int(r["line"]))):
            out.append(f"  {w['verdict']}\t{w['file']}:{w['line']}\t{w['function']}\t{w['rule']}\tvisible={w['visible']}\t{w['reason']}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------- cli

def write_tsv(columns: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    buf = io.StringIO()
    buf.write("\t".join(columns) + "\n")
    for row in rows:
        buf.write("\t".join(str(v) for v in row) + "\n")
    return buf.getvalue()


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if args and args[0] == "sample":
            p = argparse.ArgumentParser(prog="python3 -m enotty.measure.census sample")
            p.add_argument("--seed", type=int, required=True)
            p.add_argument("--count", type=int, default=60)
            p.add_argument("--where", action="append", default=[], metavar="COLUMN=VALUE",
                           help="draw only from rows matching one of these (repeatable)")
            p.add_argument("--unless", action="append", default=[], metavar="COLUMN=VALUE",
                           help="and matching none of these (repeatable)")
            p.add_argument("census", type=Path)
            a = p.parse_args(args[1:])
            rows = stratum(read_tsv(a.census, CENSUS_COLUMNS), parse_conditions(a.where), parse_conditions(a.unless))
            rows = draw_sample(rows, a.seed, a.count)
            sys.stdout.write(write_tsv(SAMPLE_COLUMNS + ("role", "kind", "errno", "arm"),
                                       ((r["file"], r["line"], r["function"], "", "", "", r["role"], r["kind"],
                                         r["errno"], r["arm"]) for r in rows)))
            return 0
        if args and args[0] == "compare":
            p = argparse.ArgumentParser(prog="python3 -m enotty.measure.census compare")
            p.add_argument("sample", type=Path, nargs="+", help="classified samples, then sites.tsv last")
            a = p.parse_args(args[1:])
            if len(a.sample) < 2:
                raise UsageError("compare needs at least one sample TSV and a sites.tsv")
            *samples, sites = a.sample
            sample = merge_samples([read_tsv(path, SAMPLE_COLUMNS) for path in samples])
            comp = compare(sample, read_tsv(sites, ("file", "line", "series")))
            sys.stdout.write(format_comparison(comp))
            return 0
        p = argparse.ArgumentParser(prog="python3 -m enotty.measure.census",
                                    description="independent census of ioctl handlers' errno exits (TSV on stdout)")
        p.add_argument("--kdir", default=DEFAULT_KDIR, help="kernel tree (read only)")
        a = p.parse_args(args)
        root = Path(a.kdir).expanduser()
        if not root.is_dir():
            raise UsageError(f"--kdir {root} is not a directory")
        census = build(root.resolve(), progress=True)
        print(f"census: {census.handlers} handlers, {census.helpers} helpers, {len(census.rows)} sites",
              file=sys.stderr)
        sys.stdout.write(write_tsv(CENSUS_COLUMNS, census.rows))
        return 0
    except UsageError as exc:
        print(f"enotty.measure.census: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
