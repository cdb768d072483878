"""`enotty compare`: what changed between two outputs, per handler.

Reads an older and a newer output of `make patches` (handlers.tsv,
sites.tsv, run.json) and the newer output's tree, and puts each handler of
the older output in one class, computed from the files:

    removed             its file is gone from the newer tree (and no .c or
                        .h file there defines the function), or the file
                        stays and nothing defines the function any more
    moved               another file of the newer tree defines the function
    converted upstream  the file still defines it, the newer output has no
                        site for it; what its unknown-command exit answers
                        now is read from the function text
    still needed        the newer output still has a site for it: in a
                        series, left out (and why), or no change for user
                        space

Handlers of the newer output that match none of the older one are new.
The function text is read with the project's C-text reader (csource,
ctext); nothing here is a list written by hand.
"""
from __future__ import annotations

import csv
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, TextIO

from ..errors import UsageError
from ..find import csource, ctext, sites as sites_tsv
from ..judge import handlers as handlers_tsv
from ..kernel import tree
from ..requests import CompareRequest
from ..write import publish
from . import candidates

CLASSES = ("removed", "moved", "converted upstream", "still needed", "new")
TSV_COLUMNS = ("class", "file", "handler", "now", "detail")
GENERATED = Path(__file__).resolve().parents[3] / "generated-patches"


@dataclass(frozen=True)
class Output:
    """One output folder of `make patches`, as compare reads it."""
    folder: Path
    version: str
    kdir: str | None                       # run.json's KDIR (None: the default tree)
    handlers: tuple[dict[str, str], ...]   # handlers.tsv rows
    sites: tuple[sites_tsv.Site, ...]


@dataclass(frozen=True)
class Change:
    kind: str         # one of CLASSES
    file: str         # the handler's file in the output it comes from
    handler: str
    now: str          # the new file, the answer, the series, or the verdict
    detail: str

    def cells(self) -> list[str]:
        return [self.kind, self.file, self.handler, self.now, self.detail]


# ---------------------------------------------------------------- reading outputs

def read_output(folder: Path) -> Output:
    """An output folder's tables and version; UsageError when it is not one."""
    try:
        record = json.loads((folder / publish.RUN_RECORD).read_text())
        version = str(record["version"])
        with open(folder / "handlers.tsv") as fh:
            rows = tuple(handlers_tsv.read_tsv(fh))
        with open(folder / "sites.tsv") as fh:
            found = tuple(sites_tsv.read_tsv(fh))
    except OSError as err:
        raise UsageError(f"{folder} is not an output of make patches: no {Path(err.filename or '').name}")
    except (ValueError, KeyError, TypeError) as err:
        raise UsageError(f"{folder}: cannot read it ({err})")
    if rows and not {"file", "handler", "functions", "sites", "series", "verdict", "left"} <= set(rows[0]):
        raise UsageError(f"{folder}/handlers.tsv: unexpected columns {sorted(rows[0])}")
    return Output(folder, version, record.get("kdir"), rows, found)


def _version_key(folder: Path) -> tuple[int, ...]:
    return tuple(int(p) if p.isdigit() else -1 for p in folder.name.removeprefix("linux-").split("."))


def default_old(generated: Path = GENERATED) -> Path:
    """generated-patches/linux-6.12.*, the newest such folder."""
    found = sorted((p for p in generated.glob("linux-6.12.*") if p.is_dir()), key=_version_key)
    if not found:
        raise UsageError(f"no {generated}/linux-6.12.* output: name the older one with --old (OLD=)")
    return found[-1]


def default_new(old: Path, generated: Path = GENERATED) -> Path:
    """The newest generated-patches/linux-* other than old and 6.12's."""
    found = sorted((p for p in generated.glob("linux-*") if p.is_dir() and p.resolve() != old.resolve()
                    and not p.name.startswith("linux-6.12.")), key=_version_key)
    if not found:
        raise UsageError(f"no output newer than 6.12 in {generated}: name it with --new (NEW=)")
    return found[-1]


def cached_tree(output: Output) -> Path | None:
    """The tree output was made from, when it is still there: its
    run.json's KDIR holding that version, else a linux-source of that
    version unpacked in the cache (as tree.for_version() looks, without
    fetching: compare reads what is there)."""
    if output.kdir and tree.kernel_version(Path(output.kdir)) == output.version:
        return Path(output.kdir)
    for folder in sorted((tree.cache_dir() / "src").glob("linux-source-*")):
        if folder.is_dir() and tree.kernel_version(folder) == output.version:
            return folder
    return None


def tree_of(output: Output, kdir: Path | None, flag: str) -> Path | None:
    """kdir (checked) when given, else cached_tree()."""
    if kdir is None:
        return cached_tree(output)
    if not kdir.is_dir():
        raise UsageError(f"{flag} {kdir} is not a directory")
    return kdir


def newer_tree(output: Output, kdir: Path | None) -> Path:
    root = tree_of(output, kdir, "--new-kdir")
    if root is None:
        raise UsageError(f"the Linux {output.version} tree of {output.folder} is not unpacked in "
                         f"{tree.cache_dir() / 'src'}: unpack it or name it with --new-kdir (NEW_KDIR=)")
    return root


# ---------------------------------------------------------------- reading the newer tree

def _definitions_text(data: bytes) -> str:
    """A file's text for definition_heads: comments, strings and
    preprocessor lines blanked, every #if branch kept."""
    return ctext.blank_directives(ctext.blank_lexemes(csource.decode(data), keep_quotes=True))


def defines(root: Path, rel: str, name: str) -> bool:
    """Whether root/rel holds a definition of function name."""
    try:
        data = (root / rel).read_bytes()
    except OSError:
        return False
    return name.encode() in data and name in csource.definition_heads(_definitions_text(data))


def definitions(root: Path, names: Iterable[str]) -> dict[str, list[str]]:
    """Every .c and .h file of the tree (tools/ and Documentation/ left
    out) that defines each of names, sorted; one walk for all names."""
    wanted = {n: n.encode() for n in names}
    found: dict[str, list[str]] = {n: [] for n in wanted}
    if not wanted:
        return found
    for folder, dirs, files in os.walk(root):
        if Path(folder) == root:
            dirs[:] = [d for d in dirs if d not in ("tools", "Documentation", ".git")]
        for fname in files:
            if not fname.endswith((".c", ".h")):
                continue
            path = os.path.join(folder, fname)
            try:
                data = Path(path).read_bytes()
            except OSError:
                continue
            hits = [n for n, b in wanted.items() if b in data]
            if hits:
                heads = csource.definition_heads(_definitions_text(data))
                for n in hits:
                    if n in heads:
                        found[n].append(os.path.relpath(path, root))
    return {n: sorted(files) for n, files in found.items()}


@dataclass(frozen=True)
class Answer:
    """What a function's unknown-command exit returns, read from its text."""
    kind: str          # ENOTTY, ENOIOCTLCMD, other
    how: str           # a short phrase: `default: -ENOTTY`, `hands it to foo()`, ...
    callee: str = ""   # the function the default hands the command to


def _errnos(tokens: list[ctext.Token]) -> list[str]:
    """The errno names negated in a token list (`-ENOTTY`), in order."""
    return [t.text for prev, t in zip(tokens, tokens[1:])
            if prev.text == "-" and t.text[:1] == "E" and t.text[1:].isupper()]


def _first_call(tokens: list[ctext.Token]) -> str | None:
    for t, after in zip(tokens, tokens[1:]):
        if after.text == "(" and t.text[:1].isalpha() and t.text not in csource.NOT_FUNCTIONS:
            return t.text
    return None


def _command_words(text: str, fn: csource.Function) -> set[str]:
    """fn's command parameter and what the body computes from it; empty
    when no parameter is the command."""
    index = candidates.command_param(fn)
    cmd = fn.param_names()[index] if index >= 0 else ""
    return csource.command_words(text[fn.body_start:fn.body_end], cmd) if cmd else set()


def _command_switches(text: str, fn: csource.Function) -> list[ctext.Switch]:
    """The whole switches of fn's body on its command (or any, when no
    parameter is the command), outermost first."""
    found = [sw for sw in ctext.switches(text, fn.body_start, fn.body_end) if sw.end >= 0]
    words = _command_words(text, fn)
    if not words:
        return found
    return [sw for sw in found
            if {t.text for t in ctext.tokenize(text[sw.open_paren:sw.close_paren + 1])} & words]


def _answer_of(errnos: list[str], how: str) -> Answer:
    names = list(dict.fromkeys(errnos))
    kind = names[0] if len(names) == 1 and names[0] in ("ENOTTY", "ENOIOCTLCMD") else "other"
    return Answer(kind, how + " " + ", ".join("-" + n for n in names))


def _guard(tokens: list[ctext.Token], words: set[str]) -> list[str]:
    """The errno of the first `if (<cmd> != ...) return -E...;` (a
    command test that turns every other command away), or []."""
    for i, t in enumerate(tokens):
        if t.text != "if" or i + 1 >= len(tokens) or tokens[i + 1].text != "(":
            continue
        depth, j = 0, i + 1
        while j < len(tokens):
            depth += {"(": 1, ")": -1}.get(tokens[j].text, 0)
            if depth == 0:
                break
            j += 1
        cond = [x.text for x in tokens[i + 2:j]]
        after = tokens[j + 1:j + 5]
        plain = "&&" not in cond and "||" not in cond     # a test of the command alone
        if plain and "!=" in cond and words & set(cond) and after and after[0].text == "return":
            return _errnos(after)
    return []


def _returned_variable(tokens: list[ctext.Token]) -> str | None:
    """X of a function's last statement `return X;`."""
    last = [t.text for t in tokens[-4:]]
    if last[-1:] == ["}"] and len(last) == 4 and last[0] == "return" and last[2] == ";":
        return last[1] if last[1][:1].isalpha() or last[1][:1] == "_" else None
    return None


def _assigned(tokens: list[ctext.Token], name: str) -> list[str]:
    """The errnos assigned to name (`name = -E...`, `int name = -E...`)."""
    return [t.text for a, b, c, t in zip(tokens, tokens[1:], tokens[2:], tokens[3:])
            if a.text == name and b.text == "=" and c.text == "-" and t.text[:1] == "E" and t.text[1:].isupper()]


def unknown_command_answer(text: str, fn: csource.Function) -> Answer:
    """What an unknown command gets from fn, read in this order: the
    `default:` of its switch on the command, an `if (cmd != X) return
    -E...;`, its last return, the value a returned variable has before
    that switch, what follows the switch."""
    switches = _command_switches(text, fn)
    for sw in switches:
        for start, end, is_default, section_end in ctext.sections(text, sw):
            if not is_default:
                continue
            tokens = ctext.tokenize(text[end:section_end])
            if _errnos(tokens):
                return _answer_of(_errnos(tokens), "default:")
            callee = _first_call(tokens)
            if callee:
                return Answer("other", f"default: hands it to {callee}()", callee)
    body = ctext.tokenize(text[fn.body_start:fn.body_end + 1])
    guard = _guard(body, _command_words(text, fn))
    if guard:
        return _answer_of(guard, "a command test:")
    last = max((i for i, t in enumerate(body) if t.text == "return"), default=-1)
    if last >= 0 and _errnos(body[last:]):
        return _answer_of(_errnos(body[last:]), "last return:")
    variable = _returned_variable(body)
    if variable and switches:
        initial = _assigned(ctext.tokenize(text[fn.body_start:switches[0].keyword]), variable)
        if initial:
            return _answer_of(initial[-1:], f"{variable} before the switch:")
    if switches and _errnos(ctext.tokenize(text[switches[0].end + 1:fn.body_end])):
        return _answer_of(_errnos(ctext.tokenize(text[switches[0].end + 1:fn.body_end])), "after the switch:")
    return Answer("other", "no errno in its default, command test or last return")


def answer_in(root: Path, rel: str, name: str) -> Answer | None:
    """The unknown-command answer of function name in root/rel, or None
    when the reader finds no definition there.  A default that hands
    the command to a function of the same file or folder (a static
    inline helper in a header beside it) answers what that one answers."""
    found = _read_answer(root, rel, name)
    if found is None or not found.callee:
        return found
    for other in [rel] + sorted(str(p.relative_to(root)) for p in (root / rel).parent.glob("*.[ch]")):
        inner = _read_answer(root, other, found.callee) if other != rel or found.callee != name else None
        if inner is not None:
            return Answer(inner.kind, f"{found.how} ({other}), whose {inner.how}")
    return found


def _read_answer(root: Path, rel: str, name: str) -> Answer | None:
    try:
        text = csource.clean(csource.decode((root / rel).read_bytes()))
    except OSError:
        return None
    fn = next((f for f in csource.functions(text) if f.name == name), None)
    return unknown_command_answer(text, fn) if fn else None


# ---------------------------------------------------------------- classifying

@dataclass
class _NewIndex:
    """The newer output's handlers, by key and by the sites they hold."""
    rows: dict[tuple[str, str], dict[str, str]]
    by_site: dict[tuple[str, str], list[tuple[str, str]]]   # (file, function) -> handler keys
    matched: set[tuple[str, str]] = field(default_factory=set)

    @classmethod
    def of(cls, output: Output) -> _NewIndex:
        rows = {(r["file"], r["handler"]): r for r in output.handlers}
        by_line: dict[tuple[str, int], tuple[str, str]] = {}
        for key, r in rows.items():
            for fn in r["functions"].split(","):
                for line in r["sites"].split(","):
                    if line.isdigit():
                        by_line[(fn, int(line))] = key
        by_site: dict[tuple[str, str], list[tuple[str, str]]] = {}
        for s in output.sites:
            owner = by_line.get((s.function, s.line))
            if owner and owner not in by_site.setdefault((s.file, s.function), []):
                by_site[(s.file, s.function)].append(owner)
        return cls(rows, by_site)

    def handlers_of(self, file: str, name: str, functions: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
        """The newer handlers that are this one: its key, or a handler
        holding a site in one of its site functions."""
        if (file, name) in self.rows:
            return [(file, name)]
        keys: list[tuple[str, str]] = []
        for pair in functions:
            keys += [k for k in self.by_site.get(pair, []) if k not in keys]
        return keys


def site_functions(row: dict[str, str], old: Output) -> list[tuple[str, str]]:
    """(file, function) of each function of a handler row holding its
    sites (a helper may sit in another file), from sites.tsv."""
    names = set(row["functions"].split(","))
    lines = {int(x) for x in row["sites"].split(",") if x.isdigit()}
    pairs = [(s.file, s.function) for s in old.sites if s.function in names and s.line in lines]
    return list(dict.fromkeys(pairs)) or [(row["file"], n) for n in sorted(names)]


def state(row: dict[str, str]) -> tuple[str, str]:
    """(now, detail) of a handler row: its series, or its verdict and why."""
    if row["series"] != "-":
        return row["series"], f"{row['verdict']} in {row['series']}"
    reason = row["left"] if row["left"] != "-" else "no series; user space sees no change or it stays as it is"
    return row["verdict"], reason


def _still_needed(row: dict[str, str], keys: list[tuple[str, str]], new: _NewIndex) -> Change:
    nows, details = [], []
    for key in keys:
        now, detail = state(new.rows[key])
        nows.append(now)
        named = "" if key == (row["file"], row["handler"]) else f"as {key[1]}() in {key[0]}: "
        details.append(named + detail)
    return Change("still needed", row["file"], row["handler"], ",".join(dict.fromkeys(nows)), "; ".join(details))


def _moved(row: dict[str, str], where: list[str], root: Path, new: _NewIndex) -> Change:
    """A handler another file of the newer tree defines (where: those files)."""
    name = row["handler"]
    keys = [(f, name) for f in where if (f, name) in new.rows]
    new.matched.update(keys)
    if keys:
        now, detail = state(new.rows[keys[0]])
        return Change("moved", row["file"], name, keys[0][0], f"defined in {keys[0][0]}; {detail}")
    answer = answer_in(root, where[0], name)
    said = f"; no site there, answers {answer.how}" if answer else ""
    return Change("moved", row["file"], name, where[0], f"defined in {', '.join(where)}{said}")


def _converted(row: dict[str, str], pairs: list[tuple[str, str]], root: Path) -> Change:
    answers = []
    for rel, fn in pairs:
        answer = answer_in(root, rel, fn)
        answers.append((fn, answer or Answer("other", "its definition is gone")))
    kinds = {a.kind for _, a in answers}
    now = kinds.pop() if len(kinds) == 1 else "other"
    detail = "; ".join(f"{fn}(): {a.how}" for fn, a in answers)
    return Change("converted upstream", row["file"], row["handler"], now, detail)


def classify(old: Output, new: Output, root: Path, old_root: Path | None = None) -> list[Change]:
    """One Change per handler row of old, then one per new handler.

    root is the newer tree; old_root, when known, the older one: a file
    that defined a handler's name there too holds another function of
    that name (a static rtc_ioctl() of another driver), not the handler
    moved."""
    index = _NewIndex.of(new)
    changes: list[Change] = []
    homeless = []
    for row in old.handlers:
        pairs = site_functions(row, old)
        keys = index.handlers_of(row["file"], row["handler"], pairs)
        if keys:
            index.matched.update(keys)
            changes.append(_still_needed(row, keys, index))
        elif defines(root, row["file"], row["handler"]):
            changes.append(_converted(row, pairs, root))
        else:
            homeless.append(row)
    where = definitions(root, {r["handler"] for r in homeless})
    for row in homeless:
        others = [f for f in where[row["handler"]] if f != row["file"]
                  and not (old_root and defines(old_root, f, row["handler"]))]
        if others:
            changes.append(_moved(row, others, root, index))
        else:
            gone = "the file" if not (root / row["file"]).exists() else "the function (the file stays)"
            changes.append(Change("removed", row["file"], row["handler"], "-", f"{gone} is gone in {new.version}"))
    for key, r in index.rows.items():
        if key not in index.matched:
            now, detail = state(r)
            changes.append(Change("new", key[0], key[1], now, detail))
    return sorted(changes, key=lambda c: (CLASSES.index(c.kind), c.file, c.handler))


# ---------------------------------------------------------------- writing

def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown(changes: list[Change], old: Output, new: Output, root: Path) -> str:
    """The readable report: counts first, then one table per class."""
    count = {k: sum(c.kind == k for c in changes) for k in CLASSES}
    still = [c.now for c in changes if c.kind == "still needed"]
    split = (f" ({sum(n not in ('left out', 'no change') for n in still)} in a series,"
             f" {still.count('left out')} left out, {still.count('no change')} no change)")
    out = [f"# What changed between Linux {old.version} and {new.version}", "",
           f"Older output: {old.folder}; newer output: {new.folder}; newer tree: {root}.", "",
           f"- {len(old.handlers)} handlers in {old.version}, {len(new.handlers)} in {new.version}"]
    out += [f"- {k}: {count[k]}" + (split if k == "still needed" else "") for k in CLASSES]
    for kind in CLASSES:
        rows = [c for c in changes if c.kind == kind]
        if not rows:
            continue
        out += ["", f"## {kind[0].upper()}{kind[1:]} ({len(rows)})", "",
                "| handler | file | now | detail |", "|---|---|---|---|"]
        out += [f"| {c.handler}() | {c.file} | {_cell(c.now)} | {_cell(c.detail)} |" for c in rows]
    return "\n".join(out) + "\n"


def write_tsv(changes: list[Change], fh: TextIO) -> None:
    w = csv.writer(fh, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_NONE, escapechar="\\")
    w.writerow(TSV_COLUMNS)
    for c in changes:
        w.writerow([" ".join(cell.split("\t")).replace("\n", " ") for cell in c.cells()])


def command(req: CompareRequest) -> int:
    old_folder = req.old or default_old()
    old = read_output(old_folder)
    new = read_output(req.new or default_new(old_folder))
    root = newer_tree(new, req.new_kdir)
    old_root = tree_of(old, req.old_kdir, "--old-kdir")
    if old_root is None:
        print(f"enotty: the Linux {old.version} tree is not unpacked: a function of the same name in"
              " another file counts as the handler moved (--old-kdir names the tree)", file=sys.stderr)
    changes = classify(old, new, root, old_root)
    if req.tsv:
        write_tsv(changes, sys.stdout)
    else:
        sys.stdout.write(markdown(changes, old, new, root))
    return 0
