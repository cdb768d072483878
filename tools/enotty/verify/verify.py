"""Check patches before they are written: checkpatch, x86_64 build, fixpoint.

(The apply check is series.apply_all: every patch applied in order with
`git apply` to the pristine files in the scratch repository.)

Build: an x86_64 allmodconfig (enotty.kernel.build.configure_wide), prepared
once (prepare modules_prepare, a few minutes) in enotty.kernel.tree.cache_dir()/build/
allmodconfig-<version>/ (O=) and reused.  The source it builds is
allmodconfig-<version>.src/, an enotty.kernel.worktree copy of the tree: the
patched files are written into it by rename, so the pristine tree's inodes
are never written, and the previous run's files are put back first.
CONFIG_WERROR and DEBUG_INFO are off: a warning the patch did not cause must
not fail it, and debug info only costs time.  A touched .c file is
"built" when kbuild's dry run of its folder (`make -n dir/`, which follows
the configuration) compiles it; otherwise it is "not built on x86_64
allmodconfig" (another architecture, a disabled option, a #included .c),
which is not a failure.  A file that fails to build is built once more
without the patch: when that fails too, the failure is the tree's, not the
patch's.

Cache: checkpatch and build verdicts are kept under
enotty.kernel.tree.cache_dir()/verify/ (ResultCache), keyed by what they are
computed from, so a rerun over unchanged patches runs neither perl nor make.
The fixpoint needs no cache of its own: its rescan goes through the scan's
per-file cache, keyed by file content, rules, spatch and its options.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, TextIO

from .. import cache
from ..partition import maintainers
from ..kernel import tree
from ..cache import digest
from ..kernel.build import BuildTree, build_folder, configure_wide, make_argv, quiet_make
from ..requests import KernelTree, default_jobs
from ..kernel.worktree import kbuild_env

OK = "ok"
FAILED = "failed"
NOT_BUILT = "not built"
SKIPPED = "skipped"
TREE_FAILS = "fails without the patch too"
X86_64 = "x86_64"


@dataclass(frozen=True)
class Check:
    status: str        # ok | failed | not built | skipped | ...
    detail: str = ""
    arch: str = ""     # the build's platform (x86_64, m68k, arm footbridge...), '' for other checks

    def cell(self) -> str:
        return self.status + (f" ({self.detail})" if self.detail else "")


# ---------------------------------------------------------------- cache

# Bump when a verdict's meaning or what its key covers changes.
CACHE_FORMAT = "enotty-verify-1"


def tree_identity(root: Path) -> str:
    """The tree in a cache key: its path and version.  A KDIR is only read,
    and a release tree (the default one above all) does not change under
    one path and version; this key does not see a KDIR that its owner
    edits between two runs (remove the cache folder after such an edit)."""
    return f"{root.resolve()}\0{tree.kernel_version(root)}"


class ResultCache:
    """Verdicts (Check) by kind and key under tree.cache_dir()/verify/KIND/."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder or tree.cache_dir() / "verify"

    @staticmethod
    def key(*parts: str) -> str:
        return cache.key(CACHE_FORMAT, *parts)

    def get(self, kind: str, key: str) -> Check | None:
        record = cache.JsonCache(self.folder / kind).get(key)
        try:
            status = str(record["status"])
            # the name NOT_BUILT had before the cross builds
            status = NOT_BUILT if status == "not built on x86_64" else status
            return Check(status, str(record["detail"]), str(record.get("arch", "")))
        except (KeyError, TypeError, AttributeError):
            return None

    def put(self, kind: str, key: str, check: Check) -> None:
        cache.JsonCache(self.folder / kind).put(key, {"status": check.status, "detail": check.detail,
                                                      "arch": check.arch})


# ---------------------------------------------------------------- checkpatch

def checkpatch_command(root: Path, patch: Path) -> list[str] | None:
    found = maintainers.script(root, "checkpatch.pl")
    if found is None:
        return None
    script, kernel = found
    cmd = ["perl", str(script), "--show-types", "--terse"]
    cmd += [f"--root={root}"] if kernel else ["--no-tree"]
    return cmd + [str(patch)]


def checkpatch(kernel: KernelTree, patch: Path) -> Check:
    """ok (warnings counted in the detail) or failed with the first errors.

    Cached by the patch's content, checkpatch.pl's content, its options
    and the tree (--root= reads the tree's spelling and const-struct lists);
    a tree without use_cache runs checkpatch.pl again (the verdict is
    still stored).
    """
    root = kernel.root
    cmd = checkpatch_command(root, patch)
    if cmd is None:
        return Check(SKIPPED, "no scripts/checkpatch.pl")
    script = Path(cmd[1])
    key = ResultCache.key(tree_identity(root), digest(script.read_bytes()),
                          " ".join(cmd[:-1]), digest(patch.read_bytes()))
    results = ResultCache()
    if kernel.use_cache and (hit := results.get("checkpatch", key)) is not None:
        return hit
    chk = _run_checkpatch(root, cmd)
    results.put("checkpatch", key, chk)
    return chk


def _run_checkpatch(root: Path, cmd: list[str]) -> Check:
    res = subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=False,
                         env=maintainers.perl_env())
    errors = [ln for ln in res.stdout.splitlines() if ": ERROR:" in ln]
    warnings = [ln for ln in res.stdout.splitlines() if ": WARNING:" in ln]
    if errors:
        return Check(FAILED, "; ".join(e.split(": ", 1)[1] for e in errors[:2]))
    if res.returncode not in (0, 1) or (res.returncode == 1 and not warnings):
        return Check(FAILED, f"checkpatch.pl exit {res.returncode}: {res.stderr.strip()[:120]}")
    if warnings:
        types = sorted({w.split(": ", 2)[1].removeprefix("WARNING:") for w in warnings})
        return Check(OK, f"{len(warnings)} warning{'s' if len(warnings) > 1 else ''}: {', '.join(types)}")
    return Check(OK)


# ---------------------------------------------------------------- build

def build_tree(root: Path) -> BuildTree:
    """The x86_64 allmodconfig build of root: build/allmodconfig-VERSION[-hash]
    and its source copy beside it (.src)."""
    obj = build_folder(root, "allmodconfig")
    return BuildTree(root, obj.with_name(obj.name + ".src"), obj)


PREPARED = ".enotty-prepared"


def make_command(bt: BuildTree, targets: list[str], jobs: int | None = None,
                 dry_run: bool = False) -> list[str]:
    """`make` in the hard-link copy with O=; -k so one failure stops nothing."""
    return make_argv(bt.src, bt.obj, "-k", *(["-n"] if dry_run else []), *targets, make_args=bt.make_args,
                     jobs=jobs)


def can_build(root: Path) -> str:
    """'' when root can be built for x86_64 here, else why not."""
    if not (root / "Makefile").is_file() or not (root / "arch" / "x86").is_dir():
        return "not a kernel tree with arch/x86"
    if not shutil.which("gcc") or not shutil.which("make"):
        return "no gcc/make"
    return ""


def prepare(bt: BuildTree, log: TextIO = sys.stderr, jobs: int | None = None) -> None:
    """The hard-link copy plus the allmodconfig prepare, once; later runs
    reuse them.  A failing make raises CalledProcessError with the last
    lines of its stderr."""
    bt.work.ensure()
    if (bt.obj / PREPARED).is_file():
        return
    bt.obj.mkdir(parents=True, exist_ok=True)
    print(f"enotty: preparing an x86_64 allmodconfig build in {bt.obj} (once; minutes)", file=log)

    configure_wide(bt.src, bt.obj, "allmodconfig", jobs=jobs)
    quiet_make(bt.src, bt.obj, ["prepare", "modules_prepare"], jobs=jobs)
    (bt.obj / PREPARED).write_text("allmodconfig, WERROR and DEBUG_INFO off\n")


def install(bt: BuildTree, files: dict[str, bytes]) -> None:
    """Make the copy equal the pristine tree plus `files` (rel -> content)."""
    bt.work.set_files(files)


def kbuild_dir(root: Path, rel: str) -> str:
    """The nearest folder of rel with a Makefile or Kbuild (where its object is named)."""
    folder = Path(rel).parent
    while str(folder) not in ("", "."):
        if (root / folder / "Makefile").is_file() or (root / folder / "Kbuild").is_file():
            return str(folder)
        folder = folder.parent
    return ""


def includer_dirs(root: Path, rel: str, srcarch: str = "x86") -> list[str]:
    """Folders of arch/<srcarch>/ whose Makefile includes a make fragment
    of rel's folder (virt/kvm/Makefile.kvm: arch/x86/kvm/ builds
    virt/kvm/kvm_main.c as ../../../virt/kvm/kvm_main.o); [] for a folder
    with a Makefile of its own."""
    folder = Path(rel).parent
    if (root / folder / "Makefile").is_file() or (root / folder / "Kbuild").is_file():
        return []
    fragments = [f"{folder}/{p.name}" for p in sorted((root / folder).glob("Makefile.*"))]
    if not fragments:
        return []
    out = []
    for makefile in sorted((root / "arch" / srcarch).glob("**/Makefile")):
        text = makefile.read_text(errors="replace")
        if any(f in text for f in fragments):
            out.append(str(makefile.parent.relative_to(root)))
    return out


_CC = re.compile(r" -c -o (\S+\.o) (\S+\.c)\b")


def enabled_sources(bt: BuildTree, rels: list[str], jobs: int | None = None,
                    srcarch: str = "x86", targets: dict[str, str] | None = None) -> set[str]:
    """Which of rels allmodconfig compiles: kbuild's dry run of their folders.

    Their objects are removed first: a dry run lists only the objects it
    would remake, and a file the copy already held (an earlier run's
    patch) may have an object newer than itself."""
    dirs = sorted(({kbuild_dir(bt.src, r) for r in rels} - {""})
                  | {d for r in rels for d in includer_dirs(bt.src, r, srcarch)})
    if not dirs:
        return set()
    for rel in rels:
        (bt.obj / (rel[:-2] + ".o")).unlink(missing_ok=True)
    res = subprocess.run(make_command(bt, [d + "/" for d in dirs], jobs, dry_run=True),
                         capture_output=True, text=True, check=False, env=kbuild_env())
    found = set()
    prefix = str(bt.src) + "/"
    for m in _CC.finditer(res.stdout):
        src = m.group(2)
        rel = os.path.normpath(src[len(prefix):] if src.startswith(prefix) else src)
        found.add(rel)
        if targets is not None and rel in rels and os.path.normpath(m.group(1)) != rel[:-2] + ".o":
            # built from another folder's Makefile: kbuild builds it only
            # as part of that folder
            targets[rel] = str(Path(m.group(1).split("/../")[0])) + "/"
    return found & set(rels)


def _errors_for(output: str, bt: BuildTree, rel: str) -> str:
    needle = f"{bt.src}/{rel}:"
    for line in output.splitlines():
        if line.startswith(needle) and ("error:" in line or "Error" in line):
            return line[len(str(bt.src)) + 1:][:200]
    return "compile failed"


def compile_objects(bt: BuildTree, rels: list[str], jobs: int | None = None,
                    targets: dict[str, str] | None = None) -> dict[str, Check]:
    """Build each rel's object in the copy as it stands; ok or failed.
    targets: the make target of a rel built only with another folder
    (enabled_sources), else its own object."""
    objs = {rel: rel[:-2] + ".o" for rel in rels}
    for obj in objs.values():
        path = bt.obj / obj
        if path.exists():
            path.unlink()
    if not objs:
        return {}
    goals = sorted({(targets or {}).get(rel, obj) for rel, obj in objs.items()})
    res = subprocess.run(make_command(bt, goals, jobs), capture_output=True,
                         text=True, check=False, env=kbuild_env())
    out = {}
    for rel, obj in objs.items():
        if (bt.obj / obj).is_file():
            out[rel] = Check(OK)
        else:
            out[rel] = Check(FAILED, _errors_for(res.stdout + res.stderr, bt, rel))
    return out


def build_keys(bt: BuildTree, patched: dict[str, bytes]) -> dict[str, str]:
    """The cache key of each patched .c file's build verdict.

    A verdict follows from the file's content, the configuration (.config,
    which also names the compiler in CONFIG_CC_VERSION_TEXT), the tree the
    file is built in (tree_identity: its headers and Makefiles), and the
    other files this run patches that the file may include (every patched
    non-.c file, all of them: cheaper than knowing which ones it includes).
    Not covered: a compiler upgraded without the .config being prepared
    again, and a KDIR edited in place (see tree_identity).
    """
    config = digest((bt.obj / ".config").read_bytes())
    ident = tree_identity(bt.root)
    headers = digest(b"".join(rel.encode() + b"\0" + digest(data).encode() + b"\0"
                              for rel, data in sorted(patched.items()) if not rel.endswith(".c")))
    return {rel: ResultCache.key(ident, config, headers, rel, digest(data))
            for rel, data in patched.items() if rel.endswith(".c")}


def build(kernel: KernelTree, patched: dict[str, bytes], log: TextIO = sys.stderr,
          jobs: int | None = None, cross: bool = True) -> dict[str, Check]:
    """Per touched file: ok, failed (with the compiler's first error),
    not built on x86_64, or skipped (headers, no kernel tree).

    jobs: make's -j (default: the CPUs we may use).  Verdicts come from the
    cache when their key (build_keys) is there; a tree without use_cache
    builds every file again (the verdicts are still stored)."""
    root, use_cache = kernel.root, kernel.use_cache
    why = can_build(root)
    if why:
        return {rel: Check(SKIPPED, why) for rel in patched}
    bt = build_tree(root)
    out = {r: Check(SKIPPED, "header, built through its users") for r in patched if not r.endswith(".c")}
    results = ResultCache()
    # One run at a time uses the shared copy and build folder.
    with bt.work.locked():
        prepare(bt, log, jobs)
        keys = build_keys(bt, patched)
        todo = []
        for rel, key in sorted(keys.items()):
            hit = results.get("build", key) if use_cache else None
            if hit is None:
                todo.append(rel)
            else:
                out[rel] = hit
        if keys:
            print(f"enotty: build of {len(keys)} patched files: {len(keys) - len(todo)} from the cache,"
                  f" {len(todo)} to check (x86_64 allmodconfig, -j{jobs or default_jobs()})", file=log)
        if todo:
            fresh = build_on(bt, patched, todo, jobs, X86_64)
            for rel, chk in fresh.items():
                # "compile failed" without a compiler line may be a killed
                # make (memory, ^C): ask again next time.
                if chk != Check(FAILED, "compile failed", X86_64):
                    results.put("build", keys[rel], chk)
            out.update(fresh)
        # Verdicts cached before the platform was recorded were all x86_64's.
        out = {rel: (Check(c.status, c.detail, X86_64) if c.status in (OK, FAILED, TREE_FAILS) and not c.arch
                     else c) for rel, c in out.items()}
        elsewhere = sorted(rel for rel, c in out.items() if c.status == NOT_BUILT)
        if elsewhere and cross:
            from . import crossbuild   # crossbuild builds on verify's helpers
            install(bt, patched)
            out.update(crossbuild.build_elsewhere(kernel, bt, patched, elsewhere, log, jobs))
    return out


def build_on(bt: BuildTree, patched: dict[str, bytes], sources: list[str],
             jobs: int | None, arch: str, srcarch: str = "x86") -> dict[str, Check]:
    """Verdicts for the .c files `sources` in bt's configuration (arch
    names it in each verdict), the copy holding all of `patched`; a file
    the configuration does not compile is NOT_BUILT."""
    install(bt, patched)
    targets: dict[str, str] = {}
    enabled = enabled_sources(bt, sources, jobs, srcarch, targets)
    out = {rel: Check(NOT_BUILT, "not in x86_64 allmodconfig") for rel in sources if rel not in enabled}
    results = {rel: Check(c.status, c.detail, arch)
               for rel, c in compile_objects(bt, sorted(enabled), jobs, targets).items()}
    failed = [rel for rel, chk in results.items() if chk.status == FAILED]
    if failed:
        install(bt, {r: d for r, d in patched.items() if r not in failed})
        before = compile_objects(bt, failed, jobs, targets)
        for rel in failed:
            if before[rel].status == FAILED:
                results[rel] = Check(TREE_FAILS, results[rel].detail, arch)
        install(bt, patched)
    out.update(results)
    return out


# ---------------------------------------------------------------- fixpoint

ScanFiles = Callable[[Path], "tuple[Iterable[Any], Iterable[Any]]"]


def fixpoint(patched: dict[str, bytes], scan_files: ScanFiles) -> dict[str, Check]:
    """Run the rules again on the patched files: they must find nothing.

    scan_files(folder) -> (sites, failed) scans a folder laid out like the
    tree (the scan stage); the patched files are copied into a temporary one.
    No cache here: the scan's own per-file cache (file content, rules,
    spatch version and options) answers a patched file it has seen.
    """
    with tempfile.TemporaryDirectory(prefix="enotty-fixpoint-") as tmp:
        base = Path(tmp)
        for rel, data in patched.items():
            dest = base / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
        sites, failed = scan_files(base)
    left: dict[str, list[Any]] = {}
    for site in sites:
        left.setdefault(site.file, []).append(site)
    broken = {f.file: f for f in failed}
    out = {}
    for rel in patched:
        if rel in left:
            lines = ", ".join(str(s.line) for s in left[rel])
            out[rel] = Check(FAILED, f"rules still match at line {lines}")
        elif rel in broken:
            out[rel] = Check(FAILED, f"patched file does not parse: {broken[rel].reason}")
        else:
            out[rel] = Check(OK)
    return out
