"""Build the touched files that x86_64 allmodconfig does not compile on a
platform whose configuration does (m68k, sparc, powerpc, arm, mips, s390,
32-bit x86, UML), with Debian's cross compilers, as the kernel test robot
would.

Platforms: PLATFORMS, tried in order.  Each is one configuration (a config
target of the tree, allmodconfig or a board's defconfig, plus a few
settings) prepared once, out of tree, in tree.cache_dir()/build/<name>-<ver>/
(configure: seconds; prepare: a minute or two, the first time a patch needs
the platform).  The source they build is the same hard-link copy of the
tree as the x86_64 build (enotty.kernel.build.BuildTree.src), holding the patched files.
Each platform's files go through the same entry as x86_64's,
enotty.kernel.build.check_objects, with the verify stage's verdict store.

Selection (build_elsewhere()): a file goes to the first platform whose .config sets
every Kconfig symbol its Makefile lines need (kconfig.build_symbols, read
once; kernel.build.check_fitting configures each platform and builds the
files it fits);
kbuild's dry run in that folder then confirms the object is compiled, or
the file goes on to the next such platform.

A file that no configuration of any architecture can build (its symbol
depends on BROKEN, or on a symbol no Kconfig defines) is said by
kernel.kconfig.Unbuildable: the judge stage leaves such a site out instead
of sending a patch nobody can compile.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Mapping, TextIO

from .. import packages
from ..kernel.kconfig import DerivationError, build_symbols
from ..kernel import build as kbuild
from ..kernel.build import NOT_BUILT, BuildTree, Check, Platform


# Tried in this order; the first whose configuration builds a file wins.
# allmodconfig where the architecture's allmodconfig reaches its platform
# drivers; a board's defconfig where a choice (ARM's footbridge against
# multi_v7, PowerMac 32-bit, SiByte) keeps allmodconfig away from them.
PLATFORMS: tuple[Platform, ...] = (
    # The host gcc compiles -m32 kernel objects; gcc-multilib is not
    # needed (and Debian 12's conflicts with every cross gcc).
    Platform("i386", "i386", "x86", "", "gcc", "allmodconfig"),
    Platform("um", "um", "um", "", "gcc", "defconfig", ("MMAPPER=m",)),
    Platform("m68k", "m68k", "m68k", "m68k-linux-gnu-", "gcc-m68k-linux-gnu", "allmodconfig"),
    # FB_ATARI is a bool that needs FB=y, which allmodconfig makes m
    Platform("m68k atari", "m68k", "m68k", "m68k-linux-gnu-", "gcc-m68k-linux-gnu", "atari_defconfig"),
    Platform("sparc64", "sparc64", "sparc", "sparc64-linux-gnu-", "gcc-sparc64-linux-gnu", "allmodconfig"),
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
)

# ---------------------------------------------------------------- selection

def sets_all(config: Mapping[str, str], symbols: list[str]) -> bool:
    return kbuild.fits(config, symbols)


def choose(symbols: list[str], configs: Mapping[str, Mapping[str, str]]) -> str | None:
    """The first platform (configs in PLATFORMS order: name -> .config
    values) that sets every symbol a file's build needs; None if none does."""
    for name, config in configs.items():
        if sets_all(config, symbols):
            return name
    return None


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


_OBJ_LINE = re.compile(r"^obj-\$\((CONFIG_\w+)\)\s*[:+]?=", re.M)


def wanted_symbols(root: Path, rel: str) -> tuple[list[str], bool]:
    """(symbols, all_needed) a platform's .config must set for rel to be
    a candidate: the symbols of the Makefile lines that name its object,
    all of them; when no line names it (an object list in a make
    variable), any one symbol of its folder's obj-$(CONFIG_...) lines, and
    kbuild's dry run decides."""
    try:
        return build_symbols(root, rel, folders=False), True
    except DerivationError:
        pass
    folder = Path(rel).parent
    for name in ("Kbuild", "Makefile"):
        path = root / folder / name
        if path.is_file():
            return sorted(set(_OBJ_LINE.findall(path.read_text(errors="replace")))), False
    return [], False


def build_elsewhere(bt: BuildTree, patched: dict[str, bytes], rels: list[str], store: kbuild.VerdictStore,
                    tree_id: str, use_cache: bool = True, log: TextIO = sys.stderr,
                    jobs: int | None = None) -> dict[str, Check]:
    """Verdicts for the .c files rels that x86_64 allmodconfig does not
    build: each on the first platform whose configuration sets its symbols
    and whose kbuild dry run compiles it (the next such platform when it
    does not), ok / failed / fails without the patch too, with the platform
    named; "not built" when no platform here builds it.  bt is the x86_64
    BuildTree, locked, its copy holding `patched` (the cross builds use the
    same copy).  store keeps the verdicts by key (tree_id names the tree in
    it); use_cache off: every file is built again (the verdicts are still
    stored).

    What each file needs is read once (wanted_symbols); then one pass over
    PLATFORMS in order: a platform is configured only when a file still
    unbuilt may go there, and builds the files its configuration fits."""
    where = {rel: candidates(rel) for rel in rels}
    wanted = {rel: wanted_symbols(bt.root, rel) for rel in rels}
    out: dict[str, Check] = {}
    tried: dict[str, list[str]] = {rel: [] for rel in rels}
    for platform in PLATFORMS:
        waiting = {rel: wanted[rel] for rel in rels
                   if rel not in out and wanted[rel][0] and platform in where[rel]}
        if not waiting:
            continue
        ensure_compilers([platform], log)
        files, got = kbuild.check_fitting(bt, platform, patched, waiting, store, tree_id, use_cache, jobs, log)
        for rel in files:
            tried[rel].append(platform.name)
            if rel in got and got[rel].status != NOT_BUILT:
                out[rel] = got[rel]
    for rel in rels:
        if rel not in out:
            symbols, all_needed = wanted[rel]
            why = f" ({', '.join(tried[rel])} do not compile it)" if tried[rel] else ""
            need = (" ".join(symbols) if all_needed else "any of " + " ".join(symbols)) or "no symbol known"
            out[rel] = Check(NOT_BUILT, f"no platform here sets {need}{why}")
    return out


def config_name(name: str) -> str:
    """A verdict's platform (Check.arch) as a configuration: 'x86_64
    allmodconfig', 'arm footbridge_defconfig'."""
    for p in PLATFORMS:
        if p.name == name:
            return f"{p.arch} {p.base}"
    return f"{name} allmodconfig" if name == "x86_64" else name
