"""Build each touched .c file's object on the first platform that compiles
it, as the kernel test robot would: x86_64 allmodconfig, then, for a file
it does not compile, the cross platforms (m68k, sparc, powerpc, arm, mips,
s390, 32-bit x86, UML) with Debian's cross compilers.

build() is the verify stage's entry.  Every platform is one configuration
(a config target of the tree, allmodconfig or a board's defconfig, plus a
few settings; kernel.build.relaxed() turns WERROR, debug info, the uapi
header install and the sanitizers off) prepared once, out of tree, in
tree.cache_dir()/build/<name>-<version>/ (configure: seconds; prepare: a
minute, the first time a patch needs the platform, or ahead of it while
x86_64 builds: _Ahead).  They all build the same
source: allmodconfig-<version>.src/, an enotty.kernel.worktree copy of the
tree that gets the patched files by rename, so the pristine tree's inodes
are never written.  Each platform's files go through one entry,
enotty.kernel.build.check_objects, with the verify stage's verdict store
(verify.ResultCache), so a rerun over unchanged patches runs no make.

Selection: x86_64 allmodconfig is given every file.  A file it does not
compile goes to the first cross platform whose .config meets the file's
needs (kernel.build.BuildNeeds, which the judge stage read from the
Makefiles with kernel.kconfig.build_needs);
kbuild then says whether that configuration compiles the object
(kernel.build.enabled_sources), or the file goes on to the next such
platform.  A file no
platform compiles is "not built", which is not a failure.  A file that
fails to build is built once more without the patch: when that fails too,
the failure is the tree's, not the patch's.

A file that no configuration of any architecture can build (its symbol
depends on BROKEN, or on a symbol no Kconfig defines) is said by
kernel.kconfig.Unbuildable: the judge stage leaves such a site out instead
of sending a patch nobody can compile.
"""
from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Mapping, TextIO

from .. import packages
from ..kernel import build as kbuild
from ..kernel.build import (ALLMODCONFIG, ANY_CONFIG, FAILED, NOT_BUILT, OK, SKIPPED, BuildNeeds, BuildTree, Check,
                            Platform)
from ..render import companions
from ..requests import KernelTree
from . import verify

X86_64 = ALLMODCONFIG.name    # the platform a verdict cached without one was built on


# Tried in this order; the first whose configuration builds a file wins.
# allmodconfig where the architecture's allmodconfig reaches its platform
# drivers; a board's defconfig where a choice (ARM's footbridge against
# multi_v7, PowerMac 32-bit, SiByte) keeps allmodconfig away from them.
PLATFORMS: tuple[Platform, ...] = (
    # The host gcc compiles -m32 kernel objects; gcc-multilib is not
    # needed (and Debian 12's conflicts with every cross gcc).
    Platform("i386", "i386", "x86", "", "gcc", "allmodconfig"),
    Platform("um", "um", "um", "", "gcc", "defconfig", ("MMAPPER=m",)),
    # FB_ATARI is a bool that needs FB=y, which allmodconfig makes m (and
    # olddefconfig leaves a newly visible bool off)
    Platform("m68k", "m68k", "m68k", "m68k-linux-gnu-", "gcc-m68k-linux-gnu", "allmodconfig",
             ("FB=y", "FB_ATARI=y")),
    Platform("sparc64", "sparc64", "sparc", "sparc64-linux-gnu-", "gcc-sparc64-linux-gnu", "allmodconfig"),
    # the SBUS framebuffers are bools that need FB=y (sbuslib.c): sparc64's
    # own defconfig builds them in
    Platform("sparc64 defconfig", "sparc64", "sparc", "sparc64-linux-gnu-", "gcc-sparc64-linux-gnu",
             "sparc64_defconfig"),
    Platform("sparc32", "sparc", "sparc", "sparc64-linux-gnu-", "gcc-sparc64-linux-gnu", "sparc32_defconfig",
             ("SUN_OPENPROMIO=m", "TADPOLE_TS102_UCTRL=m")),
    Platform("powerpc64", "powerpc", "powerpc", "powerpc64le-linux-gnu-", "gcc-powerpc64le-linux-gnu",
             "allmodconfig"),
    Platform("powerpc32 pmac32", "powerpc", "powerpc", "powerpc-linux-gnu-", "gcc-powerpc-linux-gnu",
             "pmac32_defconfig", ("ANSLCD=m",)),
    Platform("powerpc32 mpc512x", "powerpc", "powerpc", "powerpc-linux-gnu-", "gcc-powerpc-linux-gnu",
             "mpc512x_defconfig"),
    Platform("arm footbridge", "arm", "arm", "arm-linux-gnueabihf-", "gcc-arm-linux-gnueabihf",
             "footbridge_defconfig"),
    Platform("arm multi_v5", "arm", "arm", "arm-linux-gnueabihf-", "gcc-arm-linux-gnueabihf",
             "multi_v5_defconfig", ("ATAGS=y", "ARCH_OMAP1=y", "ARCH_PXA=y", "FB=y", "FB_OMAP=m", "FB_PXA=m",
                                    "PXA3XX_GCU=m")),
    Platform("arm omap2plus", "arm", "arm", "arm-linux-gnueabihf-", "gcc-arm-linux-gnueabihf",
             "omap2plus_defconfig", ("DRM_OMAP=n", "FB_OMAP2=m")),
    Platform("mips sb1250", "mips", "mips", "mips-linux-gnu-", "gcc-mips-linux-gnu", "sb1250_swarm_defconfig",
             ("SIBYTE_TBPROF=m",)),
    Platform("s390", "s390", "s390", "s390x-linux-gnu-", "gcc-s390x-linux-gnu", "allmodconfig"),
    # SuperH boards build their machine code only in their own defconfig
    # (arch/sh/boards/mach-landisk: gio.c).
    Platform("sh landisk", "sh", "sh", "sh4-linux-gnu-", "gcc-sh4-linux-gnu", "landisk_defconfig"),
)

# ---------------------------------------------------------------- prepare

def compiler_missing(platforms: list[Platform]) -> list[str]:
    """The Debian packages of these platforms' compilers that are not installed."""
    return packages.missing(sorted({p.package for p in platforms}))


def ensure_compilers(platforms: list[Platform], log: TextIO = sys.stderr) -> None:
    """Install the cross compilers these platforms need (root), or raise
    UsageError with the apt-get line (packages.ensure_packages)."""
    packages.ensure_packages(sorted({p.package for p in platforms}),
                             "cross compilers for " + ", ".join(sorted({p.name for p in platforms})),
                             log)


# ---------------------------------------------------------------- build

def candidates(rel: str) -> list[Platform]:
    """The platforms that may build rel: a file under arch/<srcarch>/ only
    on its own architecture's platforms."""
    parts = rel.split("/")
    if parts[0] == "arch" and len(parts) > 2:
        return [p for p in PLATFORMS if p.srcarch == parts[1]]
    return list(PLATFORMS)


def build(kernel: KernelTree, patched: dict[str, bytes], needs: Mapping[str, BuildNeeds],
          store: verify.ResultCache, log: TextIO = sys.stderr, jobs: int | None = None,
          cross: bool = True) -> dict[str, Check]:
    """Per touched file: ok, failed (with the compiler's first error),
    not built, or skipped (a header no .c file beside it includes, no
    kernel tree); each built file's verdict names its platform.  A
    header is built through the .c files beside it that include it
    (header_users(): 7.2's tun_vnet.h through tun.c and tap.c), with
    the patched header in place; its verdict is theirs (through_users())."""
    users = header_users(kernel.root, patched)
    pristine = {rel: (kernel.root / rel).read_bytes() for found in users.values() for rel in found
                if rel not in patched}
    out = _build_files(kernel, {**patched, **pristine}, needs, store, log, jobs, cross)
    for header, found in users.items():
        out[header] = through_users(found, out)
    return {rel: out[rel] for rel in patched}


class EarlyPrepare:
    """x86_64 allmodconfig configured and prepared in a thread of its own
    from the end of the scan on: the judge, split and render stages that
    come before the builds use one core, and a cold prepare takes the
    other for half a minute.  The worktree's lock is held meanwhile, so
    build() starts once it is done; a failure is only logged (build()
    meets it again and says so)."""

    def __init__(self, kernel: KernelTree, log: TextIO = sys.stderr) -> None:
        self.kernel, self.log = kernel, log
        self.thread = threading.Thread(target=self._run, name="enotty-early-prepare", daemon=True)
        self.started = threading.Event()
        self.thread.start()
        self.started.wait()

    def _run(self) -> None:
        if kbuild.can_build(self.kernel.root):
            self.started.set()
            return
        bt = kbuild.build_tree(self.kernel.root)
        with bt.work.locked():
            self.started.set()
            try:
                # the compilers may still come from the apt run begun before the scan
                packages.ensure_packages(list(packages.NEEDS["patches"]), "make patches' compile test",
                                         self.log)
                bt.work.ensure()
                kbuild.configure_platform(bt, ALLMODCONFIG)
                kbuild.prepare_platform(bt, ALLMODCONFIG, None, self.log)
            except Exception as err:    # ahead of time only: build() decides
                self.log.write(f"enotty: preparing x86_64 ahead stopped: {err}\n")
                return
        # the media kselftest depends on the tree alone: its build (the
        # tree's `make headers`, then the test) fills the verdict cache
        # that the verify stage's companion check reads
        if companions.takes_selftest(self.kernel.root):
            try:
                verify.check_selftest(self.kernel, companions.selftest_diff(self.kernel.root), self.log)
            except Exception as err:
                self.log.write(f"enotty: building the media kselftest ahead stopped: {err}\n")

    def join(self) -> None:
        self.thread.join()


def header_users(root: Path, patched: Mapping[str, bytes]) -> dict[str, list[str]]:
    """patched header -> the .c files of its folder that #include "it"."""
    out = {}
    for rel in sorted(patched):
        if rel.endswith(".c"):
            continue
        folder = Path(rel).parent
        include = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"%s"' % re.escape(Path(rel).name.encode()), re.M)
        found = [str(folder / p.name) for p in sorted((root / folder).glob("*.c")) if include.search(p.read_bytes())]
        if found:
            out[rel] = found
    return out


def through_users(users: list[str], checks: Mapping[str, Check]) -> Check:
    """A header's verdict from its users': ok when one built (named), else
    the first failure, else not built."""
    got = [(rel, checks[rel]) for rel in users if rel in checks]
    for status in (OK, FAILED):
        hits = [(rel, c) for rel, c in got if c.status == status]
        if hits and status == OK:
            return Check(OK, "built through " + ", ".join(rel for rel, _ in hits), hits[0][1].arch)
        if hits:
            rel, c = hits[0]
            return Check(FAILED, f"{rel}: {c.detail}", c.arch)
    return Check(NOT_BUILT, "none of " + ", ".join(users) + " was built"
                 + "".join(f"; {rel}: {c.cell()}" for rel, c in got[:1]))


def _build_files(kernel: KernelTree, patched: dict[str, bytes], needs: Mapping[str, BuildNeeds],
                 store: verify.ResultCache, log: TextIO = sys.stderr, jobs: int | None = None,
                 cross: bool = True) -> dict[str, Check]:
    """build() of the .c files of patched; headers skipped.

    One pass over the platforms in order: x86_64 allmodconfig, given every
    file, then (not with cross=False) PLATFORMS.  A cross platform is
    configured only when a file still unbuilt may go there (needs: rel ->
    BuildNeeds, read by the judge stage), and builds the files whose needs
    its configuration meets; kbuild then decides (enabled_sources).  Meanwhile
    _Ahead prepares the platforms likely needed.
    jobs: make's -j (default: the CPUs we may use).  Verdicts come from
    store (its tree_id names the tree) when their key
    (kernel.build.object_keys) is there; a tree without use_cache builds
    every file again (the verdicts are still stored)."""
    why = kbuild.can_build(kernel.root)
    if why:
        return {rel: Check(SKIPPED, why) for rel in patched}
    bt = kbuild.build_tree(kernel.root)
    out = {r: Check(SKIPPED, "header, built through its users") for r in patched if not r.endswith(".c")}
    pending = sorted(rel for rel in patched if rel.endswith(".c"))
    tried: dict[str, list[str]] = {rel: [] for rel in pending}
    x86: dict[str, Check] = {}
    # One run at a time uses the shared copy and build folders.
    with bt.work.locked(), _Ahead(bt, patched, needs, store, kernel.use_cache, log) as ahead:
        kbuild.install(bt, patched)
        if cross:
            ahead.start(pending)
        for platform in (ALLMODCONFIG,) + (PLATFORMS if cross else ()):
            # every file goes to x86_64 allmodconfig; to a cross platform, a
            # file with symbols to look for, on its own architecture when it
            # lives under arch/
            # a file under arch/ whose symbols are not known (landisk's gio.c:
            # obj-y in a folder arch/sh/Makefile enters by machdir-$(CONFIG_...))
            # is tried on its own architecture's platforms as it is
            waiting = {rel: ANY_CONFIG for rel in pending} if platform == ALLMODCONFIG else {
                rel: needs[rel] if rel in needs and needs[rel].symbols else ANY_CONFIG for rel in pending
                if platform in candidates(rel)
                and ((rel in needs and needs[rel].symbols) or rel.startswith("arch/"))}
            if not waiting:
                continue
            if platform != ALLMODCONFIG:
                ensure_compilers([platform], log)
            files, got = kbuild.check_fitting(bt, platform, patched, waiting, store, store.tree_id,
                                              kernel.use_cache, jobs, log)
            for rel in files:
                chk = got.get(rel)
                if platform == ALLMODCONFIG and chk is not None:
                    x86[rel] = chk
                elif platform != ALLMODCONFIG:
                    tried[rel].append(platform.name)
                if chk is not None and chk.status != NOT_BUILT:
                    # verdicts cached before the platform was recorded were all x86_64's
                    out[rel] = Check(chk.status, chk.detail, chk.arch or X86_64)
            pending = [rel for rel in pending if rel not in out]
        for rel in [r for r in pending if r in needs and needs[r].forced]:
            chk = _build_forced(bt, patched, rel, needs[rel].forced, store, kernel.use_cache, jobs, log)
            if chk.status != NOT_BUILT:
                out[rel] = chk
        pending = [rel for rel in pending if rel not in out]
    for rel in pending:
        need = needs.get(rel, BuildNeeds((), False))
        want = ("no symbol known" if not need.symbols else " ".join(need.symbols) if need.all_needed
                else "any of " + " ".join(need.symbols))
        why = f" ({', '.join(tried[rel])} do not compile it)" if tried[rel] else ""
        out[rel] = Check(NOT_BUILT, f"no platform here sets {want}{why}") if cross else x86.get(
            rel, Check(NOT_BUILT, "x86_64 allmodconfig could not be prepared"))
    return out


def _build_forced(bt: BuildTree, patched: dict[str, bytes], rel: str, forced: tuple[str, ...],
                  store: verify.ResultCache, use_cache: bool, jobs: int | None, log: TextIO) -> Check:
    """rel, a C file no configuration here compiles only because its
    symbols need a Rust toolchain (BuildNeeds.forced), built in x86_64
    allmodconfig with those symbols given to make: kbuild then descends
    to it, and the C code, which tests none of them, compiles as in a
    configuration that sets them.  The verdict names the make variables."""
    words = tuple(f"{s}=y" for s in forced)
    ft = dataclasses.replace(bt, make_args=bt.make_args + words)
    got = kbuild.check_objects(ft, ALLMODCONFIG, patched, [rel], store, " ".join((store.tree_id,) + words),
                               use_cache, jobs, log)
    chk = got.get(rel, Check(NOT_BUILT, "x86_64 allmodconfig could not be prepared"))
    return Check(chk.status, chk.detail, f"{X86_64} allmodconfig{FORCED}{' '.join(words)}")


# How a verdict's platform (Check.arch) says the symbols were given to make.
FORCED = " + make "


class _Ahead:
    """While x86_64 allmodconfig builds, the cross platforms that the files
    it will not build are likely to go to, configured and prepared: a file
    whose needs x86_64's .config does not meet goes, in this guess, to the
    first platform whose .config does.  A cold platform spends most of its
    time in `make prepare`, one after another, with a core idle in each.
    The platforms are configured in order by one thread and prepared two at
    a time at -j1 (x86_64's build has -j of its own).  Only a guess:
    build() decides and reports every failure; the guess stops at a
    platform whose compiler is not installed (build() installs it or says
    how), skips a platform whose files' verdicts are all cached, and on
    leaving (^C too) the prepares not yet begun are dropped."""

    def __init__(self, bt: BuildTree, patched: dict[str, bytes], needs: Mapping[str, BuildNeeds],
                 store: verify.ResultCache, use_cache: bool, log: TextIO) -> None:
        self.bt, self.patched, self.needs, self.store, self.use_cache, self.log = \
            bt, patched, needs, store, use_cache, log
        self.stop = threading.Event()
        self.guessing = ThreadPoolExecutor(max_workers=1)
        self.preparing = ThreadPoolExecutor(max_workers=2)

    def __enter__(self) -> _Ahead:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.guessing.shutdown(wait=True, cancel_futures=True)
        self.preparing.shutdown(wait=True, cancel_futures=True)

    def start(self, files: list[str]) -> None:
        """The guess begins once x86_64 is configured (seconds; its cold
        prepare, the longest step, then runs beside the guess)."""
        try:
            x86 = kbuild.configure_platform(self.bt, ALLMODCONFIG)
        except subprocess.CalledProcessError:
            return     # build() says why
        left = [rel for rel in files
                if rel in self.needs and self.needs[rel].symbols and not self.needs[rel].met_by(x86)]
        if left:
            self.guessing.submit(self._guess, left)

    def _guess(self, left: list[str]) -> None:
        try:
            for platform in PLATFORMS:
                mine = [rel for rel in left if platform in candidates(rel)]
                if self.stop.is_set() or not left:
                    return
                if not mine:
                    continue
                if compiler_missing([platform]):
                    return
                pt = kbuild.platform_tree(self.bt, platform)
                config = kbuild.configure_platform(pt, platform, 1)
                fit = [rel for rel in mine if self.needs[rel].met_by(config)]
                left = [rel for rel in left if rel not in fit]
                if fit and not self._cached(pt, fit):
                    self.preparing.submit(self._prepare, pt, platform)
        except Exception as err:    # a guess: say it stopped, build() goes on
            self.log.write(f"enotty: preparing ahead stopped: {err}\n")

    def _cached(self, pt: BuildTree, fit: list[str]) -> bool:
        """Every verdict of fit on this platform is in the store already."""
        if not self.use_cache:
            return False
        keys = kbuild.object_keys(pt, {r: d for r, d in self.patched.items() if r in fit or not r.endswith(".c")},
                                  self.store, self.store.tree_id)
        return all(self.store.get("build", keys[rel]) is not None for rel in fit)

    def _prepare(self, pt: BuildTree, platform: Platform) -> None:
        if self.stop.is_set():
            return
        try:
            kbuild.prepare_platform(pt, platform, 1, self.log)
        except (subprocess.CalledProcessError, OSError):
            pass      # build() meets the failure again and reports it


def config_name(name: str) -> str:
    """A verdict's platform (Check.arch) as the configuration it built:
    'x86_64 allmodconfig', 'm68k allmodconfig + FB=y FB_ATARI=y' (a
    reviewer: m68k allmodconfig alone does not compile atafb.c)."""
    for p in PLATFORMS:
        if p.name == name:
            return p.label
    return f"{name} allmodconfig" if name == "x86_64" else name
