"""The in-tree kselftests of the audit: the table, the selection, the build.

kselftests.tsv names, per kselftest, the patched files it exercises and how
to build it; select() picks the ones that the applied series and the audit
kernel's configuration call for, build() compiles them static with gcc,
out of tree, against `make headers` of the same tree (the tree itself is
only read).  kselftest_tap reads what they printed in the two boots.
"""
from __future__ import annotations

import dataclasses
import fnmatch
import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..kernel.build import run_logged
from . import DATA

TABLE = DATA / "kselftests.tsv"
SELFTESTS = "tools/testing/selftests"
HOW = ("run", "control", "skip")
COLUMNS = 9
CFLAGS = ("-static", "-O2", "-Wall", "-D_GNU_SOURCE")


class TableError(Exception):
    """kselftests.tsv is malformed: one line."""


@dataclass(frozen=True)
class Kselftest:
    name: str
    how: str
    sources: tuple[str, ...]
    config: tuple[str, ...]
    tests: tuple[str, ...]
    build: tuple[str, ...]      # C files and flags, @TREE/@HDR unexpanded
    argv: tuple[str, ...]
    timeout: int
    reason: str

    @property
    def program(self) -> str:
        return self.argv[0]

    def covers(self, test: str) -> bool:
        return any(fnmatch.fnmatchcase(test, glob) for glob in self.tests)

    @property
    def needed_files(self) -> tuple[str, ...]:
        """The C files under tools/testing/selftests its build needs in
        every tree (not the ?-marked ones only some trees have)."""
        return tuple(w for w in self.build if w.endswith(".c") and not w.startswith(("?", "/")))


def _split(cell: str, sep: str | None) -> tuple[str, ...]:
    return () if cell == "-" else tuple(p for p in cell.split(sep) if p)


def parse(text: str, where: str = "kselftests.tsv") -> list[Kselftest]:
    out: list[Kselftest] = []
    builds: dict[str, tuple[str, ...]] = {}
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) != COLUMNS:
            raise TableError(f"{where}:{n}: {len(cells)} columns, want {COLUMNS}")
        name, how, sources, config, tests, build, argv, timeout, reason = cells
        if how not in HOW:
            raise TableError(f"{where}:{n}: how is {how!r}, want one of {', '.join(HOW)}")
        if any(k.name == name for k in out):
            raise TableError(f"{where}:{n}: {name} named twice")
        row = Kselftest(name, how, _split(sources, ","), _split(config, None), _split(tests, None),
                        _split(build, None), _split(argv, None),
                        int(timeout) if timeout.isdigit() else 0, reason)
        if not row.sources or not row.tests or not reason:
            raise TableError(f"{where}:{n}: {name} needs sources, tests and a reason")
        if how != "skip":
            if not row.build or not row.argv or row.timeout <= 0:
                raise TableError(f"{where}:{n}: {name} is run but lacks build, argv or timeout")
            # Two rows may run one program with other arguments, built once.
            if builds.setdefault(row.program, row.build) != row.build:
                raise TableError(f"{where}:{n}: {row.program} is built two ways")
        out.append(row)
    return out


def load(path: Path = TABLE) -> list[Kselftest]:
    return parse(path.read_text(), path.name)


@dataclass
class Selection:
    run: list[Kselftest] = field(default_factory=list)
    not_run: list[tuple[Kselftest, str]] = field(default_factory=list)


def select(rows: list[Kselftest], touched: set[str], config: dict[str, str],
           tree: Path | None = None) -> Selection:
    """The kselftests for the touched files (and every control), and why
    each other one that exercises a touched file does not run; tree: the
    tree whose copies they are built from (7.2 moved dma_map_benchmark.c
    out of tools/testing/selftests)."""
    out = Selection()
    for row in rows:
        if row.how != "control" and not set(row.sources) & touched:
            continue
        if row.how != "control":
            # a row lists every file it exercises in any tree: name the
            # ones this series touches (7.2 has no cmtp/sock.c)
            row = dataclasses.replace(row, sources=tuple(s for s in row.sources if s in touched))
        if row.how == "skip":
            out.not_run.append((row, row.reason))
            continue
        gone = [w for w in row.needed_files if tree is not None and not (tree / SELFTESTS / w).is_file()]
        if gone:
            out.not_run.append((row, f"this tree has no tools/testing/selftests/{gone[0]}"))
            continue
        missing = [f"CONFIG_{s}" for s in row.config if config.get(s, "n") not in ("y", "m")]
        if missing:
            out.not_run.append((row, "the audit kernel lacks " + ", ".join(missing)))
        else:
            out.run.append(row)
    return out


def compile_argv(row: Kselftest, tree: Path, headers: Path, out: Path) -> list[str]:
    """One static gcc line: the row's C files and flags, then the libraries."""
    expand = {"@TREE": str(tree), "@HDR": str(headers)}
    args = []
    for word in row.build:
        for key, value in expand.items():
            word = word.replace(key, value)
        if word.startswith("?"):
            # a C file only some trees have (7.2's mm/hugepage_settings.c,
            # which its gup_test.c and hmm-tests.c call into)
            word = word[1:]
            if not (tree / SELFTESTS / word).is_file():
                continue
        if word.endswith(".c") and not word.startswith("/"):
            word = str(tree / SELFTESTS / word)
        args.append(word)
    flags = [a for a in args if not a.startswith("-l")]
    libs = [a for a in args if a.startswith("-l")]
    # A row that places @HDR itself (before the tree's include/, as the
    # dma Makefile does) gets no -isystem: gcc would then drop its -I.
    system = [] if any("@HDR" in w for w in row.build) else ["-isystem", str(headers)]
    return ["gcc", *CFLAGS, *flags, *system, "-I", str(tree / SELFTESTS),
            "-o", str(out / row.program), *libs]


def make_headers(tree: Path, folder: Path, log: Path) -> Path:
    """`make headers` of tree into folder (O=, the tree is not written);
    its usr/include.  Done once per tree: the series touch no uapi header."""
    stamp = folder / ".enotty-headers"
    include = folder / "usr" / "include"
    if stamp.is_file() and stamp.read_text() == str(tree) and include.is_dir():
        return include
    folder.mkdir(parents=True, exist_ok=True)
    stamp.unlink(missing_ok=True)
    run_logged(["make", "-s", "-C", str(tree), f"O={folder}", "ARCH=x86_64", "headers"], log,
               what="make headers")
    stamp.write_text(str(tree))
    return include


def build(rows: list[Kselftest], tree: Path, headers: Path, out: Path, log: Path,
          env: dict[str, str] | None = None) -> dict[str, Path]:
    """program -> its static binary, for the rows to run.  A program whose
    gcc line and sources are unchanged is not rebuilt (same bytes, same
    initramfs, so a finished boot is reused)."""
    out.mkdir(parents=True, exist_ok=True)
    done: dict[str, Path] = {}
    for row in rows:
        if row.program in done:
            continue
        argv = compile_argv(row, tree, headers, out)
        key = hashlib.sha256("\0".join(argv).encode())
        for word in argv:
            if word.endswith(".c"):
                key.update(Path(word).read_bytes())
        binary, stamp = out / row.program, out / f".{row.program}.key"
        if not (binary.is_file() and stamp.is_file() and stamp.read_text() == key.hexdigest()):
            stamp.unlink(missing_ok=True)
            run_logged(["ccache", *argv] if _have("ccache") else argv, log, env,
                       what=f"kselftest {row.name}")
            stamp.write_text(key.hexdigest())
        done[row.program] = binary
    return done


def _have(program: str) -> bool:
    return any(os.access(Path(d) / program, os.X_OK) for d in os.environ.get("PATH", "").split(":") if d)


def guest_list(rows: list[Kselftest]) -> str:
    """/audit/kselftests/list: NAME<TAB>SECONDS<TAB>ARGV, one per line."""
    return "".join(f"{r.name}\t{r.timeout}\t{' '.join(r.argv)}\n" for r in rows)
