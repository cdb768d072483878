"""Configure a kernel and build it out of tree, through ccache.

Two kinds of configuration, one kbuild driver:

* TinyKernel: a bootable kernel for QEMU, tinyconfig plus fragments
  (`make qemu-test`: selftests/qemu/config; `make audit`: its base fragment
  plus the drivers the series touch).  Configured again only when the
  fragments change (a stamp file in the build folder holds them), checked
  option by option after olddefconfig.
* configure_wide: a config target (allmodconfig, a board's defconfig) plus
  settings, relaxed() (WERROR, debug info, the uapi header install off),
  for the object checks of
  `make patches` (enotty.verify.crossbuild); BuildTree is such a
  build's source copy and object folder, Platform one architecture's wide
  configuration (ALLMODCONFIG, x86_64's, first).  check_objects is the one
  entry of the object checks: for a set of patched files in one platform's
  configuration it configures (once), keys each file's verdict, looks it
  up in the store the caller passes (a VerdictStore:
  enotty.verify.verify.ResultCache), prepares (once) and builds the others
  in the copy the caller filled (install; enabled_sources, compile_objects,
  build_on), and stores their verdicts.  configure and prepare hold their
  folder's lock (folder_lock): the verify stage prepares ahead in threads.

The tree itself is only read: every build writes into O=.
"""
from __future__ import annotations

import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Protocol, TextIO

from .. import cache
from . import tree
from ..requests import default_jobs
from .worktree import WorkTree, kbuild_env

X86_64 = ("ARCH=x86_64", "CC=ccache gcc")   # a bootable kernel's make arguments


class BuildError(Exception):
    """A build step failed: one line naming the log; tail: the log's last lines."""

    def __init__(self, message: str, tail: list[str] | None = None) -> None:
        super().__init__(message)
        self.tail = tail or []


# ---------------------------------------------------------------- verdicts

# An object check's verdict (enotty.verify keeps them in its cache).
OK = "ok"
FAILED = "failed"
NOT_BUILT = "not built"
SKIPPED = "skipped"
TREE_FAILS = "fails without the patch too"


@dataclass(frozen=True)
class Check:
    status: str        # ok | failed | not built | skipped | ...
    detail: str = ""
    arch: str = ""     # the build's platform (x86_64, m68k, arm footbridge...), '' for other checks

    def cell(self) -> str:
        return self.status + (f" ({self.detail})" if self.detail else "")


# ---------------------------------------------------------------- .config text

_SET = re.compile(r"^(CONFIG_\w+)=(.*)$")
_UNSET = re.compile(r"^# (CONFIG_\w+) is not set$")


def parse_config(text: str) -> dict[str, str]:
    """CONFIG_X -> value ('y', 'm', '"str"', 'n' for `# CONFIG_X is not set`)."""
    out = {}
    for line in text.splitlines():
        line = line.strip()
        m = _SET.match(line) or _UNSET.match(line)
        if m:
            out[m.group(1)] = m.group(2) if m.re is _SET else "n"
    return out


def read_config(path: Path) -> dict[str, str]:
    """A .config file's values (parse_config)."""
    return parse_config(path.read_text(errors="replace"))


def config_mismatches(fragment: str, config: str) -> list[str]:
    """Fragment options the final .config does not carry, as messages."""
    have = parse_config(config)
    bad = []
    for key, want in parse_config(fragment).items():
        got = have.get(key, "n")
        if got != want:
            bad.append(f"{key}={want} requested, .config has {key}={got}")
    return bad


# What relaxed() turns off besides every *WERROR: debug info, the uapi
# header install, and the sanitizers' instrumentation (KASAN, UBSAN, KCOV),
# which changes no verdict (a compile error is one without them too) and
# costs a third of each object's compile time in x86_64 allmodconfig.
TURNED_OFF = ("DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT", "DEBUG_INFO_DWARF4", "DEBUG_INFO_DWARF5",
              "DEBUG_INFO_BTF", "HEADERS_INSTALL", "KASAN", "UBSAN", "KCOV")


def relaxed(text: str, settings: tuple[str, ...] = ()) -> str:
    """A wide .config with WERROR and TURNED_OFF off, and the
    SYMBOL=y|m|n settings on top.  A warning the patch did not cause must
    not fail it; debug info and instrumentation only cost time; and
    HEADERS_INSTALL (which allmodconfig sets) makes `make prepare` run
    headers_install.sh on about 1,000 uapi headers that no kernel object
    includes (usr/include): two thirds of a cold prepare's CPU time."""
    text = re.sub(r"^(CONFIG_\w*WERROR)=y$", r"# \1 is not set", text, flags=re.M)
    for opt in TURNED_OFF:
        text = re.sub(rf"^CONFIG_{opt}=y$", f"# CONFIG_{opt} is not set", text, flags=re.M)
    extra = ["CONFIG_DEBUG_INFO_NONE=y"]
    for setting in settings:
        name, _, value = setting.partition("=")
        text = re.sub(rf"^(# )?CONFIG_{name}( is not set|=.*)$\n?", "", text, flags=re.M)
        extra.append(f"# CONFIG_{name} is not set" if value == "n" else f"CONFIG_{name}={value}")
    return text + "\n".join(extra) + "\n"


# ---------------------------------------------------------------- make

def make_argv(src: Path, obj: Path, *targets: str, make_args: tuple[str, ...] = (),
              jobs: int | None = None, quiet: bool = False) -> list[str]:
    """kbuild in src with O=obj, make_args (ARCH=, CROSS_COMPILE=, CC=) and
    jobs (default: our CPUs) workers."""
    return ["make", *(["-s"] if quiet else []), "-C", str(src), f"O={obj}", *make_args,
            f"-j{jobs or default_jobs()}", *targets]


def run_logged(argv: list[str], log: Path, env: dict[str, str] | None = None,
               what: str | None = None) -> None:
    """argv with its output appended to log; BuildError when it fails,
    saying `what did not build` (default: the start of argv failed)."""
    with open(log, "ab") as f:
        f.write(("$ " + shlex.join(argv) + "\n").encode())
        f.flush()
        res = subprocess.run(argv, stdout=f, stderr=subprocess.STDOUT, env=env, check=False)
    if res.returncode != 0:
        tail = log.read_text(errors="replace").splitlines()[-15:]
        failed = f"{what} did not build" if what else f"`{' '.join(argv[:6])} ...` failed"
        raise BuildError(f"{failed} (exit {res.returncode}); log: {log}", tail)


# The host compiler of the wide configurations' builds, through ccache
# (make patches installs it): every platform's O= folder compiles the same
# host programs (fixdep, modpost, genksyms, dtc...) from the same copy, so
# all but the first platform of a cold run find them there.
# RUSTC=false: no Rust compiler, whatever the host has, so that the
# .config (CONFIG_RUSTC_VERSION, and with it every verdict's key) does not
# depend on one, and Kconfig does not run rustc three times per make.
WIDE_HOST_ARGS = ("HOSTCC=ccache gcc", "RUSTC=false")


def wide_env() -> dict[str, str]:
    """kbuild's environment for the wide builds: ccache's folder in ours."""
    return kbuild_env(tree.cache_dir() / "build" / "ccache")


def quiet_make(src: Path, obj: Path, targets: list[str], make_args: tuple[str, ...] = (),
               jobs: int | None = None) -> None:
    """kbuild of a wide configuration with its output dropped;
    CalledProcessError with the last lines of its stderr when it fails."""
    cmd = make_argv(src, obj, *targets, make_args=make_args + WIDE_HOST_ARGS, jobs=jobs)
    res = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         check=False, env=wide_env())
    if res.returncode != 0:
        last = [ln for ln in res.stderr.splitlines() if ln.strip()][-3:]
        raise subprocess.CalledProcessError(res.returncode, cmd, stderr="\n".join(last))


# ---------------------------------------------------------------- bootable kernels

@dataclass(frozen=True)
class TinyKernel:
    """A bootable kernel: tinyconfig plus fragments, built in build (O=)
    from source through ccache (its folder: ccache), logged to log.
    x86_64 unless make_args and image say another architecture (the
    audit's guests: ARCH=, CROSS_COMPILE=, CC= and the image kbuild
    leaves in the build folder)."""
    source: Path
    build: Path
    log: Path
    ccache: Path
    jobs: int | None = None
    stamp: str = ".enotty-fragment"    # the build folder's record of the fragments
    make_args: tuple[str, ...] = X86_64
    image: str = "arch/x86/boot/bzImage"   # the bootable image, relative to build

    @property
    def env(self) -> dict[str, str]:
        return kbuild_env(self.ccache)

    @property
    def bzimage(self) -> Path:
        return self.build / self.image

    def make(self, *targets: str) -> None:
        run_logged(make_argv(self.source, self.build, *targets, make_args=self.make_args,
                             jobs=self.jobs, quiet=True), self.log, self.env)

    def configure(self, fragment: str, required: str | None = None,
                  required_from: Path | str = "the fragment") -> str:
        """tinyconfig + fragment, olddefconfig; the .config text.  Unchanged
        fragment: nothing is rerun.  Every option of required (default: the
        whole fragment) must survive olddefconfig, else BuildError naming
        required_from."""
        config = self.build / ".config"
        stamp = self.build / self.stamp
        if not (config.is_file() and stamp.is_file() and stamp.read_text() == fragment):
            self.build.mkdir(parents=True, exist_ok=True)
            stamp.unlink(missing_ok=True)
            self.make("tinyconfig")
            with open(config, "a") as f:
                f.write("\n" + fragment)
            self.make("olddefconfig")
            stamp.write_text(fragment)
        text = config.read_text()
        bad = config_mismatches(fragment if required is None else required, text)
        if bad:
            stamp.unlink(missing_ok=True)
            raise BuildError(f"{required_from}: options olddefconfig dropped (missing dependency?): "
                             + "; ".join(bad))
        return text


# ---------------------------------------------------------------- wide configurations

@dataclass(frozen=True)
class BuildTree:
    """A wide configuration's build: the pristine tree, the hard-link copy
    that gets the patched files, the O= folder and the make arguments."""
    root: Path         # the pristine tree (read only)
    src: Path          # hard-link copy that gets the patched files
    obj: Path          # O= folder
    make_args: tuple[str, ...] = ()   # ARCH= CROSS_COMPILE= of a cross build (crossbuild)

    @property
    def work(self) -> WorkTree:
        return WorkTree(self.root, self.src)


def build_folder(root: Path, name: str) -> Path:
    """tree.cache_dir()/build/NAME-VERSION, with a hash of root's path for
    a tree other than the default one."""
    folder = f"{name}-{tree.kernel_version(root)}"
    if root.resolve() != (tree.cache_dir() / "src" / tree.PINNED_PACKAGE).resolve():
        folder += "-" + hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:8]
    return tree.cache_dir() / "build" / folder


def configure_wide(src: Path, obj: Path, base: str, settings: tuple[str, ...] = (),
                   make_args: tuple[str, ...] = (), jobs: int | None = None) -> dict[str, str]:
    """The config target base (allmodconfig, a board's defconfig) in obj,
    relaxed() with settings, syncconfig; the .config's values.  syncconfig
    writes the .config olddefconfig would and also include/config/, which
    `make prepare` would otherwise run Kconfig once more to write."""
    obj.mkdir(parents=True, exist_ok=True)
    quiet_make(src, obj, [base], make_args, jobs)
    config = obj / ".config"
    config.write_text(relaxed(config.read_text(), settings))
    quiet_make(src, obj, ["syncconfig"], make_args, jobs)
    return read_config(config)


# ---------------------------------------------------------------- the object checks

def build_tree(root: Path) -> BuildTree:
    """The x86_64 allmodconfig build of root: build/allmodconfig-VERSION[-hash]
    and its source copy beside it (.src)."""
    obj = build_folder(root, "allmodconfig")
    return BuildTree(root, obj.with_name(obj.name + ".src"), obj)


def make_command(bt: BuildTree, targets: list[str], jobs: int | None = None,
                 dry_run: bool = False) -> list[str]:
    """`make` in the hard-link copy with O=; -k so one failure stops nothing."""
    return make_argv(bt.src, bt.obj, "-k", *(["-n"] if dry_run else []), *targets,
                     make_args=bt.make_args + WIDE_HOST_ARGS, jobs=jobs)


def can_build(root: Path) -> str:
    """'' when root can be built for x86_64 here, else why not."""
    if not (root / "Makefile").is_file() or not (root / "arch" / "x86").is_dir():
        return "not a kernel tree with arch/x86"
    if not shutil.which("gcc") or not shutil.which("make"):
        return "no gcc/make"
    return ""


def install(bt: BuildTree, files: dict[str, bytes]) -> None:
    """Make the copy (a hard-link copy, made once) equal the pristine tree
    plus `files` (rel -> content)."""
    bt.work.ensure()
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


def raise_if_killed(res: subprocess.CompletedProcess[str]) -> None:
    """KeyboardInterrupt when make itself died of a signal (^C in a worker
    thread, a kill from outside): what it printed or left is no answer,
    and must not be kept as a verdict.  A compiler killed under make (the
    OOM killer's usual choice) still ends make with an error: that is
    read as a failed build."""
    if res.returncode < 0:
        raise KeyboardInterrupt


def enabled_sources(bt: BuildTree, rels: list[str], jobs: int | None = None,
                    srcarch: str = "x86", targets: dict[str, str] | None = None) -> set[str]:
    """Which of rels the configuration compiles, as kbuild decides: each
    file's object is among its folder's objects (_members), or, for a
    file that another folder's Makefile builds (includer_dirs), kbuild's
    dry run of those folders lists its compile (_dry_run_members)."""
    elsewhere = {r: includer_dirs(bt.src, r, srcarch) for r in rels}
    own = [r for r in rels if not elsewhere[r] and kbuild_dir(bt.src, r)]
    found = _members(bt, own, jobs) if own else set()
    others = [r for r in rels if elsewhere[r]]
    if others:
        found |= _dry_run_members(bt, others, elsewhere, jobs, targets)
    return found


# kbuild's own answer to "is this object part of the build": a probe that
# Makefile.build of every folder a single-target build descends into
# (only those its parents enable) runs, writing that folder's objects, the
# built-in and module ones with their composite parts (Makefile.lib's
# real-obj-y, real-obj-m, lib-y), to a file of its own ($(file): the
# sub-makes run in parallel, and lines longer than a pipe's atomic write
# interleave on a shared stdout).  Each object goal gets the probe of its
# folder as an extra prerequisite (--eval reaches every sub-make); under
# `make -n` nothing is built.  A dry run of whole folders (`make -n dir/`)
# gave the same answers but descended into every subfolder: 30 s for
# x86_64's 114 patched files (81 folders) against 4.9 s.
PROBE = "enotty-probe"


def _members(bt: BuildTree, rels: list[str], jobs: int | None) -> set[str]:
    """The rels whose object kbuild counts among its folder's objects
    (PROBE above), in a single-target dry run of all of them."""
    goals = {rel: rel[:-2] + ".o" for rel in rels}
    objects = sorted(set(goals.values()))
    with tempfile.TemporaryDirectory(prefix="enotty-members-") as tmp:
        rule = (f"%/{PROBE}: ; $(if $(filter $(obj)/%,$@),$(file >{tmp}/$(subst /,:,$(obj)),"
                "$(filter %.o,$(real-obj-y) $(real-obj-m) $(lib-y))))")
        evals = [f"--eval={rule}"] + [f"--eval={o}: {os.path.dirname(o)}/{PROBE}" for o in objects]
        raise_if_killed(subprocess.run(make_command(bt, evals + objects, jobs, dry_run=True),
                                       capture_output=True, text=True, check=False, env=wide_env()))
        members = {os.path.normpath(o) for path in Path(tmp).iterdir() for o in path.read_text().split()}
    return {rel for rel, goal in goals.items() if goal in members}


def _dry_run_members(bt: BuildTree, rels: list[str], elsewhere: dict[str, list[str]], jobs: int | None,
                     targets: dict[str, str] | None) -> set[str]:
    """kbuild's dry run of the folders that build rels from theirs: their
    objects are removed first, since a dry run lists only the objects it
    would remake, and a file the copy already held (an earlier run's
    patch) may have an object newer than itself."""
    dirs = sorted(({kbuild_dir(bt.src, r) for r in rels} - {""}) | {d for r in rels for d in elsewhere[r]})
    for rel in rels:
        (bt.obj / (rel[:-2] + ".o")).unlink(missing_ok=True)
    res = subprocess.run(make_command(bt, [d + "/" for d in dirs], jobs, dry_run=True),
                         capture_output=True, text=True, check=False, env=wide_env())
    raise_if_killed(res)
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
                         text=True, check=False, env=wide_env())
    raise_if_killed(res)
    out = {}
    for rel, obj in objs.items():
        if (bt.obj / obj).is_file():
            out[rel] = Check(OK)
        else:
            out[rel] = Check(FAILED, _errors_for(res.stdout + res.stderr, bt, rel))
    return out


def build_on(bt: BuildTree, patched: dict[str, bytes], sources: list[str],
             jobs: int | None, arch: str, srcarch: str = "x86") -> dict[str, Check]:
    """Verdicts for the .c files `sources` in bt's configuration (arch
    names it in each verdict), the copy holding all of `patched` (the
    caller installed them); a file the configuration does not compile is
    NOT_BUILT.  A file that fails is built once more with its pristine
    text: when that fails too, the failure is the tree's (TREE_FAILS)."""
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


# ---------------------------------------------------------------- a platform's wide build

@dataclass(frozen=True)
class Platform:
    """A wide configuration of one architecture that the object checks
    build with (enotty.verify.crossbuild.PLATFORMS lists them in order)."""
    name: str                      # what SUMMARY.md says: "ok (m68k)"
    arch: str                      # make ARCH=
    srcarch: str                   # arch/<srcarch>/
    cross: str                     # CROSS_COMPILE= ('' for the host gcc)
    package: str                   # the Debian package of that compiler
    base: str                      # the config target: allmodconfig, pmac32_defconfig...
    settings: tuple[str, ...] = ()  # SYMBOL=y|m|n on top of base

    @property
    def label(self) -> str:
        """The architecture and configuration, for a log line."""
        return f"{self.arch} {self.base}" + (f" + {' '.join(self.settings)}" if self.settings else "")

    def make_args(self) -> tuple[str, ...]:
        return (f"ARCH={self.arch}",) + ((f"CROSS_COMPILE={self.cross}",) if self.cross else ())


CONFIGURED = ".enotty-configured"
PREPARED = ".enotty-prepared"


def platform_folder(root: Path, platform: Platform) -> Path:
    """The O= folder of a platform: build/<name>-<version>[-<tree hash>]."""
    return build_folder(root, platform.name.replace(" ", "-"))


def platform_tree(bt: BuildTree, platform: Platform) -> BuildTree:
    """The build of platform beside bt: the same pristine tree and copy,
    the platform's O= folder and make arguments (bt itself for x86_64
    allmodconfig)."""
    if platform == ALLMODCONFIG:
        return bt
    return BuildTree(bt.root, bt.src, platform_folder(bt.root, platform), platform.make_args())


_FOLDER_LOCKS: dict[Path, threading.Lock] = {}
_LOCKS_LOCK = threading.Lock()


def folder_lock(obj: Path) -> threading.Lock:
    """The lock of one O= folder: configure and prepare may run in a thread
    that prepares the next platforms while another thread builds."""
    with _LOCKS_LOCK:
        return _FOLDER_LOCKS.setdefault(obj, threading.Lock())


def configure_platform(bt: BuildTree, platform: Platform, jobs: int | None = None) -> dict[str, str]:
    """The platform's .config in bt.obj (made once): base target, settings,
    relaxed(), syncconfig; its values."""
    with folder_lock(bt.obj):
        return _configure_platform(bt, platform, jobs)


def _configure_platform(bt: BuildTree, platform: Platform, jobs: int | None) -> dict[str, str]:
    config, marker = bt.obj / ".config", bt.obj / CONFIGURED
    # the marker names what relaxed() turns off and the make arguments, so
    # a folder configured by an older recipe is configured (and prepared) again
    recipe = f"{platform.label}\nWERROR {' '.join(TURNED_OFF)} off\n{' '.join(WIDE_HOST_ARGS)}\n"
    if marker.is_file() and marker.read_text() == recipe and config.is_file():
        return read_config(config)
    # an interrupted configure must not leave a marker that vouches for it
    marker.unlink(missing_ok=True)
    (bt.obj / PREPARED).unlink(missing_ok=True)
    values = configure_wide(bt.src, bt.obj, platform.base, platform.settings, bt.make_args, jobs)
    marker.write_text(recipe)
    return values


def prepare_platform(bt: BuildTree, platform: Platform, jobs: int | None = None,
                     log: TextIO = sys.stderr) -> None:
    """`make prepare modules_prepare` once in the configured folder."""
    with folder_lock(bt.obj):
        if (bt.obj / PREPARED).is_file():
            return
        # one write: another thread may be printing too
        log.write(f"enotty: preparing a {platform.label} build in {bt.obj} (once; minutes)\n")
        quiet_make(bt.src, bt.obj, ["prepare", "modules_prepare"], bt.make_args, jobs)
        (bt.obj / PREPARED).write_text(platform.label + "\n")


# x86_64 allmodconfig, the object checks' first configuration; its build
# (build_tree) uses the host's make arguments, no ARCH=.
ALLMODCONFIG = Platform("x86_64", "x86_64", "x86", "", "gcc", "allmodconfig")


# ---------------------------------------------------------------- the verdict cache

class VerdictStore(Protocol):
    """Where check_objects keeps verdicts (enotty.verify.verify.ResultCache):
    key(*parts) -> a key; get and put a Check by kind and key."""

    def key(self, *parts: str) -> str: ...

    def get(self, kind: str, key: str) -> Check | None: ...

    def put(self, kind: str, key: str, check: Check) -> None: ...


def object_keys(bt: BuildTree, patched: dict[str, bytes], store: VerdictStore, tree_id: str) -> dict[str, str]:
    """The cache key of each patched .c file's build verdict.

    A verdict follows from the file's content, the configuration (.config,
    which also names the compiler in CONFIG_CC_VERSION_TEXT), the tree the
    file is built in (tree_id: its headers and Makefiles), and the
    other files this run patches that the file may include (every patched
    non-.c file, all of them: cheaper than knowing which ones it includes).
    Not covered: a compiler upgraded without the .config being prepared
    again, and a KDIR edited in place (see KernelTree.cache_key).
    """
    config = cache.digest((bt.obj / ".config").read_bytes())
    headers = cache.digest(b"".join(rel.encode() + b"\0" + cache.digest(data).encode() + b"\0"
                                    for rel, data in sorted(patched.items()) if not rel.endswith(".c")))
    return {rel: store.key(tree_id, config, headers, rel, cache.digest(data))
            for rel, data in patched.items() if rel.endswith(".c")}


# ---------------------------------------------------------------- one configuration's object checks

def check_objects(bt: BuildTree, platform: Platform, patched: dict[str, bytes], sources: list[str],
                  store: VerdictStore, tree_id: str, use_cache: bool = True, jobs: int | None = None,
                  log: TextIO = sys.stderr) -> dict[str, Check]:
    """Verdicts for the .c files sources in platform's configuration, built
    in bt, whose copy the caller made hold all of `patched`: the configuration made
    (once), each file's key (object_keys, with tree_id for the tree) looked
    up in store (unless use_cache is off), the others built (build_on) once the folder is
    prepared, and their verdicts stored.  A file the configuration does not
    compile is NOT_BUILT.  When the folder cannot be configured or prepared,
    the files without a cached verdict get none (the log says why); the
    caller tries them elsewhere."""
    try:
        configure_platform(bt, platform, jobs)
    except subprocess.CalledProcessError as err:
        print(f"enotty: {platform.label}: configuration failed: {err.stderr}", file=log)
        return {}
    keys = object_keys(bt, {r: d for r, d in patched.items() if r in sources or not r.endswith(".c")},
                       store, tree_id)
    out, todo = {}, []
    for rel in sorted(sources):
        hit = store.get("build", keys[rel]) if use_cache else None
        if hit is None:
            todo.append(rel)
        else:
            out[rel] = hit
    if sources:
        print(f"enotty: build of {len(sources)} patched files on {platform.label}: {len(sources) - len(todo)}"
              f" from the cache, {len(todo)} to check (-j{jobs or default_jobs()})", file=log)
    if not todo:
        return out
    try:
        prepare_platform(bt, platform, jobs, log)
    except subprocess.CalledProcessError as err:
        print(f"enotty: {platform.label}: make prepare failed: {err.stderr}", file=log)
        return out
    for rel, chk in build_on(bt, patched, todo, jobs, platform.name, platform.srcarch).items():
        # "compile failed" without a compiler line may be a killed make
        # (memory, ^C): ask again next time.
        if chk != Check(FAILED, "compile failed", platform.name):
            store.put("build", keys[rel], chk)
        out[rel] = chk
    return out


@dataclass(frozen=True)
class BuildNeeds:
    """What a configuration must set for a .c file to be compiled there:
    every one of symbols (all_needed), or, when no Makefile line names its
    object (an object list in a make variable), any one of its folder's
    obj-$(CONFIG_...) symbols, and kbuild decides (enabled_sources;
    kernel.kconfig.build_needs reads the symbols).  No symbols, all needed: any
    configuration (ANY_CONFIG).  forced: symbols no configuration here
    can set (kernel.kconfig.Unbuildable.toolchain_only), given to make on
    its command line instead."""
    symbols: tuple[str, ...]
    all_needed: bool
    forced: tuple[str, ...] = ()

    def met_by(self, config: Mapping[str, str]) -> bool:
        """The .config values set (y or m) what this asks for."""
        given = [config.get(s) in ("y", "m") for s in self.symbols]
        return all(given) if self.all_needed else any(given)


ANY_CONFIG = BuildNeeds((), True)


def check_fitting(bt: BuildTree, platform: Platform, patched: dict[str, bytes],
                  needs: Mapping[str, BuildNeeds], store: VerdictStore, tree_id: str,
                  use_cache: bool = True, jobs: int | None = None,
                  log: TextIO = sys.stderr) -> tuple[list[str], dict[str, Check]]:
    """One platform's turn, beside the x86_64 build bt: its
    configuration made (once), the files of needs (rel -> what its
    .config must set) whose needs it meets, and their verdicts
    (check_objects).  None fits when the configuration cannot be made (the
    log says why)."""
    pt = platform_tree(bt, platform)
    try:
        config = configure_platform(pt, platform, jobs)
    except subprocess.CalledProcessError as err:
        print(f"enotty: {platform.label}: configuration failed: {err.stderr}", file=log)
        return [], {}
    files = [rel for rel, need in needs.items() if need.met_by(config)]
    if not files:
        return [], {}
    return files, check_objects(pt, platform, patched, files, store, tree_id, use_cache, jobs, log)
