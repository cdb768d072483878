"""The Coccinelle rules: one semantic patch, assembled from small sources.

cocci/ioctl_enotty.cocci is the one rule file that the scan and the kernel's
`make coccicheck COCCI=...` both run.  It is committed, and assembled from:

    cocci/lib/header.smpl     the /// description, // Options: and virtuals
    cocci/lib/handlers.smpl   handler discovery (tables from interfaces.tsv,
                              read by enotty.find.interfaces)
    cocci/shapes/NAME.smpl    one shape each; NAME is the site's rule column
    cocci/lib/output.smpl     the one output (tsv, report, org, context, patch)
    tools/enotty/find/ctext.py and tools/enotty/find/rule_python.py
                              the Python the rules call, last, in one
                              @initialize:python@ block, with the table of
                              cocci/interfaces.tsv written into it

The SmPL comes first; spatch runs an @initialize:python@ block before the
first file wherever it stands.  The Python is copied, not imported: the
rule file must work alone under `make coccicheck` in a kernel tree.

`--sync` rewrites the rule file from them; `--check` fails when it is out
of date; `--combined` prints the assembled text.

    python3 -m enotty.find.rules --sync | --check | --combined
"""
from __future__ import annotations

import ast
import hashlib
import re
import sys
from pathlib import Path

from . import interfaces as table
from ..errors import UsageError
from .interfaces import Interface

SITE_MARKER = "ENOTTY-SITE"
COCCI_DIR = Path(__file__).resolve().parents[3] / "cocci"
# The modules whose source the rule file embeds, in this order.
RULE_PYTHON = (Path(__file__).resolve().parent / "ctext.py",
               Path(__file__).resolve().parent / "rule_python.py")
# The lines of rule_python.py that the table of interfaces.tsv replaces.
TABLE_LINES = ("ENOTTY_INTERFACES: dict[tuple[str, str], tuple[int, str, bool, str]] = {}\n"
               "ENOTTY_ORDER: list[str] = []\n"
               "ENOTTY_EMBEDDED_OPS: dict[tuple[str, str], str] = {}\n"
               "ENOTTY_KEPT_HOOKS: set[str] = set()\n"
               "ENOTTY_ALSO_FROM: dict[str, set[str]] = {}\n")
RULE_FILE = "ioctl_enotty.cocci"
VIRTUALS = ("patch", "context", "org", "report", "tsv")
GENERATED = ("// Assembled by `python3 -m enotty.find.rules --sync` from cocci/lib/*.smpl,\n"
             "// cocci/shapes/*.smpl and cocci/interfaces.tsv: edit those, not this file.\n")


def cocci_dir() -> Path:
    return COCCI_DIR


def rule_file(root: Path | None = None) -> Path:
    """The one semantic patch: what the scan, bench and coccicheck run."""
    return (root or cocci_dir()) / RULE_FILE


def shape_files(root: Path | None = None) -> list[Path]:
    """cocci/shapes/*.smpl, sorted: the order in which shapes claim sites."""
    return sorted(((root or cocci_dir()) / "shapes").glob("*.smpl"))


def shape_names(root: Path | None = None) -> list[str]:
    """The shapes, as the rule column of the site records names them."""
    return [p.stem for p in shape_files(root)]


def spatch_options(root: Path | None = None) -> list[str]:
    """The options of the rule file's `// Options:` line, as coccicheck
    passes them (it greps every line holding "Options:", so there is one)."""
    path = rule_file(root)
    lines = [l for l in path.read_text().splitlines() if "Options:" in l]
    if len(lines) != 1 or not lines[0].startswith("// Options:"):
        raise UsageError(f"{path}: needs exactly one '// Options:' line")
    return lines[0].split(":", 1)[1].split()


def _rows(root: Path | None) -> list[Interface]:
    """The rows of root's interfaces.tsv (the committed table by default)."""
    return list(table.table()) if root is None else table.read(root / "interfaces.tsv")


def interfaces_python(ifaces: list[Interface]) -> str:
    """The rule columns as the Python the discovery block expects."""
    lines = ["ENOTTY_INTERFACES = {"]
    for i in ifaces:
        lines.append(f"    ({i.struct!r}, {i.field!r}): ({i.cmd_arg}, {i.to!r}, "
                     f"{i.keep_enoioctlcmd}, {i.dispatch!r}),")
    lines.append("}")
    lines.append("ENOTTY_ORDER = [" + ", ".join(repr(i.name) for i in ifaces) + "]")
    return "\n".join(lines)


def embedded_ops_python(ifaces: list[Interface]) -> str:
    """The embedded_in column as ENOTTY_EMBEDDED_OPS."""
    lines = ["ENOTTY_EMBEDDED_OPS = {"]
    for (container, member), ops in table.embedded_ops(ifaces).items():
        lines.append(f'    ("{container}", "{member}"): "{ops}",')
    lines.append("}")
    return "\n".join(lines)


def kept_hooks_python(ifaces: list[Interface]) -> str:
    """The kept_hooks column as ENOTTY_KEPT_HOOKS."""
    return "ENOTTY_KEPT_HOOKS = {" + ", ".join(f'"{h}"' for h in table.kept_hooks(ifaces)) + "}"


def also_from_python(ifaces: list[Interface]) -> str:
    """The also_from column as ENOTTY_ALSO_FROM (rows that name none left out)."""
    items = []
    for i in ifaces:
        if i.also_from:
            errnos = ", ".join('"%s"' % e for e in i.also_from)
            items.append(f'"{i.name}": {{{errnos}}}')
    return "ENOTTY_ALSO_FROM = {" + ", ".join(items) + "}"


def table_python(ifaces: list[Interface]) -> str:
    """The Python that stands for TABLE_LINES in the rule file: the rule's
    columns, the embedded ops, the kept hooks and the other answers that
    convert."""
    return "\n".join((interfaces_python(ifaces), embedded_ops_python(ifaces),
                      kept_hooks_python(ifaces), also_from_python(ifaces))) + "\n"


def _without_package_imports(path: Path, text: str) -> str:
    """text without its imports of the package (`from .ctext import ...`):
    the embedded modules stand in one namespace."""
    tree = ast.parse(text, str(path))
    lines = text.splitlines(keepends=True)
    for node in reversed(tree.body):
        if isinstance(node, ast.ImportFrom) and node.level > 0:
            del lines[node.lineno - 1:node.end_lineno]
    return "".join(lines)


def _parsed(path: Path) -> tuple[str, ast.Module]:
    text = _source(path)
    try:
        return text, ast.parse(text, str(path))
    except SyntaxError as err:
        raise UsageError(f"{path}:{err.lineno}: {err.msg}") from None


def _defined(node: ast.stmt) -> set[str]:
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    targets = node.targets if isinstance(node, ast.Assign) else \
        [node.target] if isinstance(node, ast.AnnAssign) else []
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def used_definitions(path: Path, wanted: set[str]) -> str:
    """The top-level statements of a module that define the wanted names
    and what they use, in their order, each with the comment lines right
    above it: the part of ctext.py that the rule calls, so that a change
    elsewhere in ctext.py leaves the rule file (and the scan cache) alone."""
    text, tree = _parsed(path)
    nodes = [n for n in tree.body if _defined(n)]
    uses = {id(n): {u.id for u in ast.walk(n) if isinstance(u, ast.Name)} for n in nodes}
    need, keep = set(wanted), set[int]()
    while True:
        more = {id(n) for n in nodes if _defined(n) & need} - keep
        if not more:
            break
        keep |= more
        for n in nodes:
            if id(n) in more:
                need |= uses[id(n)]
    missing = wanted - {name for n in nodes if id(n) in keep for name in _defined(n)}
    if missing:
        raise UsageError(f"{path}: does not define {', '.join(sorted(missing))}")
    lines = text.splitlines(keepends=True)
    out = []
    for n in nodes:
        if id(n) not in keep:
            continue
        first = n.lineno - 1
        while first > 0 and lines[first - 1].lstrip().startswith("#"):
            first -= 1
        out.append("".join(lines[first:n.end_lineno]))
    return "\n\n".join(out)


def embedded_python(ifaces: list[Interface]) -> str:
    """The code of the rule file's @initialize:python@ block: what
    rule_python.py imports from ctext.py, then rule_python.py itself, the
    table of interfaces.tsv written in."""
    library, module = RULE_PYTHON
    text, tree = _parsed(module)
    wanted = {a.name for n in tree.body if isinstance(n, ast.ImportFrom) and n.level > 0
              and n.module == library.stem for a in n.names}
    code = (f"# From tools/enotty/find/{library.name}, what {module.name} uses.\n\n"
            + used_definitions(library, wanted).strip() + "\n\n\n"
            + _without_package_imports(module, text).strip() + "\n")
    if code.count(TABLE_LINES) != 1:
        raise UsageError(f"{RULE_PYTHON[-1]}: the table lines {TABLE_LINES!r} must stand once")
    return code.replace(TABLE_LINES, table_python(ifaces))


def _source(path: Path) -> str:
    try:
        return path.read_text()
    except OSError as err:
        raise UsageError(f"{path}: {err.strerror}") from None


def rule_names(text: str) -> list[str]:
    """Named rules of a piece of SmPL (for the uniqueness check)."""
    names = []
    for m in re.finditer(r"^@([^@\n]*)@\s*$", text, re.M):
        words = m.group(1).split()
        if not words:
            continue
        first = words[0]
        if first.startswith(("script:", "initialize:", "finalize:")):
            if len(words) > 1 and words[1] != "depends":
                names.append(words[1])
            continue
        if first != "depends":
            names.append(first)
    return names


def assembled(root: Path | None = None) -> str:
    """The text cocci/ioctl_enotty.cocci must hold: header, discovery, every
    shape, the output, and last the Python they call, with the table."""
    root = root or cocci_dir()
    header = _source(root / "lib" / "header.smpl")
    lib = _source(root / "lib" / "handlers.smpl")
    python = embedded_python(_rows(root))
    shapes = shape_files(root)
    if not shapes:
        raise UsageError(f"{root}/shapes: no *.smpl shape")
    parts = [(root / "lib" / "handlers.smpl", lib)]
    parts += [(p, _source(p)) for p in shapes]
    parts.append((root / "lib" / "output.smpl", _source(root / "lib" / "output.smpl")))
    seen: dict[str, str] = {}
    for path, text in parts:
        for name in rule_names(text):
            if name in seen:
                raise UsageError(f"rule {name} is defined in {seen[name]} and {path.name}")
            seen[name] = path.name
    for path, text in [(root / "lib" / "header.smpl", header), *parts, (RULE_PYTHON[-1], python)]:
        if path.name != "header.smpl" and "Options:" in text:
            raise UsageError(f"{path}: only lib/header.smpl may say 'Options:'"
                             " (coccicheck greps every such line)")
    out = [header.rstrip() + "\n\n", GENERATED]
    for path, text in parts:
        out.append(f"\n// ---- {path.parent.name}/{path.name}\n\n{text.strip()}\n")
    names = " and ".join(f"tools/enotty/find/{p.name}" for p in RULE_PYTHON)
    out.append(f"\n// ---- {names}: the Python the rules above call\n\n"
               f"@initialize:python@\n@@\n{python}")
    return "".join(out)


def out_of_sync(root: Path | None = None) -> list[Path]:
    """[the rule file] when it differs from its sources, else []."""
    path = rule_file(root)
    want = assembled(root)
    try:
        have = path.read_text()
    except OSError:
        have = None
    return [path] if have != want else []


def sync(root: Path | None = None) -> list[Path]:
    """Rewrite the rule file from its sources; returns it when it changed."""
    path = rule_file(root)
    stale = out_of_sync(root)
    if stale:
        tmp = path.with_suffix(".cocci.tmp")
        tmp.write_text(assembled(root))
        tmp.replace(path)
    return stale


def rules_digest(root: Path | None = None) -> str:
    """sha256 over the rule file and its sources (cache key)."""
    root = root or cocci_dir()
    sources = [rule_file(root), root / "lib" / "header.smpl", root / "lib" / "handlers.smpl",
               root / "lib" / "output.smpl", *shape_files(root), root / "interfaces.tsv",
               *RULE_PYTHON]
    h = hashlib.sha256()
    for path in sources:
        h.update(f"{path.parent.name}/{path.name}".encode() + b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


ACTIONS = ("sync", "check", "combined")


def command(action: str) -> int:
    """Assemble cocci/ioctl_enotty.cocci from its sources (sync), check it
    (check, exit 1 when stale) or print the assembled text (combined)."""
    if action == "sync":
        for path in sync():
            print(f"enotty: updated {path}", file=sys.stderr)
    elif action == "check":
        if out_of_sync():
            print(f"enotty: {rule_file()} is out of sync with cocci/lib, cocci/shapes and"
                  " interfaces.tsv; run python3 -m enotty rules --sync", file=sys.stderr)
            return 1
    else:
        sys.stdout.write(assembled())
    return 0


def main(argv: list[str]) -> int:
    """`python3 -m enotty.find.rules --sync | --check | --combined`, the command
    the rule file's header names.  It imports nothing of the command line:
    the rest of the package imports this module."""
    actions = [a.lstrip("-") for a in argv]
    if len(actions) != 1 or actions[0] not in ACTIONS:
        given = " ".join(argv) or "nothing"
        print(f"enotty: argument action: invalid choice: {given.lstrip('-')!r} (choose from"
              f" {', '.join(repr(a) for a in ACTIONS)}) (try: enotty rules --help)", file=sys.stderr)
        return 2
    try:
        return command(actions[0])
    except UsageError as err:
        # a malformed interfaces.tsv or source: one line, as the command line says it
        print(f"enotty: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
