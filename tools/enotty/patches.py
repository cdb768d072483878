"""`enotty patches`: scan, split, verify and write mail-ready series into OUT.

command() is the pipeline, one stage a line, each given the tree object
and the request and returning a frozen result for the next; each stage's
code lives in the subpackage named in brackets:
scan the tree (find/) -> analyse: effects, sites left out, handlers
(judge/) -> group: series per subsystem, a patch per driver (partition/)
-> compose: every commit message, once (render/) -> check: apply in order
in a scratch git repository, checkpatch, get_maintainer.pl, the build and
the fixpoint (verify/) -> write: the mails formatted in memory, then OUT
written atomically (write/).

A patch that fails to apply, to build or checkpatch is not part of its
series: it is numbered out, written to OUT/rejected/SERIES/ with its first
numbering, and its reason is in SUMMARY.md; the mailout never sees it.
A fixpoint miss (the rules still match after the patch) is reported only:
the patch is still right, just not complete.
"""
from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import shlex
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Mapping, Sequence

from . import console
from .find import interfaces, scan, sites
from .judge import effects, handlers, selftest_search
from .kernel import tree
from .partition import prefixes, split
from .render import cleanup, companions, messages, series
from .verify import crossbuild, verify
from .write import output
from .errors import UsageError
from .partition.maintainers import Maintainers, recipients
from .requests import KernelTree, PatchesRequest, ScanRequest

RUN_RECORD = "run.json"


def canonical_command(req: PatchesRequest) -> str:
    """The make line that reproduces the output (no OUT or SIGNOFF: they do
    not change the content beyond the identity, which the files show)."""
    words = ["make", "patches"]
    if req.scan.tree.kdir:
        words.append(f"KDIR={req.scan.tree.kdir}")
    if req.scan.subdir:
        words.append(f"M={req.scan.subdir}")
    if not req.build:
        words.append("BUILD=0")
    if req.cleanups:
        words.append("CLEANUP=1")
    if not req.scan.across_files:
        words.append("FACTS=0")
    return " ".join(shlex.quote(w) for w in words)


def run_record(req: PatchesRequest) -> str:
    """run.json: how the output was made, for verify-generated to repeat."""
    record = {
        "command": canonical_command(req),
        "kdir": req.scan.tree.kdir,
        "subdir": req.scan.subdir,
        "version": req.scan.tree.version,
        "build": req.build,
        "cleanups": req.cleanups,
        "facts": req.scan.across_files,
        "identity": str(req.identity),
    }
    return json.dumps(record, indent=2, sort_keys=True) + "\n"


# ---------------------------------------------------------------- the pipeline

def command(req: PatchesRequest) -> int:
    """Scan, analyse, split, compose, verify and write the series of one
    request into req.out: one stage after the other, each given the tree
    and the request and handing the next one a typed result."""
    started = time.monotonic()
    kernel = _checked_tree(req)
    with _sigterm_as_interrupt():
        scanned = console.scan_tree(req.scan)
        analysed = analyse(kernel, req, scanned)
        grouped = group(kernel, req, analysed)
        composed = compose(kernel, req, grouped)
        checked = check(kernel, req, composed)
        written = write(kernel, req, checked)
    print(f"enotty: wrote {req.out}: {written.counts()}; {time.monotonic() - started:.0f} s", file=sys.stderr)
    return 0


def _checked_tree(req: PatchesRequest) -> KernelTree:
    """The request's tree, once it and OUT are known to be usable."""
    if not req.scan.subdir and not req.scan.tree.is_kernel:
        raise UsageError(f"KDIR {req.scan.tree.root} is not a kernel tree (no MAINTAINERS or Makefile);"
                         " name a folder with --subdir (M=) to group series by path")
    output.check_destination(req.out)
    return req.scan.tree


@contextlib.contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """kill(1) must clean up like ^C: spatch and make children ended,
    scratch folders removed, OUT left as it was."""
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


# ---------------------------------------------------------------- analyse

@dataclass(frozen=True)
class Analysed:
    """The scan's changes, with effects, minus the sites left out and why."""
    scanned: scan.ScanResult
    changes: tuple[split.FileChange, ...]
    labelled: tuple[sites.Site, ...]          # every site, effects filled in
    left_out: Mapping[sites.Site, str]        # site -> the reason it is left out
    model: tuple[handlers.Handler, ...] = ()  # handlers.tsv


def analyse(kernel: KernelTree, req: PatchesRequest, scanned: scan.ScanResult) -> Analysed:
    """Effects per site; a site whose in-tree test expects its old answer
    is left out (its hunk dropped) with the test named, so that no series
    breaks a kselftest it does not update."""
    root = kernel.root
    found = effects.analyse_sites(scanned.sites, root)
    labelled = [dataclasses.replace(s, effects=found.get(s)) for s in scanned.sites]
    hits = selftest_search.search(labelled, root)
    left_out = {s: selftest_search.left_out_reason(s, h) for s, h in hits.items() if h}
    _leave_out_unbuildable(root, labelled, left_out)
    # The unit of conversion is the handler: all of its unknown-command
    # exits, or none of them.
    model = handlers.model(labelled, root, left_out)
    for site, why in handlers.left_out(model).items():
        left_out.setdefault(site, why)
    return Analysed(scanned, tuple(_kept_changes(scanned, labelled, left_out)), tuple(labelled),
                    left_out, tuple(model))


def _leave_out_unbuildable(root: Path, labelled: list[sites.Site], left_out: dict[sites.Site, str]) -> None:
    """A file no configuration of any architecture compiles gets no patch:
    nobody could build it, and the kernel test robot would not either."""
    nowhere = crossbuild.Unbuildable(root)
    for path in sorted({s.file for s in labelled}):
        why = nowhere.reason(path)
        if why:
            funcs = ", ".join(sorted({s.function + "()" for s in labelled if s.file == path}))
            for site in labelled:
                if site.file == path and site not in left_out:
                    left_out[site] = (f"{path}: {funcs} left as it is: no configuration of any"
                                      f" architecture compiles it ({why}).")


def _kept_changes(scanned: scan.ScanResult, labelled: list[sites.Site],
                  left_out: Mapping[sites.Site, str]) -> list[split.FileChange]:
    """Each file's diff without the hunks of the sites left out."""
    by_file: dict[str, list[sites.Site]] = {}
    for site in labelled:
        by_file.setdefault(site.file, []).append(site)
    changes = []
    for path in sorted(scanned.diffs):
        keep = tuple(s for s in by_file.get(path, ()) if s not in left_out)
        diff = scanned.diffs[path]
        dropped = {s.line for s in by_file.get(path, ()) if s in left_out}
        if dropped:
            diff = split.split_hunks(diff, dropped)[0] if keep else ""
        if diff:
            changes.append(split.FileChange(path, diff, keep))
    return changes


# ---------------------------------------------------------------- split

@dataclass(frozen=True)
class Grouped:
    """The changes as series: one per subsystem, a patch per driver."""
    analysed: Analysed
    plans: tuple[split.SeriesPlan, ...]
    left_cleanups: tuple[split.FileChange, ...]   # leaf cleanups CLEANUP=1 would add
    has_maintainers: bool                          # split by MAINTAINERS, not by path


def group(kernel: KernelTree, req: PatchesRequest, analysed: Analysed) -> Grouped:
    maint = Maintainers.load(kernel.root)
    changes = list(analysed.changes)
    plans = split.plan(changes, maint, kernel.root, cleanups=req.cleanups)
    left_cleanups = [] if req.cleanups else split.cleanup_changes(changes)
    return Grouped(analysed, tuple(plans), tuple(left_cleanups), maint is not None)


# ---------------------------------------------------------------- compose

@dataclass(frozen=True)
class Draft:
    """One patch as composed: its message is final (the QEMU line included)."""
    patch: series.Patch
    prefix: str               # its subject prefix (`watchdog: softdog:`)
    tested: bool = False      # the message says what the QEMU audit measured
    measured: bool = False    # audit rows name it (a cleanup: measured, no line)


@dataclass(frozen=True)
class Composed:
    grouped: Grouped
    drafts: tuple[tuple[Draft, ...], ...]   # per series plan, per patch
    audit: tuple[Mapping[str, str], ...] | None   # audit.tsv's rows; None without an audit


def compose(kernel: KernelTree, req: PatchesRequest, grouped: Grouped) -> Composed:
    """Every patch's subject and commit message, built once."""
    audit = read_audit(req.audit_from)
    git = prefixes.is_git_checkout(kernel.root)
    drafts = []
    for plan in grouped.plans:
        raw = [prefixes.patch_prefix(kernel.root, pp.paths, pp.section, git=git) for pp in plan.patches]
        names = prefixes.distinct_prefixes(raw, [pp.driver for pp in plan.patches])
        drafts.append(tuple(_draft(req, grouped.analysed, plan, pp, prefix, audit)
                            for pp, prefix in zip(plan.patches, names)))
    return Composed(grouped, tuple(drafts), None if audit is None else tuple(audit))


def _draft(req: PatchesRequest, analysed: Analysed, plan: split.SeriesPlan, pp: split.PatchPlan,
           prefix: str, audit: list[dict[str, str]] | None) -> Draft:
    signoff = str(req.identity)
    if pp.cleanup:
        msg = cleanup.commit_message(prefix, pp.sites, signoff, alone=len(plan.patches) == 1)
        subject = msg.split("\n", 1)[0]
        mine = _audit_rows(audit or [], plan.name, series.mail_name(1, subject))
        return Draft(series.Patch(pp, subject, msg), prefix, measured=bool(mine))
    subject = messages.subject(prefix, pp.sites)
    mine = _audit_rows(audit or [], plan.name, series.mail_name(1, subject))
    # the rows name the patch as the audit did (its number may differ)
    tested = messages.tested_line(mine, mine[0]["patch"]) if mine else ""
    msg = messages.commit_message(subject, pp.sites, interfaces.by_name(), sorted({s.rule for s in pp.sites}), signoff,
                                  tested=tested, docs=[d.path for d in pp.docs],
                                  own_type_only=bool(tested) and messages.only_own_type_changed(mine),
                                  kept=handlers.kept_siblings(pp.sites, analysed.model))
    return Draft(series.Patch(pp, subject, msg), prefix, tested=bool(tested), measured=bool(mine))


def read_audit(folder: Path | None) -> list[dict[str, str]] | None:
    """audit.tsv's rows from an earlier output folder; None when there is none."""
    path = folder / "audit.tsv" if folder else None
    if not path or not path.is_file():
        return None
    with open(path) as fh:
        return messages.read_audit(fh)


def _audit_rows(rows: list[dict[str, str]], series_name: str, filename: str) -> list[dict[str, str]]:
    """The rows of one patch; the number in its file name may have moved."""
    stem = filename.split("-", 1)[1] if "-" in filename else filename
    out: list[dict[str, str]] = []
    moved: list[dict[str, str]] = []
    for r in rows:
        ser, _, name = r["patch"].rpartition("/")
        if name.split("-", 1)[-1] == stem:
            (out if ser == series_name else moved).append(r)
    # a series split since the audit ran (networking-general into atm,
    # tun-tap-driver, ...): the patch's rows under its old series name
    return out or (moved if len({r["patch"] for r in moved}) == 1 else [])


# ---------------------------------------------------------------- verify

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
    checkpatch and get_maintainer.pl; then the patched files built and
    scanned again (the fixpoint)."""
    applied: list[list[Verdict]] = []
    patched: dict[str, bytes] = {}
    for plan, drafts in zip(composed.grouped.plans, composed.drafts):
        formatted = series.format_mails(kernel, plan, [d.patch for d in drafts], req.identity)
        patched.update(formatted.files)
        applied.append(_check_mails(kernel, drafts, formatted))
        print(f"enotty: {plan.name}: {series.count(len(drafts), 'patch')} applied and checked", file=sys.stderr)
    build = verify.build(kernel, patched, sys.stderr, jobs=req.scan.jobs) if req.build else {}
    scanned = composed.grouped.analysed.scanned
    fix = verify.fixpoint(patched, lambda folder: _rescan(folder, req.scan, scanned.facts))
    skipped = verify.Check(verify.SKIPPED, "--no-build")
    return Checked(composed, tuple(
        tuple(dataclasses.replace(v, build={r: build.get(r, skipped) for r in v.patch.plan.paths},
                                  fixpoint={r: fix[r] for r in v.patch.plan.paths})
              if v.apply.status == verify.OK else v for v in verdicts)
        for verdicts in applied))


def _check_mails(kernel: KernelTree, drafts: tuple[Draft, ...], formatted: series.Formatted) -> list[Verdict]:
    """Apply, checkpatch and recipients of each patch of one series."""
    out = []
    with tempfile.TemporaryDirectory(prefix="checked-", dir=series.scratch_root()) as tmp:
        for draft, mail, error in zip(drafts, formatted.mails, formatted.errors):
            if mail is None:
                out.append(Verdict(draft, verify.Check(verify.FAILED, error)))
                continue
            path = Path(tmp) / mail.name
            path.write_text(mail.text)
            to, cc = recipients(kernel, [path])
            addressed = dataclasses.replace(draft.patch, to=to, cc=cc)
            out.append(Verdict(dataclasses.replace(draft, patch=addressed), verify.Check(verify.OK),
                               verify.checkpatch(kernel, path), mail=mail))
    return out


def _rescan(folder: Path, req: ScanRequest,
            facts: dict[str, str]) -> tuple[list[sites.Site], list[scan.Failure]]:
    """The rules again over the patched files, laid out like the tree, with
    the scan's phase-1 rows: phase 1 over these few files alone would not
    see the ops tables and callers elsewhere."""
    res = scan.scan(ScanRequest(tree.at(folder), jobs=req.jobs, timeout=req.timeout, across_files=False),
                    facts=facts)
    return res.sites, res.failed


def _union(lists: Sequence[Sequence[str]], minus: Sequence[str] = ()) -> list[str]:
    seen, out = set(m.lower() for m in minus), []
    for people in lists:
        for person in people:
            if person.lower() not in seen:
                seen.add(person.lower())
                out.append(person)
    return out


# ---------------------------------------------------------------- write

@dataclass(frozen=True)
class Outcome:
    """One series as it goes out: its verdicts and its mails."""
    plan: split.SeriesPlan
    verdicts: tuple[Verdict, ...]
    mails: series.Formatted | None = None      # None: no patch of it passed
    sent: tuple[series.Patch, ...] = ()        # the patches mailed, in order (the kselftest last)

    @property
    def accepted(self) -> list[Verdict]:
        return [v for v in self.verdicts if not v.rejected]

    def filename(self, verdict: Verdict) -> str:
        """The mail name of an accepted patch."""
        mail = self.mails.mails[self.accepted.index(verdict)] if self.mails else None
        return mail.name if mail else ""


@dataclass(frozen=True)
class Written:
    checked: Checked
    outcomes: tuple[Outcome, ...]
    companions: tuple[companions.CompanionVerdict, ...]
    rule: series.Mail | None            # the semantic patch's one-patch series

    def counts(self) -> str:
        mailed = [o for o in self.outcomes if o.mails]
        rejected = sum(1 for o in self.outcomes for v in o.verdicts if v.rejected)
        return (f"{len(mailed)} series, {sum(len(o.sent) for o in mailed)} patches, {rejected} rejected,"
                f" {len(self.checked.composed.grouped.analysed.scanned.sites)} sites")


def write(kernel: KernelTree, req: PatchesRequest, checked: Checked) -> Written:
    """The series' mails, formatted once in memory, then every file of OUT
    written into a staging folder that is renamed into place."""
    written = mail_out(kernel, req, checked)
    with output.staged(req.out) as stage:
        for outcome in written.outcomes:
            _save_series(stage, outcome)
        if written.rule:
            series.Formatted(None, (written.rule,), ("",)).save(stage / companions.RULE_SERIES)
        _save_tables(stage, kernel, req, written)
    return written


def mail_out(kernel: KernelTree, req: PatchesRequest, checked: Checked) -> Written:
    """Each series' accepted patches as mails, addressed and covered; the
    companion patches, checked like the others."""
    accepted_plans = [dataclasses.replace(plan, patches=[v.patch.plan for v in verdicts if not v.rejected])
                      for plan, verdicts in checked.runs]
    prefix_of = {id(d.patch.plan): d.prefix for drafts in checked.composed.drafts for d in drafts}
    titles = series.cover_prefixes([p for p in accepted_plans if p.patches], lambda pp: prefix_of[id(pp)])
    base = series.base_commit(kernel.root)
    outcomes = tuple(_mail_series(kernel, req, checked, plan, verdicts, titles, base)
                     for plan, verdicts in checked.runs)
    rule = companions.rule_mail(kernel, req.identity) if companions.takes_rule(kernel.root) else None
    media = [o.mails for o in outcomes if o.plan.name == split.MEDIA_SERIES and o.mails]
    return Written(checked, outcomes, tuple(companions.verdicts(kernel, rule, media[0] if media else None)), rule)


def _mail_series(kernel: KernelTree, req: PatchesRequest, checked: Checked, plan: split.SeriesPlan,
                 verdicts: tuple[Verdict, ...], titles: Mapping[str, str], base: str | None) -> Outcome:
    accepted = [v for v in verdicts if not v.rejected]
    if not accepted:
        return Outcome(plan, verdicts)
    to = _union([v.patch.to for v in accepted])
    cc = _union([v.patch.cc for v in accepted], to)
    subject = messages.subject(titles[plan.name], [s for v in accepted for s in v.patch.plan.sites])
    blurb = cover_blurb(plan, accepted, kernel.version, not req.build, checked.composed.audit is not None)
    sent = [v.patch for v in accepted]
    # The media series carries its kselftest, last (companions.py).
    if plan.name == split.MEDIA_SERIES and companions.takes_selftest(kernel.root):
        test = companions.selftest_patch(kernel, req.identity)
        # the test goes to the series' lists too: linux-media reads it with the series
        lists = [c for c in cc if "@vger.kernel.org" in c or "@lists." in c]
        sent.append(dataclasses.replace(test, cc=tuple(_union([test.cc, lists], test.to))))
    mails = series.format_mails(kernel, plan, sent, req.identity,
                                series.Cover(subject, blurb, tuple(to), tuple(cc)), base)
    if any(mails.errors):   # each applied in the first pass: cannot happen
        raise series.SeriesError(f"{plan.name}: a checked patch no longer applies: {' '.join(mails.errors)}")
    return Outcome(plan, verdicts, mails, tuple(sent))


def _save_series(stage: Path, outcome: Outcome) -> None:
    rejected = [v for v in outcome.verdicts if v.rejected and v.mail]
    if rejected:
        series.Formatted(None, tuple(v.mail for v in rejected), tuple("" for _ in rejected)).save(
            stage / "rejected" / outcome.plan.name)
    if outcome.mails:
        outcome.mails.save(stage / outcome.plan.name)


def _save_tables(stage: Path, kernel: KernelTree, req: PatchesRequest, written: Written) -> None:
    """sites.tsv, handlers.tsv, failed.tsv, the audit, run.json, SUMMARY.md."""
    grouped = written.checked.composed.grouped
    analysed = grouped.analysed
    labelled = split.label_sites(list(grouped.plans))
    in_series = {(s.file, s.line, s.rule) for s in labelled}
    # a site in no series (left out, or a rule reported but did not
    # change the file) is still listed, with series "-"
    labelled += [dataclasses.replace(site, subsystem="-", series="-")
                 for site in analysed.labelled if (site.file, site.line, site.rule) not in in_series]
    with open(stage / "sites.tsv", "w") as fh:
        sites.write_tsv(labelled, fh, sites.EFFECT_COLUMNS)
    series_of = {(s.file, s.line, s.rule): s.series for s in labelled}
    with open(stage / "handlers.tsv", "w") as fh:
        handlers.write_tsv(analysed.model, {s: series_of.get((s.file, s.line, s.rule), "-")
                                            for h in analysed.model for s in h.sites}, fh)
    with open(stage / "failed.tsv", "w") as fh:
        scan.write_failed_tsv(analysed.scanned.failed, fh)
    if req.audit_from and written.checked.composed.audit is not None:
        for name in ("audit.tsv", "AUDIT.md"):
            if (req.audit_from / name).is_file():
                shutil.copyfile(req.audit_from / name, stage / name)
    (stage / RUN_RECORD).write_text(run_record(req))
    (stage / "SUMMARY.md").write_text(summary(written, kernel.version, canonical_command(req), not req.build))


# ---------------------------------------------------------------- the cover letter and SUMMARY.md

def cover_blurb(plan: split.SeriesPlan, accepted: list[Verdict], version: str, no_build: bool,
                has_audit: bool) -> str:
    """The cover letter's text: what the series does for its subsystem, how
    it was checked and measured, and one pointer to the semantic patch
    sent upstream."""
    # a cleanup is measured too (no change, as it says) but carries no tested line
    audited = sum(1 for v in accepted if v.draft.tested and not v.patch.plan.cleanup) if has_audit else None
    cleanups_audited = sum(1 for v in accepted if v.draft.measured and v.patch.plan.cleanup)
    # patches without sites (a companion test or documentation patch) are
    # not conversions: they say what they are themselves
    behavioural = [v for v in accepted if not v.patch.plan.cleanup and v.patch.plan.sites]
    changed = [site for v in behavioural for site in v.patch.plan.sites]
    # the drivers as their subjects name them (ALSA: pcm: oss: -> pcm oss)
    subject_prefixes = [v.patch.subject.split(" Return ", 1)[0] for v in behavioural]
    title = prefixes.series_prefix(subject_prefixes, plan.subsystem) if subject_prefixes else ""
    drivers = [series.driver_label(p, title) for p in subject_prefixes]
    where = series.handlers_phrase(drivers, plan.subsystem)
    paras = []
    if changed:
        froms = {site.from_ for site in changed}
        tos = {site.to for site in changed}
        text = (f"The ioctl handlers of {where} answer a command they do not know with "
                f"{messages.errno_phrase(froms)}. This series makes them return "
                f"{messages.errno_phrase(tos)}, as {messages.DOC} asks.")
        if "EINVAL" in froms:
            text += (" -EINVAL there tells user space that the command exists and an argument is"
                     " wrong, so a program cannot tell a missing feature from a bad call.")
        if "ENOIOCTLCMD" in tos:
            text += (" Where the core tries another handler next, the handler returns -ENOIOCTLCMD,"
                     " which the core turns into ENOTTY when nothing else knows the command.")
        paras.append(text + " Each patch says which callers see the change.")
    cleanups = [v for v in accepted if v.patch.plan.cleanup]
    if cleanups:
        paras.append(cleanup.cover_note(cleanups[0].patch.plan.sites, len(accepted), alone=not changed))
    checked = (f"Each {'handler ' if plan.name == split.MEDIA_SERIES else ''}patch applies in order"
               f" to Linux {version}")
    warns = [v for v in accepted if v.checkpatch.detail]
    checked += ", passes checkpatch" + (f" ({series.count(len(warns), 'patch')} with warnings)"
                                        if warns else "")
    if not no_build:
        not_built = sorted({rel for v in accepted for rel, chk in v.build.items()
                            if chk.status == verify.NOT_BUILT})
        built_in = sorted({chk.arch for v in accepted for chk in v.build.values()
                           if chk.status == verify.OK and chk.arch}, key=lambda a: (a != verify.X86_64, a))
        checked += (" and builds in an x86_64 allmodconfig kernel" if built_in in ([], [verify.X86_64]) else
                    " and builds for the architectures that compile it ("
                    + ", ".join(crossbuild.config_name(a) for a in built_in) + ")") + (
            f" ({_join_words(not_built)} {'is' if len(not_built) == 1 else 'are'} not built there)"
            if not_built else "")
    checked += "."
    if audited:
        measured = ("The patch was" if len(behavioural) == 1 else
                    f"{audited} of the {len(behavioural)} patches {'was' if audited == 1 else 'were'}")
        checked += (f" {measured}"
                    " measured in a kernel booted in QEMU, before and after; "
                    f"{'its' if len(behavioural) == 1 else 'their'} \"Tested in QEMU\" line says "
                    "what changed.")
    elif audited == 0 and cleanups_audited:
        checked += (" Booted in QEMU before and after, the cleanup's handlers answer as before;"
                    " the other drivers are not reached in the test guest.")
    paras.append(checked)
    if plan.name == split.MEDIA_SERIES:
        paras.append("The last patch adds a kselftest, tools/testing/selftests/drivers/media/ioctl_errno,"
                     " that checks these answers on the nodes of the vivid and vimc test drivers,"
                     " native and, on x86, 32-bit; it passes checkpatch and builds with the kernel's"
                     " kselftest make.")
    paras.append("The handlers were found with Coccinelle; the semantic patch for the shapes a single"
                 f" file shows is sent separately as scripts/coccinelle/api/{messages.RULE_NAME}, so that"
                 " make coccicheck reports the next handler that answers -EINVAL.")
    return messages.wrap("\n\n".join(paras))


def _join_words(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def summary(written: Written, version: str, cmdline: str, no_build: bool) -> str:
    """SUMMARY.md: what was found, what goes out, what was checked, what not."""
    out = io.StringIO()
    w = out.write
    runs = written.outcomes
    result = written.checked.composed.grouped.analysed.scanned
    patches = sum(len(r.sent) for r in runs if r.mails)
    rejected = [(r, v) for r in runs for v in r.verdicts if v.rejected]
    w(f"# ENOTTY series for Linux {version}\n\n")
    w(f"Generated by `{cmdline}` with {scan.spatch_version(scan.spatch_binary())}.\n\n")
    w(f"- {series.count(len(result.sites), 'site')} in {series.count(len(result.diffs), 'file')}; "
      f"{result.candidates} of {result.c_files} .c files scanned after the prefilter\n")
    w(f"- {sum(1 for r in runs if r.mails)} series, {patches} patches, {len(rejected)} rejected\n")
    w(f"- {len(result.failed)} files spatch could not fully parse or timed out: failed.tsv\n")
    w("- split: " + ("MAINTAINERS sections (tools/enotty/partition/split.py)" if written.checked.composed.grouped.has_maintainers
                     else "by path (no MAINTAINERS)") + "\n")
    w("- checks: apply = `git apply` in order on the pristine files; checkpatch = "
      "scripts/checkpatch.pl; build = object build in x86_64 allmodconfig, or where that does not"
      " build a file, on the first platform of tools/enotty/verify/crossbuild.py whose configuration does"
      + (" (not run)" if no_build else "") + "; fixpoint = the rules find nothing in the patched files\n\n")
    w("| series | subsystem | patches | files | sites | rejected |\n|---|---|---:|---:|---:|---:|\n")
    for r in runs:
        acc = r.sent if r.mails else ()
        w(f"| [{r.plan.name}]({r.plan.name}/) | {_md(r.plan.subsystem)} | {len(acc)} | "
          f"{sum(len(p.plan.files) for p in acc)} | {sum(len(p.plan.sites) for p in acc)} | "
          f"{sum(1 for v in r.verdicts if v.rejected)} |\n")
    for r in runs:
        w(f"\n## {r.plan.name}\n\n{_md(r.plan.subsystem)}\n\n")
        w("| patch | files | sites | apply | checkpatch | build | fixpoint |\n"
          "|---|---:|---:|---|---|---|---|\n")
        for v in r.verdicts:
            name = r.filename(v) if not v.rejected else f"rejected: {v.patch.subject}"
            w(f"| {_md(name)} | {len(v.patch.plan.files)} | {len(v.patch.plan.sites)} | "
              f"{_md(v.apply.cell())} | {_md(v.checkpatch.cell())} | {_md(v.build_cell())} | "
              f"{_md(v.fixpoint_cell())} |\n")
    _summary_tail(w, written, rejected)
    return out.getvalue()


def _summary_tail(w: Callable[[str], object], written: Written, rejected: list[tuple[Outcome, Verdict]]) -> None:
    """SUMMARY.md after the series' tables: companions, rejected, not built, left out."""
    runs = written.outcomes
    grouped = written.checked.composed.grouped
    left_out, left_cleanups = grouped.analysed.left_out, grouped.left_cleanups
    companion_rows = written.companions
    if companion_rows:
        w("\n## Companion patches\n\nThe semantic patch for scripts/coccinelle (parsed by spatch) and"
          " the media series' kselftest (built by the kernel's kselftest make):\n\n")
        w("| patch | files | sites | apply | checkpatch | build | fixpoint |\n"
          "|---|---:|---:|---|---|---|---|\n")
        for c in companion_rows:
            build = c.build.status + (f" ({c.build.arch})" if c.build.arch else "") + \
                (f": {c.build.detail}" if c.build.detail else "")
            w(f"| {_md(c.filename)} | {c.files} | 0 | ok | {_md(c.checkpatch.cell())} | "
              f"{_md(build)} | - |\n")
    if rejected:
        w("\n## Rejected patches\n\nNot in any series (OUT/rejected/SERIES/ keeps them):\n\n")
        for r, v in rejected:
            w(f"- {r.plan.name}: {_md(v.patch.subject)}: {_md(v.rejected)}\n")
    not_built = sorted({rel for r in runs for v in r.verdicts for rel, c in v.build.items()
                        if c.status == verify.NOT_BUILT})
    if not_built:
        w("\n## Not built\n\nNeither x86_64 allmodconfig nor another platform's configuration"
          " (tools/enotty/verify/crossbuild.py) compiles these:\n\n")
        details = {rel: c.detail for r in runs for v in r.verdicts for rel, c in v.build.items()
                   if c.status == verify.NOT_BUILT}
        for rel in not_built:
            w(f"- {rel}: {_md(details[rel])}\n")
    if left_out:
        w("\n## Sites left out\n\nA handler is converted whole or not at all (handlers.tsv);"
          " these are not in any series: an in-tree test expects the old answer (a series"
          " that converts them must update the test in the same patch), the handler would be"
          " left half converted, user space cannot reach the line, or no configuration"
          " compiles the file:\n\n")
        for reason in sorted(set(left_out.values())):
            w(f"- {_md(reason)}\n")
    if left_cleanups:
        w("\n## Cleanups left out (user space sees no change; CLEANUP=1 adds them)\n\n")
        for change in left_cleanups:
            w(f"- {change.path}: {', '.join(sorted({s.function + '()' for s in change.sites}))}\n")
