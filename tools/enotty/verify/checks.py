"""The verify stage: each series applied in order in a scratch git
repository (series.format_mails), each mail through checkpatch and
get_maintainer.pl, then the patched files built (verify.build, crossbuild)
and scanned again (the fixpoint)."""
from __future__ import annotations

import dataclasses
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Mapping, TextIO

from ..find import scan
from ..kernel import tree
from ..partition import split
from ..partition.maintainers import recipients
from ..render import companions, series
from ..kernel.worktree import WorkTree
from ..cache import digest
from ..render.drafts import Composed, Draft
from . import verify
from .verify import Check, FAILED, OK, ResultCache, tree_identity
from ..requests import KernelTree, PatchesRequest


@dataclass(frozen=True)
class Verdict:
    """What SUMMARY.md says about one patch."""
    draft: Draft                   # its patch addressed (to, cc) once it applied
    apply: verify.Check
    checkpatch: verify.Check = verify.Check(verify.SKIPPED)
    build: Mapping[str, verify.Check] = field(default_factory=dict)
    fixpoint: Mapping[str, verify.Check] = field(default_factory=dict)
    mail: series.Mail | None = None   # as checked (OUT/rejected/ keeps it when rejected)

    @property
    def patch(self) -> series.Patch:
        return self.draft.patch

    @property
    def rejected(self) -> str:
        """'' when the patch goes out, else why not."""
        if self.apply.status != verify.OK:
            return "does not apply: " + self.apply.detail
        if self.checkpatch.status == verify.FAILED:
            return "checkpatch: " + self.checkpatch.detail
        bad = [f"{rel}" + (f" ({c.arch})" if c.arch else "") + f": {c.detail}"
               for rel, c in sorted(self.build.items()) if c.status == verify.FAILED]
        if bad:
            return "build: " + "; ".join(bad)
        return ""

    def build_cell(self) -> str:
        """Counts per verdict and platform: `1 ok (x86_64), 1 ok (m68k)`."""
        counts: dict[tuple[str, str], int] = {}
        for chk in self.build.values():
            counts[(chk.status, chk.arch)] = counts.get((chk.status, chk.arch), 0) + 1
        return ", ".join(f"{n} {s}" + (f" ({a})" if a else "") for (s, a), n in sorted(counts.items())) or "-"

    def fixpoint_cell(self) -> str:
        bad = [f"{r}: {c.detail}" for r, c in sorted(self.fixpoint.items()) if c.status != verify.OK]
        return "; ".join(bad) if bad else ("ok" if self.fixpoint else "-")


@dataclass(frozen=True)
class Checked:
    composed: Composed
    verdicts: tuple[tuple[Verdict, ...], ...]   # per series plan, per patch

    @property
    def runs(self) -> Iterator[tuple[split.SeriesPlan, tuple[Verdict, ...]]]:
        return zip(self.composed.grouped.plans, self.verdicts)


def check(kernel: KernelTree, req: PatchesRequest, composed: Composed) -> Checked:
    """Each series applied in order to the pristine files, each mail through
    get_maintainer.pl and checkpatch; then the patched files built and
    scanned again (the fixpoint)."""
    applied: list[list[Verdict]] = []
    patched: dict[str, bytes] = {}
    for plan, drafts in zip(composed.grouped.plans, composed.drafts):
        formatted = series.format_mails(kernel, plan, [d.patch for d in drafts], req.identity)
        done = f"enotty: {plan.name}: {series.count(len(drafts), 'patch')} applied and checked"
        patched.update(formatted.files)
        verdicts: list[Verdict] = []
        with tempfile.TemporaryDirectory(prefix="checked-", dir=series.scratch_root()) as tmp:
            for draft, mail, error in zip(drafts, formatted.mails, formatted.errors):
                if mail is None:
                    verdicts.append(Verdict(draft, verify.Check(verify.FAILED, error)))
                    continue
                path = Path(tmp) / mail.name
                path.write_text(mail.text)
                to, cc = recipients(kernel, [path])
                addressed = dataclasses.replace(draft.patch, to=to, cc=cc)
                verdicts.append(Verdict(dataclasses.replace(draft, patch=addressed), verify.Check(verify.OK),
                                        verify.checkpatch(kernel, path), mail=mail))
        applied.append(verdicts)
        print(done, file=sys.stderr)
    build = verify.build(kernel, patched, sys.stderr, jobs=req.scan.jobs) if req.build else {}
    facts = composed.grouped.analysed.scanned.facts
    fix = verify.fixpoint(patched, lambda folder: scan.rescan(folder, req.scan, facts))
    skipped = verify.Check(verify.SKIPPED, "--no-build")
    return Checked(composed, tuple(
        tuple(dataclasses.replace(v, build={r: build.get(r, skipped) for r in v.patch.plan.paths},
                                  fixpoint={r: fix[r] for r in v.patch.plan.paths})
              if v.apply.status == verify.OK else v for v in verdicts)
        for verdicts in applied))


# ---------------------------------------------------------------- the companion patches

@dataclass(frozen=True)
class CompanionVerdict:
    """SUMMARY.md's row of a companion patch: checked like the others."""
    series: str
    filename: str
    files: int
    checkpatch: Check
    build: Check


def check_rule(kernel: KernelTree) -> Check:
    """The rule as it goes upstream parses: spatch --parse-cocci."""
    text = companions.upstream_rule_text()
    key = ResultCache.key("companion-rule", digest(text.encode()), scan.spatch_binary())
    results = ResultCache()
    if kernel.use_cache and (hit := results.get("companion", key)) is not None:
        return hit
    with tempfile.TemporaryDirectory(prefix="companions-", dir=series.scratch_root()) as tmp:
        path = Path(tmp) / "ioctl_enotty.cocci"
        path.write_text(text)
        res = subprocess.run([scan.spatch_binary(), "--parse-cocci", str(path)],
                             capture_output=True, text=True, check=False, cwd=tmp)
    chk = (Check(OK, "", "spatch --parse-cocci") if res.returncode == 0 else
           Check(FAILED, (res.stderr.strip().splitlines() or ["spatch failed"])[-1],
                        "spatch --parse-cocci"))
    results.put("companion", key, chk)
    return chk


def check_selftest(kernel: KernelTree, log: TextIO = sys.stderr) -> Check:
    """The kselftest patch applied to a copy of the tree builds with the
    kernel's own kselftest make (TARGETS=drivers/media, the tree's `make
    headers`), both the native and the 32-bit binary on x86_64."""
    root = kernel.root
    diff = companions.selftest_diff(root)
    key = ResultCache.key("companion-selftest", tree_identity(root), digest(diff.encode()))
    results = ResultCache()
    if kernel.use_cache and (hit := results.get("companion", key)) is not None:
        return hit
    print("enotty: building the media kselftest with the kernel's kselftest make", file=log)
    with tempfile.TemporaryDirectory(prefix="enotty-companions-", dir=tree.cache_dir()) as tmp:
        patch = Path(tmp) / "selftest.patch"
        patch.write_text(diff)
        copy = WorkTree(root, Path(tmp) / "tree")
        copy.ensure()
        copy.apply([patch])
        out, hdr = Path(tmp) / "out", Path(tmp) / "hdr"
        steps = [["make", "-s", "-C", str(copy.path), f"O={hdr}", "ARCH=x86_64", "headers"],
                 ["make", "-s", "-C", str(copy.path / "tools/testing/selftests"), "TARGETS=drivers/media",
                  f"O={out}", "ARCH=x86", "LDFLAGS=-static", f"KHDR_INCLUDES=-isystem {hdr / 'usr/include'}"]]
        chk = Check(OK, "", "x86_64 kselftest")
        for cmd in steps:
            res = subprocess.run(cmd, capture_output=True, text=True, check=False)
            if res.returncode != 0:
                lines = [l for l in res.stderr.splitlines() if "error" in l] or res.stderr.splitlines() or ["failed"]
                chk = Check(FAILED, lines[0][:200], "x86_64 kselftest")
                break
        else:
            built = {p.name for p in out.rglob("ioctl_errno*") if p.is_file()}
            if "ioctl_errno" not in built:
                chk = Check(FAILED, "no ioctl_errno binary", "x86_64 kselftest")
    results.put("companion", key, chk)
    return chk


def companion_verdicts(kernel: KernelTree, rule: series.Mail | None,
                       media: series.Formatted | None) -> list[CompanionVerdict]:
    """SUMMARY.md's rows of the semantic patch's mail and of the kselftest
    mail among the media series' (checkpatch reads them from a scratch folder)."""
    tests = sorted((m for m in (media.written if media else []) if "-selftests-" in m.name), key=lambda m: m.name)
    built = check_rule(kernel) if rule else None
    test_built = check_selftest(kernel, sys.stderr) if tests else None
    rows = []
    with tempfile.TemporaryDirectory(prefix="companions-", dir=series.scratch_root()) as tmp:
        def checkpatch(mail: series.Mail) -> Check:
            path = Path(tmp) / mail.name
            path.write_text(mail.text)
            return verify.checkpatch(kernel, path)

        if rule and built:
            rows.append(CompanionVerdict(companions.RULE_SERIES, rule.name, 1, checkpatch(rule), built))
        rows += [CompanionVerdict(split.MEDIA_SERIES, mail.name, mail.text.count("\ndiff --git "),
                                  checkpatch(mail), test_built) for mail in tests if test_built]
    return rows
