"""The judge stage: what each site changes, and which sites are left out.

analyse() is the stage patches.command() calls (through analyse_tree(),
which keeps its result for a tree nobody edits): the effects of every site
(effects.py), the sites an in-tree kselftest pins (selftest_search.py),
the files no configuration compiles (kernel.kconfig.Unbuildable), the
handlers converted whole or not at all (handlers.py), and what each file's
build needs of a configuration (kernel.kconfig.build_needs).
"""
from __future__ import annotations

import dataclasses
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from .. import cache
from ..find import scan, sites
from . import effects, handlers, selftest_search
from ..kernel import kconfig, tree
from ..kernel.build import BuildNeeds
from ..requests import KernelTree


@dataclass(frozen=True)
class Analysed:
    """The scan's sites with their effects, and the sites left out and why."""
    scanned: scan.ScanResult
    labelled: tuple[sites.Site, ...]          # every site, effects filled in
    left_out: Mapping[sites.Site, str]        # site -> the reason it is left out
    model: tuple[handlers.Handler, ...] = ()  # handlers.tsv
    # what a configuration must set to compile each file with a site
    # (the verify stage's builds pick their platforms by it)
    build_needs: Mapping[str, BuildNeeds] = dataclasses.field(default_factory=dict)


def analyse_tree(kernel: KernelTree, scanned: scan.ScanResult) -> Analysed:
    """analyse() of kernel's sites; for a tree nobody edits (memo_ok), the
    result is kept by the code, the tree, the sites and what the Rust
    probe reads (cache.StageMemo): it reads the tree's tests, Makefiles and
    Kconfig, 17 s of a warm rerun."""
    if not kernel.memo_ok:
        return analyse(kernel.root, scanned)
    given = "\0".join([repr(scanned.sites), scanned.patch(), repr(scanned.failed), repr(scanned.partial),
                       *(os.environ.get(v, "") for v in ("RUSTC", "BINDGEN", "CC")),
                       str(shutil.which(os.environ.get("RUSTC", "rustc")))])
    memo = cache.StageMemo((kernel.caches or tree.cache_dir()) / "memo", cache.key(
        "analysis", cache.code_digest(), kernel.cache_key, cache.digest(given.encode("utf-8", "surrogateescape"))))
    return dataclasses.replace(memo.get_or_make(lambda: analyse(kernel.root, scanned)), scanned=scanned)


def analyse(root: Path, scanned: scan.ScanResult) -> Analysed:
    """Effects per site in the tree at root; a site whose in-tree test
    expects its old answer is left out (its hunk dropped) with the test
    named, so that no series breaks a kselftest it does not update."""
    found = effects.analyse_sites(scanned.sites, root)
    labelled = [dataclasses.replace(s, effects=found.get(s)) for s in scanned.sites]
    hits = selftest_search.search(labelled, root)
    left_out = {s: selftest_search.left_out_reason(s, h) for s, h in hits.items() if h}
    # the same reasons in one short line each, for handlers.tsv
    held = {s: selftest_search.held_reason(h) for s, h in hits.items() if h}
    # What the tree's Makefiles and Kconfig say of each file: whether any
    # configuration compiles it, and what a configuration must set to
    # compile it (the verify stage picks its build platforms by that).
    files = sorted({s.file for s in scanned.sites})
    nowhere = kconfig.Unbuildable(root)
    unbuildable = {path: why for path in files if (why := nowhere.reason(path))}
    needs = {path: dataclasses.replace(kconfig.build_needs(root, path), forced=nowhere.toolchain_only(path))
             for path in files if path.endswith(".c")}
    # A file no configuration of any architecture compiles gets no patch:
    # nobody could build it, and the kernel test robot would not either.
    # Code no kernel of the tree contains changes nothing user space sees
    # (6.12's CAPI behind DEPRECATED): "no change", as a line no call
    # reaches.  A file this machine alone cannot build (no Rust toolchain)
    # is real code left out.
    dead = {}
    for path, why in unbuildable.items():
        funcs = ", ".join(sorted({s.function + "()" for s in labelled if s.file == path}))
        for site in labelled:
            if site.file == path:
                left_out.setdefault(site, f"{path}: {funcs} left as it is: {why}.")
                if why.startswith(kconfig.NO_CONFIGURATION):
                    dead[site] = why
                else:
                    held.setdefault(site, why)
    # The unit of conversion is the handler: all of its unknown-command
    # exits, or none of them.
    model = handlers.model(labelled, root, held, dead=dead)
    for site, why in handlers.left_out(model).items():
        left_out.setdefault(site, why)
    return Analysed(scanned, tuple(labelled), left_out, tuple(model), needs)
