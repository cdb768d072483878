"""Which Kconfig symbols build a source file, and what those symbols depend on
(used by the audit, enotty.audit.kernel_config, the judge stage and the
cross builds).

Two readers of the kernel's own build files, no configuration needed:

* ``build_symbols(tree, "drivers/block/floppy.c")`` follows the Makefile
  line that builds ``floppy.o`` (``obj-$(CONFIG_BLK_DEV_FD) += floppy.o``),
  through composite objects (``binder_linux-y := binder.o``) and up the
  directory chain (``obj-$(CONFIG_SOUND) += sound/``), and returns every
  symbol that must be set for the file to be compiled.
* ``KconfigDeps`` parses the Kconfig files reachable from the top-level
  ``Kconfig`` for x86 (``depends on``, enclosing ``if`` and ``menu`` blocks)
  so the audit can enable a driver's dependencies and say why olddefconfig
  dropped a symbol.

Both are deliberately partial: what they cannot read (an ``ifeq`` on
something other than a CONFIG_ symbol, a ``||`` with several viable
branches) they report rather than guess silently.
"""
from __future__ import annotations

import functools
import os
import re
import subprocess
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from . import tree
from .build import BuildNeeds

_ASSIGN = re.compile(r"^([A-Za-z0-9_.\-]+?)-(\$\((CONFIG_\w+)\)|y|objs)\s*(?::=|\+=|=)\s*(.*)$")
_COND = re.compile(r"^(ifdef|ifndef|ifeq|ifneq)\b(.*)$")
_CONFIG_REF = re.compile(r"\bCONFIG_(\w+)")


# The variables of a Makefile whose objects are no part of a composite.
_TOP_LEVEL = ("obj", "lib", "core", "obj-y")
# Variables that name objects but build no composite of that name.
_NOT_COMPOSITE = _TOP_LEVEL + ("always", "extra", "hostprogs", "subdir", "targets", "userprogs")


class DerivationError(Exception):
    """The build files do not say how a file is built."""


def _logical_lines(text: str) -> list[str]:
    """Makefile lines with backslash continuations joined and comments cut."""
    out: list[str] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.split("#", 1)[0] if "#" in raw else raw
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        out.append((pending + line).strip())
        pending = ""
    if pending:
        out.append(pending.strip())
    return out


@dataclass(frozen=True)
class MakeRule:
    """One `NAME-COND += words` line: NAME is `obj` or a composite object."""
    name: str
    symbol: str | None          # None for -y / -objs
    words: tuple[str, ...]
    guards: tuple[str, ...]     # CONFIG_ symbols of enclosing ifdef/ifeq


def parse_makefile(text: str) -> list[MakeRule]:
    """The object assignments of a kbuild Makefile, with their guards."""
    rules: list[MakeRule] = []
    stack: list[tuple[str, ...]] = []
    for line in _logical_lines(text):
        m = _COND.match(line)
        if m:
            kind, rest = m.groups()
            syms = tuple(f"CONFIG_{s}" for s in _CONFIG_REF.findall(rest))
            # Only a positive test of a symbol is a requirement: ifdef X,
            # ifeq ($(X),y), ifneq ($(X),).  Anything else guards nothing
            # we can use.
            positive = (kind == "ifdef" or
                        (kind == "ifeq" and re.search(r",\s*y\s*\)", rest)) or
                        (kind == "ifneq" and re.search(r",\s*\)", rest)))
            stack.append(syms if positive else ())
            continue
        if line.startswith("else"):
            if stack:
                stack[-1] = ()
            continue
        if line.startswith("endif"):
            if stack:
                stack.pop()
            continue
        m = _ASSIGN.match(line)
        if not m:
            continue
        name, cond, sym, rhs = m.groups()
        guards = tuple(s for level in stack for s in level)
        rules.append(MakeRule(name=name, symbol=sym, words=tuple(rhs.split()), guards=guards))
    return rules


def _makefile(tree: Path, folder: str) -> str | None:
    for name in ("Kbuild", "Makefile"):
        path = tree / folder / name
        if path.is_file():
            return path.read_text(errors="replace")
    return None


def _object_symbols(rules: list[MakeRule], obj: str, seen: set[str]) -> list[str] | None:
    """Symbols that build obj (a `.o` name) per these rules; None if no rule."""
    if obj in seen:
        return None
    seen = seen | {obj}
    for rule in rules:
        if obj not in rule.words:
            continue
        own = ([rule.symbol] if rule.symbol else []) + list(rule.guards)
        if rule.name in _TOP_LEVEL:
            return own
        # A composite object: NAME-y := obj  ->  how is NAME.o built?
        parent = _object_symbols(rules, rule.name + ".o", seen)
        if parent is not None:
            return own + parent
    return None


def _folder_symbols(tree: Path, folder: str, prefer: list[str]) -> list[str]:
    """Symbols that make kbuild descend into folder, from the nearest
    ancestor Makefile that names it (`obj-$(CONFIG_X) += sub/dir/`)."""
    parts = folder.split("/")
    for cut in range(len(parts) - 1, 0, -1):
        parent = "/".join(parts[:cut])
        text = _makefile(tree, parent)
        if text is None:
            continue
        rel = "/".join(parts[cut:]) + "/"
        rules = [r for r in parse_makefile(text)
                 if r.name in ("obj", "subdir") and rel in r.words]
        if rules:
            # Several lines may name one folder (drivers/Makefile descends
            # into usb/ for USB, USB_GADGET, PCI...): any one will do.
            # Prefer one the caller already needs, then an unconditional one.
            def cost(rule: MakeRule) -> int:
                own = ([rule.symbol] if rule.symbol else []) + list(rule.guards)
                return sum(1 for s in own if s not in prefer)
            rule = min(rules, key=cost)
            own = ([rule.symbol] if rule.symbol else []) + list(rule.guards)
            return own + _folder_symbols(tree, parent, prefer + own)
    # A top-level folder (drivers/, fs/, sound/...) is always descended into.
    return []


def build_symbols(tree: Path, source: str, folders: bool = True) -> list[str]:
    """Every CONFIG_ symbol the build of source (tree-relative .c) needs;
    folders=False: only those of the lines that name its object, not the
    ones that make kbuild descend into its folder (where several lines
    descend into one folder, the one chosen may not be the one a given
    configuration takes)."""
    if not source.endswith(".c"):
        raise DerivationError(f"{source}: not a C file")
    folder, _, base = source.rpartition("/")
    # The object may be named from the folder's own Makefile or, with a
    # path, from an ancestor's (atomisp's Makefile builds pci/atomisp_ioctl.o).
    parts = folder.split("/")
    own = None
    for cut in range(len(parts), 0, -1):
        owner = "/".join(parts[:cut])
        text = _makefile(tree, owner)
        if text is None:
            continue
        obj = "/".join(parts[cut:] + [base[:-2] + ".o"])
        own = _object_symbols(parse_makefile(text), obj, set())
        if own is not None:
            folder = owner
            break
    if own is None:
        raise DerivationError(f"{source}: no kbuild line builds {base[:-2]}.o "
                              "(built through a make variable?)")
    out: list[str] = []
    for sym in own + (_folder_symbols(tree, folder, own) if folders else []):
        if sym not in out:
            out.append(sym)
    return out


def module_name(tree: Path, source: str) -> str:
    """The name kbuild gives the object that holds source: the composite
    object it is part of (`binder_linux-y := binder.o` -> binder_linux,
    `xen-evtchn-y := evtchn.o` -> xen-evtchn), followed up through
    composites of composites, else its own object's name (evdev.o ->
    evdev); the file name without its suffix where no Makefile line names
    it (a header, a file built through a make variable)."""
    folder, _, base = source.rpartition("/")
    stem = base.rsplit(".", 1)[0]
    if not source.endswith(".c"):
        return stem
    parts = folder.split("/")
    for cut in range(len(parts), 0, -1):
        text = _makefile(tree, "/".join(parts[:cut]))
        if text is None:
            continue
        rules = _expand_variables(parse_makefile(text), text)
        obj = "/".join(parts[cut:] + [stem + ".o"])
        if any(obj in rule.words for rule in rules):
            return _outermost(rules, obj)
    return stem


_VARIABLE = re.compile(r"^([A-Za-z_][\w-]*)\s*[:+]?=\s*(.*)$")


def _expand_variables(rules: list[MakeRule], text: str) -> list[MakeRule]:
    """Rules with a plain make variable among their words expanded from
    that variable's assignments (omap1's `omapfb-objs := $(objs-yy)`,
    `objs-yy := omapfb_main.o lcdc.o`)."""
    values: dict[str, list[str]] = {}
    for line in _logical_lines(text):
        m = _VARIABLE.match(line)
        if m:
            values.setdefault(m.group(1), []).extend(m.group(2).split())
    out = []
    for rule in rules:
        words: list[str] = []
        for w in rule.words:
            ref = re.fullmatch(r"\$\(([\w-]+)\)", w)
            words += values.get(ref.group(1), [w]) if ref else [w]
        out.append(replace(rule, words=tuple(words)))
    return out


def _outermost(rules: list[MakeRule], obj: str) -> str:
    """The object's own name, or that of the composite holding it, and of
    the composite holding that, as far as these rules say."""
    seen = {obj}
    while True:
        holder = next((r.name for r in rules if obj in r.words and r.name not in _NOT_COMPOSITE), None)
        if holder is None or holder + ".o" in seen:
            return obj.rsplit("/", 1)[-1][:-2]
        obj = holder + ".o"
        seen.add(obj)


_OBJ_LINE = re.compile(r"^obj-\$\((CONFIG_\w+)\)\s*[:+]?=", re.M)


def build_needs(root: Path, rel: str) -> BuildNeeds:
    """The symbols of the Makefile lines that name rel's object, all of
    them; else any one symbol of its folder's obj-$(CONFIG_...) lines."""
    try:
        return BuildNeeds(tuple(build_symbols(root, rel, folders=False)), True)
    except DerivationError:
        pass
    folder = Path(rel).parent
    for name in ("Kbuild", "Makefile"):
        path = root / folder / name
        if path.is_file():
            return BuildNeeds(tuple(sorted(set(_OBJ_LINE.findall(path.read_text(errors="replace"))))), False)
    return BuildNeeds((), False)


# --- Kconfig ---------------------------------------------------------------

_TOKEN = re.compile(r"\s*(&&|\|\||!=|<=|>=|[!()=<>]|\"[^\"]*\"|'[^']*'|[A-Za-z0-9_$]+|\S)")


def _tokens(expr: str) -> list[str]:
    return [t for t in _TOKEN.findall(expr) if t.strip()]


class _Expr:
    """A parsed dependency expression: ('sym', S) | ('not', E) |
    ('and', A, B) | ('or', A, B) | ('cmp', op, S, V) | ('const', V)."""

    def __init__(self, text: str):
        self.toks = _tokens(text)
        self.pos = 0
        self.tree = self._or() if self.toks else ("const", "y")

    def _peek(self) -> str | None:
        return self.toks[self.pos] if self.pos < len(self.toks) else None

    def _next(self) -> str:
        tok = self.toks[self.pos]
        self.pos += 1
        return tok

    def _or(self):
        left = self._and()
        while self._peek() == "||":
            self._next()
            left = ("or", left, self._and())
        return left

    def _and(self):
        left = self._unary()
        while self._peek() == "&&":
            self._next()
            left = ("and", left, self._unary())
        return left

    def _unary(self):
        tok = self._peek()
        if tok == "!":
            self._next()
            return ("not", self._unary())
        if tok == "(":
            self._next()
            inner = self._or()
            if self._peek() == ")":
                self._next()
            return inner
        if tok is None:
            return ("const", "y")
        atom = self._next().strip("\"'")
        if self._peek() in ("=", "!=", "<", ">", "<=", ">="):
            op = self._next()
            value = self._next().strip("\"'") if self._peek() is not None else ""
            return ("cmp", op, atom, value)
        if atom in ("y", "n", "m"):
            return ("const", atom)
        return ("sym", atom)


def evaluate(node, values: dict[str, str]) -> bool:
    """Whether a parsed expression holds for a .config (CONFIG_-less names)."""
    kind = node[0]
    if kind == "const":
        return node[1] in ("y", "m")
    if kind == "sym":
        return values.get(node[1], "n") in ("y", "m")
    if kind == "not":
        return not evaluate(node[1], values)
    if kind == "and":
        return evaluate(node[1], values) and evaluate(node[2], values)
    if kind == "or":
        return evaluate(node[1], values) or evaluate(node[2], values)
    _, op, sym, value = node
    have = values.get(sym, "n").strip('"')
    if op == "=":
        return have == value
    if op == "!=":
        return have != value
    return True


def failing_atoms(node, values: dict[str, str]) -> list[str]:
    """A readable list of the parts of an unmet expression that fail."""
    if evaluate(node, values):
        return []
    kind = node[0]
    if kind == "and":
        return failing_atoms(node[1], values) + failing_atoms(node[2], values)
    return [render(node)]


def render(node) -> str:
    kind = node[0]
    if kind in ("const", "sym"):
        return node[1]
    if kind == "not":
        return "!" + render(node[1])
    if kind == "and":
        return f"{render(node[1])} && {render(node[2])}"
    if kind == "or":
        return f"({render(node[1])} || {render(node[2])})"
    return f"{node[2]}{node[1]}{node[3]}"


# Symbols that say "another architecture or platform": an || branch that
# needs one of them is never the branch to enable on x86_64.
_FOREIGN = re.compile(r"^(ARM|ARM64|ARCH_|PPC|POWERPC|S390|SPARC|MIPS|M68K|RISCV|"
                      r"LOONGARCH|SUPERH|PARISC|ALPHA|UML|XTENSA|MICROBLAZE|"
                      r"OF$|COMPILE_TEST$|HEXAGON|ARC$|CSKY|OPENRISC|NIOS2|SH$)")


def wanted_atoms(node, chosen: frozenset[str] = frozenset()) -> tuple[list[str], list[str]]:
    """(symbols to set, notes): the positive atoms an expression needs.

    For `A || B` a branch whose symbols are all in `chosen` (wanted
    anyway) is taken, else the first branch without another architecture's
    symbol; a negated atom needs nothing set.
    """
    kind = node[0]
    if kind == "sym":
        return [node[1]], []
    if kind == "cmp":
        if node[1] == "=" and node[3] in ("y", "m"):
            return [node[2]], []
        if node[1] == "!=" and node[3] == "n":
            return [node[2]], []
        return [], []
    if kind == "and":
        a, na = wanted_atoms(node[1], chosen)
        b, nb = wanted_atoms(node[2], chosen)
        return a + b, na + nb
    if kind == "or":
        branches = []
        flat = [node]
        while any(n[0] == "or" for n in flat):
            nxt = []
            for n in flat:
                nxt += [n[1], n[2]] if n[0] == "or" else [n]
            flat = nxt
        for branch in flat:
            syms, notes = wanted_atoms(branch, chosen)
            if not any(_FOREIGN.match(s) for s in syms):
                branches.append((syms, notes))
        if not branches:
            return [], [f"no x86 branch in {render(node)}"]
        for syms, notes in branches:
            if all(s in chosen for s in syms):
                return syms, notes
        syms, notes = branches[0]
        return syms, notes
    return [], []


@dataclass
class Symbol:
    name: str
    prompt: bool = False
    deps: list[str] = field(default_factory=list)    # one AND-ed expression per definition


_SOURCE = re.compile(r'^\s*(?:o?source|rsource|osource)\s+"([^"]+)"')


def _indent(line: str) -> int:
    expanded = line.expandtabs()
    return len(expanded) - len(expanded.lstrip())


def _after_help(lines: list[str], i: int, help_line: str) -> int:
    """The index of the first line after the help text that starts at
    lines[i]: help text is every following line indented deeper than its
    first line, or blank (and nothing when that first line is not indented
    deeper than the help keyword)."""
    indent = None
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        width = _indent(lines[i])
        if indent is None:
            indent = width
            if indent <= _indent(help_line):
                break
        if width < indent:
            break
        i += 1
    return i


def _kconfig_statements(lines: list[str]) -> list[str]:
    """One Kconfig file's statements: comments cut, backslash continuations
    joined, help texts left out."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        raw = lines[i]
        i += 1
        help_line = raw.lstrip().startswith(("help", "---help---"))
        stmt = (raw.rstrip() if help_line else raw.split("#", 1)[0].rstrip()).strip()
        if not stmt:
            continue
        while stmt.endswith("\\") and i < len(lines):
            stmt = stmt[:-1] + " " + lines[i].strip()
            i += 1
        if stmt.split()[0] in ("help", "---help---"):
            i = _after_help(lines, i, raw)
            continue
        out.append(stmt)
    return out


@dataclass
class _Entries:
    """What reading one Kconfig file has open: the enclosing if/menu/choice
    blocks (each one's condition, or None: a choice or a menu without
    one) and the config entry whose attributes follow."""
    outer: list[str]                         # the conditions of the blocks that source the file
    blocks: list[str | None] = field(default_factory=list)
    current: Symbol | None = None
    deps: list[str] = field(default_factory=list)   # the open entry's own `depends on`
    pending_menu: bool = False               # a menu's `depends on` lines may still follow

    def conditions(self) -> list[str]:
        return self.outer + [b for b in self.blocks if b]

    def close(self) -> None:
        """The open entry's definition ends: record its condition."""
        if self.current is not None:
            conds = self.conditions() + self.deps
            self.current.deps.append(" && ".join(f"({c})" for c in conds) if conds else "y")
        self.current, self.deps = None, []

    def depends(self, expr: str) -> None:
        if self.current is not None:
            self.deps.append(expr)
        elif self.pending_menu and self.blocks:
            self.blocks[-1] = f"({self.blocks[-1]}) && ({expr})" if self.blocks[-1] else expr

    def type_or_prompt(self, word: str, stmt: str) -> None:
        """A type with a prompt string, or a prompt line, gives the open
        entry a prompt (a symbol without one cannot be set by hand)."""
        assert self.current is not None
        if word in ("bool", "tristate", "string", "int", "hex") and len(stmt.split(None, 1)) > 1:
            if stmt.split(None, 1)[1].startswith(('"', "'")):
                self.current.prompt = True
        elif word == "prompt":
            self.current.prompt = True


class KconfigDeps:
    """The `depends on` of every symbol reachable from tree/Kconfig on x86."""

    def __init__(self, tree: Path, srcarch: str = "x86"):
        self.tree = tree
        self.srcarch = srcarch
        self.symbols: dict[str, Symbol] = {}
        self._read_files: set[str] = set()
        self._read("Kconfig", [])
        arch = f"arch/{srcarch}/Kconfig"
        if arch not in self._read_files:
            self._read(arch, [])

    def _read(self, rel: str, outer: list[str]) -> None:
        """Read one Kconfig file (and, depth first, the files it sources)
        under the conditions outer of the blocks that source it."""
        rel = rel.replace("$(SRCARCH)", self.srcarch).replace("$SRCARCH", self.srcarch)
        path = self.tree / rel
        if "$" in rel or not path.is_file() or rel in self._read_files:
            return
        self._read_files.add(rel)
        state = _Entries(outer)
        for stmt in _kconfig_statements(path.read_text(errors="replace").splitlines()):
            word = stmt.split()[0]
            source = _SOURCE.match(stmt)
            if word in ("config", "menuconfig"):
                state.close()
                state.pending_menu = False
                name = stmt.split()[1]
                state.current = self.symbols.setdefault(name, Symbol(name))
            elif source:
                state.close()
                self._read(source.group(1) if not stmt.startswith("rsource") else
                           str(Path(rel).parent / source.group(1)), state.conditions())
            elif word == "if":
                state.close()
                state.blocks.append(stmt[2:].strip())
            elif word in ("endif", "endmenu", "endchoice"):
                state.close()
                state.pending_menu = False
                if state.blocks:
                    state.blocks.pop()
            elif word in ("menu", "choice"):
                state.close()
                state.blocks.append(None)
                state.pending_menu = True
            elif word in ("comment", "mainmenu"):
                state.close()
                state.pending_menu = False
            elif word == "depends" and stmt.startswith("depends on"):
                state.depends(stmt[len("depends on"):].strip())
            elif state.current is not None:
                state.type_or_prompt(word, stmt)
        state.close()

    def dependency(self, name: str):
        """The parsed condition under which name can be set (OR of definitions)."""
        sym = self.symbols.get(name)
        if sym is None or not sym.deps:
            return ("const", "y")
        nodes = [_Expr(d).tree for d in sym.deps]
        out = nodes[0]
        for n in nodes[1:]:
            out = ("or", out, n)
        return out

    def closure(self, wanted: list[str]) -> tuple[list[str], list[str]]:
        """(symbols to set, notes): wanted plus the settable symbols their
        dependencies need, dependencies first."""
        order: list[str] = []
        notes: list[str] = []
        visiting: set[str] = set()

        def visit(name: str) -> None:
            if name in order or name in visiting:
                return
            visiting.add(name)
            sym = self.symbols.get(name)
            if sym is None:
                notes.append(f"CONFIG_{name}: not defined in any Kconfig for {self.srcarch}")
                return
            atoms, why = wanted_atoms(self.dependency(name), chosen)
            notes.extend(f"CONFIG_{name}: {n}" for n in why)
            for atom in atoms:
                visit(atom)
            order.append(name)

        chosen = frozenset(n.removeprefix("CONFIG_") for n in wanted)
        for name in wanted:
            visit(name.removeprefix("CONFIG_"))
        return order, notes

    def settable(self, name: str) -> bool:
        """A symbol with a prompt: a fragment can set it (others are selected)."""
        sym = self.symbols.get(name.removeprefix("CONFIG_"))
        return bool(sym and sym.prompt)

    def why_unset(self, name: str, values: dict[str, str]) -> str:
        """Why a requested symbol is not set in a .config (CONFIG_-less values)."""
        name = name.removeprefix("CONFIG_")
        sym = self.symbols.get(name)
        if sym is None:
            return f"not defined in any Kconfig for {self.srcarch}"
        failing = failing_atoms(self.dependency(name), values)
        if failing:
            return "unmet dependency: " + ", ".join(failing)
        if not sym.prompt:
            return "no prompt: only a select can set it, and nothing selects it"
        return "dependencies met; set to another value by a choice or select"


# ---------------------------------------------------------------- unbuildable

_KCONFIG_DEFINITION = re.compile(r"^\s*(?:menu)?config\s+(\w+)", re.M)


@functools.lru_cache(maxsize=None)
def arch_symbols(root: Path, arch: str) -> frozenset[str]:
    """The symbols that the Kconfig files under arch/ARCH/ define (COMPAT
    on x86 and arm64, not on um, m68k or arm)."""
    return frozenset(name for path in (root / "arch" / arch).rglob("Kconfig*")
                     for name in _KCONFIG_DEFINITION.findall(path.read_text(errors="replace")))


# Unbuildable.reason()'s words for a file no Kconfig of the tree can select
NO_CONFIGURATION = "no configuration of any architecture compiles it"


class Unbuildable:
    """Why no configuration of any architecture compiles a file, or none
    on this machine: Rust code needs a toolchain Kconfig probes for
    (CONFIG_RUST_IS_AVAILABLE), which Debian 12 cannot provide at the
    version 7.x asks for."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._deps: KconfigDeps | None = None
        self._defined: set[str] | None = None
        self._rust: bool | None = None

    @property
    def rust_available(self) -> bool:
        """What Kconfig's RUST_IS_AVAILABLE would say here: the tree's own
        scripts/rust_is_available.sh, run as Kconfig runs it."""
        if self._rust is None:
            script = self.root / "scripts" / "rust_is_available.sh"
            env = dict(os.environ, RUSTC=os.environ.get("RUSTC", "rustc"),
                       BINDGEN=os.environ.get("BINDGEN", "bindgen"),
                       CC=os.environ.get("CC", "gcc"))
            self._rust = script.is_file() and subprocess.run(
                ["sh", str(script)], cwd=self.root, env=env, capture_output=True,
                check=False).returncode == 0
        return self._rust

    @property
    def defined(self) -> set[str]:
        """Every symbol some Kconfig file of the tree (any architecture) defines."""
        if self._defined is None:
            names: set[str] = set()
            for dirpath, dirnames, filenames in os.walk(self.root):
                dirnames[:] = [d for d in dirnames if not d.startswith(".")]
                for fname in filenames:
                    if fname.startswith("Kconfig"):
                        text = (Path(dirpath) / fname).read_text(errors="replace")
                        names.update(_KCONFIG_DEFINITION.findall(text))
            self._defined = names
        return self._defined

    @property
    def deps(self) -> KconfigDeps:
        if self._deps is None:
            self._deps = KconfigDeps(self.root)
        return self._deps

    def _blocked(self, node: Any, owner: str, seen: frozenset[str]) -> str:
        kind = node[0]
        if kind == "sym":
            name = node[1]
            if name == "BROKEN":
                return f"CONFIG_{owner} depends on BROKEN"
            if name == "RUST_IS_AVAILABLE" and not self.rust_available:
                return f"{_HERE}CONFIG_{owner} needs a Rust toolchain"
            if name not in self.defined:
                return f"CONFIG_{owner} depends on {name}, which no Kconfig defines"
            return self._symbol(name, seen)
        if kind == "and":
            return self._blocked(node[1], owner, seen) or self._blocked(node[2], owner, seen)
        if kind == "or":
            left = self._blocked(node[1], owner, seen)
            right = self._blocked(node[2], owner, seen) if left else ""
            return left if left and right else ""
        return ""

    def _symbol(self, name: str, seen: frozenset[str]) -> str:
        # Only the generic Kconfig (read for x86) is followed: an
        # architecture's own symbols are not looked into, so a symbol this
        # does not know is never called unbuildable.
        if name in seen or name not in self.deps.symbols:
            return ""
        return self._blocked(self.deps.dependency(name), name, seen | {name})

    def reason(self, rel: str) -> str:
        """'' when some configuration may build rel, else why none can."""
        if not rel.endswith(".c"):
            return ""
        try:
            symbols = build_symbols(self.root, rel)
        except DerivationError:
            return ""
        for sym in symbols:
            name = sym.removeprefix("CONFIG_")
            if name == "BROKEN":
                return f"{NO_CONFIGURATION} ({rel} is built only with CONFIG_BROKEN)"
            if name not in self.defined:
                return (f"{NO_CONFIGURATION}"
                        f" ({rel} is built with CONFIG_{name}, which no Kconfig defines)")
            why = self._symbol(name, frozenset())
            if why.startswith(_HERE) and not self.toolchain_only(rel):
                return (f"no configuration compiles it on this machine ({why.removeprefix(_HERE)}:"
                        " scripts/rust_is_available.sh fails)")
            if why and not why.startswith(_HERE):
                return (f"{NO_CONFIGURATION}"
                        f" ({why} in {tree.kernel_version(self.root)})")
        return ""

    def toolchain_only(self, rel: str) -> tuple[str, ...]:
        """The symbols that build rel, a C file, when the only thing that
        keeps Kconfig from setting them here is the missing Rust toolchain
        (7.2's rust_binderfs.c, the C half of Rust binder): the build gives
        them to make on its command line (BuildNeeds.forced).  () for any
        other file."""
        if not rel.endswith(".c") or self.rust_available:
            return ()
        try:
            symbols = build_symbols(self.root, rel)
        except DerivationError:
            return ()
        whys = [self._symbol(s.removeprefix("CONFIG_"), frozenset()) for s in symbols]
        if not any(w.startswith(_HERE) for w in whys) or any(w and not w.startswith(_HERE) for w in whys):
            return ()
        if self._mentions(rel, symbols):
            return ()
        return tuple(symbols)

    def _mentions(self, rel: str, symbols: list[str]) -> bool:
        """rel or a header beside it tests one of symbols: then the
        command-line value (absent from autoconf.h) would compile other
        code than a real configuration does."""
        folder = (self.root / rel).parent
        texts = [p.read_text(errors="replace") for p in [self.root / rel, *folder.glob("*.h")] if p.is_file()]
        return any(re.search(r"\b%s\b" % s, t) for s in symbols for t in texts)


# Marks a reason that holds on this machine only (a missing toolchain).
_HERE = "here: "
