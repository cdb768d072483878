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
patch's.  Those steps (prepare, build_on) live in enotty.kernel.build beside
BuildTree; this module keys, caches and collects their verdicts.

Cache: checkpatch and build verdicts are kept under
enotty.kernel.tree.cache_dir()/verify/ (ResultCache), keyed by what they are
computed from, so a rerun over unchanged patches runs neither perl nor make.
The fixpoint needs no cache of its own: its rescan goes through the scan's
per-file cache, keyed by file content, rules, spatch and its options.
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterable, TextIO

from .. import cache
from ..partition import maintainers
from ..kernel import tree
from ..cache import digest
from ..kernel.build import (FAILED, NOT_BUILT, OK, SKIPPED, TREE_FAILS, BuildTree, Check, build_on,
                            build_tree, can_build, prepare)
from ..requests import KernelTree, default_jobs

X86_64 = "x86_64"


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

def checkpatch_command(kernel: KernelTree, patch: Path) -> list[str] | None:
    found = kernel.checkpatch
    if found is None:
        return None
    cmd = ["perl", str(found.path), "--show-types", "--terse"]
    cmd += [f"--root={kernel.root}"] if found.own else ["--no-tree"]
    return cmd + [str(patch)]


def checkpatch(kernel: KernelTree, patch: Path) -> Check:
    """ok (warnings counted in the detail) or failed with the first errors.

    Cached by the patch's content, checkpatch.pl's content, its options
    and the tree (--root= reads the tree's spelling and const-struct lists);
    a tree without use_cache runs checkpatch.pl again (the verdict is
    still stored).
    """
    root = kernel.root
    cmd = checkpatch_command(kernel, patch)
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
        prepare(bt, patched, log, jobs)
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
            # the copy holds the patched files: prepare and build_on put them there
            from . import crossbuild   # crossbuild uses this module's cache and tree_identity
            out.update(crossbuild.build_elsewhere(kernel, bt, patched, elsewhere, log, jobs))
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
