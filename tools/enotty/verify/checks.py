"""The verify stage: each mail the render stage formatted and addressed
through checkpatch, then the patched files built (crossbuild.build) and
scanned again (the fixpoint); once the verdicts are in,
the series as they go out, covered, and the companion patches checked
(outgoing.py).  The result's types are in verdicts.py."""
from __future__ import annotations

import dataclasses
import sys
import tempfile
from pathlib import Path

from ..find import scan
from ..render import series
from ..render.drafts import Composed
from . import crossbuild, outgoing, verify
from .verdicts import Checked, Verdict
from ..requests import KernelTree, PatchesRequest


def check(kernel: KernelTree, req: PatchesRequest, composed: Composed) -> Checked:
    """Each mail through checkpatch (a patch that did not apply keeps
    git's reason), and the companion patches checked; then the patched
    files built and scanned again (the fixpoint); then the series as they
    go out (outgoing.mail_out)."""
    applied: list[list[Verdict]] = []
    patched = dict(composed.patched)
    for plan, drafts in zip(composed.grouped.plans, composed.drafts):
        verdicts: list[Verdict] = []
        with tempfile.TemporaryDirectory(prefix="checked-", dir=series.scratch_root()) as tmp:
            for draft in drafts:
                if draft.mail is None:
                    verdicts.append(Verdict(draft, verify.Check(verify.FAILED, draft.error)))
                    continue
                path = Path(tmp) / draft.mail.name
                path.write_text(draft.mail.text)
                verdicts.append(Verdict(draft, verify.Check(verify.OK), verify.checkpatch(kernel, path)))
        applied.append(verdicts)
        print(f"enotty: {plan.name}: {series.count(len(drafts), 'patch')} applied and checked", file=sys.stderr)
    extra = verify.companion_verdicts(kernel, composed.companions, scan.spatch_binary())
    store = verify.ResultCache(tree_id=verify.tree_identity(kernel.root))
    needs = composed.grouped.analysed.build_needs
    build = crossbuild.build(kernel, patched, needs, store, sys.stderr, req.scan.jobs) if req.build else {}
    sites, failed = scan.rescan(patched, composed.grouped.analysed.scanned.facts, req.scan.jobs, req.scan.timeout)
    fix = verify.fixpoint(patched, sites, {f.file: f.reason for f in failed})
    skipped = verify.Check(verify.SKIPPED, "--no-build")
    checked = Checked(composed, tuple(
        tuple(dataclasses.replace(v, build={r: build.get(r, skipped) for r in v.patch.plan.paths},
                                  fixpoint={r: fix[r] for r in v.patch.plan.paths})
              if v.apply.status == verify.OK else v for v in verdicts)
        for verdicts in applied))
    return outgoing.mail_out(kernel, req.identity, not req.build, checked, extra)
