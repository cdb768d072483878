"""The verify stage: each mail the render stage formatted and addressed
through checkpatch, then the patched files built (crossbuild.build) and
scanned again (the fixpoint); once the verdicts are in,
the series as they go out, covered, and the companion patches checked
(outgoing.py).  The result's types are in verdicts.py."""
from __future__ import annotations

import dataclasses
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .. import packages
from ..find import scan
from ..render import rule_reach, series
from ..render.companions import UPSTREAM_RULE
from ..render.drafts import Composed, Draft
from . import crossbuild, outgoing, verify
from .verdicts import Checked, Verdict
from ..requests import KernelTree, PatchesRequest


def check(kernel: KernelTree, req: PatchesRequest, composed: Composed) -> Checked:
    """Each mail through checkpatch (a patch that did not apply keeps
    git's reason), the companion patches checked, the patched files built
    and scanned again (the fixpoint); once all are in, the series as they
    go out (outgoing.mail_out).

    Only the builds use both cores all the time: checkpatch (perl), the
    companions' checks and the rescan run beside them, in req.scan.jobs
    threads (a cold run spends minutes in each)."""
    patched = dict(composed.patched)
    facts = composed.grouped.analysed.scanned.facts
    store = verify.ResultCache(tree_id=kernel.cache_key)
    pool = ThreadPoolExecutor(max_workers=max(1, req.scan.jobs))
    with tempfile.TemporaryDirectory(prefix="checked-", dir=series.scratch_root()) as tmp:
        try:
            pending = [[pool.submit(_checkpatched, kernel, draft, Path(tmp) / str(n)) for draft in drafts]
                       for n, drafts in enumerate(composed.drafts)]
            # the compilers come from the apt run begun before the scan
            # (packages.start_background) on a fresh machine
            packages.ensure_packages(list(packages.NEEDS["patches"]), "make patches' compile test")
            companions = pool.submit(verify.companion_verdicts, kernel, composed.companions,
                                     scan.spatch_binary(), req.scan.jobs)
            rescanned = pool.submit(scan.rescan, patched, facts, req.scan.jobs, req.scan.timeout)
            # the cover letters' count of what the upstream rule reports,
            # measured now beside the builds (outgoing.mail_out reads it)
            reach = pool.submit(rule_reach.report_lines, kernel.root,
                                sorted({s.file for plan in composed.grouped.plans
                                        for p in plan.behavioural for s in p.sites}),
                                UPSTREAM_RULE, kernel.use_cache)
            build = crossbuild.build(kernel, patched, composed.grouped.analysed.build_needs, store, sys.stderr,
                                     req.scan.jobs) if req.build else {}
            applied = [[f.result() for f in futures] for futures in pending]
            extra = companions.result()
            sites, failed = rescanned.result()
            reach.result()
        finally:
            # ^C, kill(1) or a failed check: what has not begun is dropped
            pool.shutdown(wait=True, cancel_futures=True)
    for plan, drafts in zip(composed.grouped.plans, composed.drafts):
        print(f"enotty: {plan.name}: {series.count(len(drafts), 'patch')} applied and checked", file=sys.stderr)
    fix = verify.fixpoint(patched, sites, {f.file: f.reason for f in failed})
    skipped = verify.Check(verify.SKIPPED, "--no-build")
    checked = Checked(composed, tuple(
        tuple(dataclasses.replace(v, build={r: build.get(r, skipped) for r in v.patch.plan.paths},
                                  fixpoint={r: fix[r] for r in v.patch.plan.paths})
              if v.apply.status == verify.OK else v for v in verdicts)
        for verdicts in applied))
    return outgoing.mail_out(kernel, req.identity, not req.build, checked, extra)


def _checkpatched(kernel: KernelTree, draft: Draft, folder: Path) -> Verdict:
    """A draft that applied, through checkpatch (its mail written into
    folder, one per series: two series may name a mail alike); one that did not, failed with git's reason."""
    if draft.mail is None:
        return Verdict(draft, verify.Check(verify.FAILED, draft.error))
    folder.mkdir(exist_ok=True)
    path = folder / draft.mail.name
    path.write_text(draft.mail.text)
    return Verdict(draft, verify.Check(verify.OK), verify.checkpatch(kernel, path))
