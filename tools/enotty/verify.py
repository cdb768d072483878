"""Check patches before they are written: checkpatch, x86_64 build, fixpoint.

(The apply check is series.apply_all: every patch applied in order with
`git apply` to the pristine files in the scratch repository.)

Build: an x86_64 allmodconfig, prepared once (olddefconfig prepare
modules_prepare, a few minutes) in enotty.tree.cache_dir()/build/
allmodconfig-<version>/ (O=) and reused.  The source it builds is
allmodconfig-<version>.src/, a `cp -al` hard-link copy of the tree: a
patched file is written as a new file and renamed over its link, so the
pristine tree's inodes are never written; the previous run's patched files
are put back the same way (linked from the tree again) before each run.
CONFIG_WERROR and DEBUG_INFO are off: a warning the patch did not cause must
not fail it, and debug info only costs time.  A touched .c file is
"built" when kbuild's dry run of its folder (`make -n dir/`, which follows
the configuration) compiles it; otherwise it is "not built on x86_64
allmodconfig" (another architecture, a disabled option, a #included .c),
which is not a failure.  A file that fails to build is built once more
without the patch: when that fails too, the failure is the tree's, not the
patch's.
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import maintainers, tree

JOBS = 2

OK = "ok"
FAILED = "failed"
NOT_BUILT = "not built on x86_64"
SKIPPED = "skipped"


@dataclass(frozen=True)
class Check:
    status: str        # ok | failed | not built on x86_64 | skipped | ...
    detail: str = ""

    def cell(self) -> str:
        return self.status + (f" ({self.detail})" if self.detail else "")


# ---------------------------------------------------------------- checkpatch

_TOTAL = re.compile(r"^total: (\d+) errors, (\d+) warnings, (?:(\d+) checks, )?\d+ lines checked", re.M)


def checkpatch_command(root: Path, patch: Path) -> list[str] | None:
    found = maintainers.script(root, "checkpatch.pl")
    if found is None:
        return None
    script, kernel = found
    cmd = ["perl", str(script), "--show-types", "--terse"]
    cmd += [f"--root={root}"] if kernel else ["--no-tree"]
    return cmd + [str(patch)]


def checkpatch(root: Path, patch: Path) -> Check:
    """ok (warnings counted in the detail) or failed with the first errors."""
    cmd = checkpatch_command(root, patch)
    if cmd is None:
        return Check(SKIPPED, "no scripts/checkpatch.pl")
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

@dataclass(frozen=True)
class BuildTree:
    root: Path         # the pristine tree (read only)
    src: Path          # hard-link copy that gets the patched files
    obj: Path          # O= folder


def build_tree(root: Path) -> BuildTree:
    version = tree.kernel_version(root)
    name = f"allmodconfig-{version}"
    if root.resolve() != (tree.cache_dir() / "src" / tree.SOURCE_PACKAGE).resolve():
        name += "-" + hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:8]
    base = tree.cache_dir() / "build"
    return BuildTree(root, base / f"{name}.src", base / name)


PREPARED = ".enotty-prepared"
PATCHED = ".enotty-patched"


def make_command(bt: BuildTree, targets: list[str], jobs: int = JOBS, dry_run: bool = False) -> list[str]:
    """`make` in the hard-link copy with O=; -k so one failure stops nothing."""
    cmd = ["make", "-C", str(bt.src), f"O={bt.obj}", f"-j{min(jobs, JOBS)}", "-k"]
    if dry_run:
        cmd.append("-n")
    return cmd + targets


def kbuild_env() -> dict[str, str]:
    """The environment without the calling make's variables: `make patches
    M=drivers/media` passes M= down in MAKEFLAGS, which would turn kbuild
    into an external-module build."""
    env = dict(os.environ)
    for key in ("MAKEFLAGS", "MAKEOVERRIDES", "MFLAGS", "MAKELEVEL", "MAKE_TERMOUT", "MAKE_TERMERR",
                "M", "O", "KDIR", "OUT", "V", "W", "C", "ARCH", "CROSS_COMPILE", "CC", "LLVM"):
        env.pop(key, None)
    return env


def can_build(root: Path) -> str:
    """'' when root can be built for x86_64 here, else why not."""
    if not (root / "Makefile").is_file() or not (root / "arch" / "x86").is_dir():
        return "not a kernel tree with arch/x86"
    if not shutil.which("gcc") or not shutil.which("make"):
        return "no gcc/make"
    return ""


def prepare(bt: BuildTree, log=sys.stderr) -> None:
    """Hard-link copy plus allmodconfig prepare, once; later runs reuse it."""
    if not bt.src.is_dir():
        bt.src.parent.mkdir(parents=True, exist_ok=True)
        tmp = bt.src.with_name(bt.src.name + ".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        subprocess.run(["cp", "-al", str(bt.root), str(tmp)], check=True)
        tmp.rename(bt.src)
    if (bt.obj / PREPARED).is_file():
        return
    bt.obj.mkdir(parents=True, exist_ok=True)
    print(f"enotty: preparing an x86_64 allmodconfig build in {bt.obj} (once; minutes)", file=log)
    run = lambda *targets: subprocess.run(  # noqa: E731
        ["make", "-C", str(bt.src), f"O={bt.obj}", f"-j{JOBS}", *targets],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True, env=kbuild_env())
    run("allmodconfig")
    config = bt.obj / ".config"
    text = config.read_text()
    text = re.sub(r"^(CONFIG_\w*WERROR)=y$", r"# \1 is not set", text, flags=re.M)
    for opt in ("DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT", "DEBUG_INFO_DWARF4", "DEBUG_INFO_DWARF5", "DEBUG_INFO_BTF"):
        text = re.sub(rf"^CONFIG_{opt}=y$", f"# CONFIG_{opt} is not set", text, flags=re.M)
    text += "CONFIG_DEBUG_INFO_NONE=y\n"
    config.write_text(text)
    run("olddefconfig", "prepare", "modules_prepare")
    (bt.obj / PREPARED).write_text("allmodconfig, WERROR and DEBUG_INFO off\n")


def _replace(path: Path, data: bytes | None, pristine: Path) -> None:
    """Write-new-then-rename (data) or re-link the pristine file (None)."""
    tmp = path.with_name(f".{path.name}.enotty-tmp")
    if tmp.exists():
        tmp.unlink()
    if data is None:
        os.link(pristine, tmp)
    else:
        tmp.write_bytes(data)
    os.replace(tmp, path)


def install(bt: BuildTree, files: dict[str, bytes]) -> None:
    """Make the copy equal the pristine tree plus `files` (rel -> content)."""
    manifest = bt.src / PATCHED
    previous = manifest.read_text().split("\n") if manifest.is_file() else []
    for rel in filter(None, previous):
        if rel not in files and (bt.root / rel).is_file():
            _replace(bt.src / rel, None, bt.root / rel)
    tmp = manifest.with_name(PATCHED + ".tmp")
    tmp.write_text("\n".join(sorted(set(files) | set(filter(None, previous)))))
    os.replace(tmp, manifest)
    for rel, data in files.items():
        _replace(bt.src / rel, data, bt.root / rel)
    manifest.write_text("\n".join(sorted(files)))


def kbuild_dir(root: Path, rel: str) -> str:
    """The nearest folder of rel with a Makefile or Kbuild (where its object is named)."""
    folder = Path(rel).parent
    while str(folder) not in ("", "."):
        if (root / folder / "Makefile").is_file() or (root / folder / "Kbuild").is_file():
            return str(folder)
        folder = folder.parent
    return ""


_CC = re.compile(r" -c -o (\S+\.o) (\S+\.c)\b")


def enabled_sources(bt: BuildTree, rels: list[str]) -> set[str]:
    """Which of rels allmodconfig compiles: kbuild's dry run of their folders."""
    dirs = sorted({kbuild_dir(bt.src, r) for r in rels} - {""})
    if not dirs:
        return set()
    res = subprocess.run(make_command(bt, [d + "/" for d in dirs], dry_run=True),
                         capture_output=True, text=True, check=False, env=kbuild_env())
    found = set()
    prefix = str(bt.src) + "/"
    for m in _CC.finditer(res.stdout):
        src = m.group(2)
        found.add(src[len(prefix):] if src.startswith(prefix) else src)
    return found & set(rels)


def _errors_for(output: str, bt: BuildTree, rel: str) -> str:
    needle = f"{bt.src}/{rel}:"
    for line in output.splitlines():
        if line.startswith(needle) and ("error:" in line or "Error" in line):
            return line[len(str(bt.src)) + 1:][:200]
    return "compile failed"


def compile_objects(bt: BuildTree, rels: list[str]) -> dict[str, Check]:
    """Build each rel's object in the copy as it stands; ok or failed."""
    objs = {rel: rel[:-2] + ".o" for rel in rels}
    for obj in objs.values():
        path = bt.obj / obj
        if path.exists():
            path.unlink()
    if not objs:
        return {}
    res = subprocess.run(make_command(bt, sorted(objs.values())), capture_output=True,
                         text=True, check=False, env=kbuild_env())
    out = {}
    for rel, obj in objs.items():
        if (bt.obj / obj).is_file():
            out[rel] = Check(OK)
        else:
            out[rel] = Check(FAILED, _errors_for(res.stdout + res.stderr, bt, rel))
    return out


def build(root: Path, patched: dict[str, bytes], log=sys.stderr) -> dict[str, Check]:
    """Per touched file: ok, failed (with the compiler's first error),
    not built on x86_64, or skipped (headers, no kernel tree)."""
    why = can_build(root)
    if why:
        return {rel: Check(SKIPPED, why) for rel in patched}
    bt = build_tree(root)
    bt.obj.parent.mkdir(parents=True, exist_ok=True)
    # One run at a time uses the shared copy and build folder.
    with open(bt.obj.parent / f".{bt.obj.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _build_locked(bt, patched, log)


def _build_locked(bt: BuildTree, patched: dict[str, bytes], log) -> dict[str, Check]:
    prepare(bt, log)
    install(bt, patched)
    sources = [r for r in patched if r.endswith(".c")]
    out = {r: Check(SKIPPED, "header, built through its users") for r in patched if not r.endswith(".c")}
    enabled = enabled_sources(bt, sources)
    for rel in sources:
        if rel not in enabled:
            out[rel] = Check(NOT_BUILT, "not in x86_64 allmodconfig")
    print(f"enotty: building {len(enabled)} patched files (x86_64 allmodconfig, -j{JOBS})", file=log)
    results = compile_objects(bt, sorted(enabled))
    failed = [rel for rel, chk in results.items() if chk.status == FAILED]
    if failed:
        install(bt, {r: d for r, d in patched.items() if r not in failed})
        before = compile_objects(bt, failed)
        for rel in failed:
            if before[rel].status == FAILED:
                results[rel] = Check("fails without the patch too", results[rel].detail)
        install(bt, patched)
    out.update(results)
    return out


# ---------------------------------------------------------------- fixpoint

def fixpoint(patched: dict[str, bytes], scan_files) -> dict[str, Check]:
    """Run the rules again on the patched files: they must find nothing.

    scan_files(folder) -> (sites, failed) scans a folder laid out like the
    tree (the scan stage); the patched files are copied into a temporary one.
    """
    with tempfile.TemporaryDirectory(prefix="enotty-fixpoint-") as tmp:
        base = Path(tmp)
        for rel, data in patched.items():
            dest = base / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
        sites, failed = scan_files(base)
    left: dict[str, list] = {}
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
