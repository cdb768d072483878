"""The package's modules import without a cycle.

A cycle makes the import order decide what exists when a module runs, and
hides which layer depends on which; it came in once through one line (a
`__main__` block that imported the command line).  Every import counts,
also one inside a function or a `__main__` block.
"""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
NAME = PACKAGE.name


def modules(folder: Path = PACKAGE) -> list[str]:
    """Every module below folder, dotted from it ("find.scan"), tests left out."""
    found = []
    for p in folder.rglob("*.py"):
        if p.stem == "__init__" or p.stem.endswith("_test") or "testdata" in p.parts:
            continue
        found.append(".".join(p.relative_to(folder).with_suffix("").parts))
    return sorted(found)


def imported(source: str, known: set[str], where: str = "") -> set[str]:
    """The modules of the package that the source of module `where` imports,
    by any form: `from . import x`, `from .x import y`, `from ..p import x`,
    `from enotty import x`, `from enotty.x import y`, `import enotty.x`."""
    package = where.split(".")[:-1]
    found: set[str] = set()

    def add(base: str, names: list[str]) -> None:
        if base in known:
            found.add(base)
        for n in names:
            dotted = f"{base}.{n}" if base else n
            if dotted in known:
                found.add(dotted)

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                up = package[:len(package) - (node.level - 1)] if node.level > 1 else package
                base = ".".join([*up, *(node.module.split(".") if node.module else [])])
            elif node.module == NAME or (node.module or "").startswith(NAME + "."):
                base = (node.module or "").removeprefix(NAME).lstrip(".")
            else:
                continue
            add(base, [a.name for a in node.names])
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith(NAME + "."):
                    add(a.name.removeprefix(NAME + "."), [])
    return found


def graph(folder: Path = PACKAGE) -> dict[str, set[str]]:
    known = set(modules(folder))
    return {m: imported((folder / (m.replace(".", "/") + ".py")).read_text(), known, m) - {m}
            for m in sorted(known)}


def rooms(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """The same graph between subpackages (a top-level module is its own room)."""
    room = lambda m: m.split(".")[0]
    out: dict[str, set[str]] = {}
    for a, bs in edges.items():
        out.setdefault(room(a), set()).update(room(b) for b in bs if room(b) != room(a))
    return out


def cycle(edges: dict[str, set[str]]) -> list[str]:
    """One import cycle as [a, b, ..., a], or [] when there is none."""
    state: dict[str, int] = {}          # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return []

    for start in sorted(edges):
        if start not in state and (found := visit(start)):
            return found
    return []


def test_the_package_has_no_import_cycle() -> None:
    assert cycle(graph()) == []


def test_the_stage_packages_have_no_cycle() -> None:
    """A stage imports earlier stages and the kernel layer, never a later one."""
    assert cycle(rooms(graph())) == []


def test_every_module_imports() -> None:
    for module in modules():
        if module == "__main__":
            continue                    # importing it runs the command line
        importlib.import_module(f"{NAME}.{module}")


def test_imported_reads_every_form() -> None:
    source = ("from . import a, b\nfrom .c import x\nfrom enotty import d\nfrom enotty.e import y\n"
              "import enotty.f\nimport os\nfrom os import path\n"
              "if __name__ == '__main__':\n    from .g import main\n")
    assert imported(source, set("abcdefgz")) == set("abcdefg")
    nested = "from . import b\nfrom .. import c\nfrom ..q import d\nfrom ..q.e import y\n"
    assert imported(nested, {"p.b", "c", "q.d", "q.e", "p.z"}, "p.a") == {"p.b", "c", "q.d", "q.e"}


def test_cycle_finds_one_closed_by_a_single_edge(tmp_path: Path) -> None:
    (tmp_path / "one.py").write_text("from . import two\n")
    (tmp_path / "two.py").write_text("from .three import x\n")
    (tmp_path / "three.py").write_text("def x() -> None:\n    from . import one\n")
    (tmp_path / "four.py").write_text("from . import one\n")
    assert cycle(graph(tmp_path)) == ["one", "two", "three", "one"]
    (tmp_path / "three.py").write_text("def x() -> None:\n    pass\n")
    assert cycle(graph(tmp_path)) == []
