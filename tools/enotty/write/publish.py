"""The write stage: the accepted patches as mails, addressed and covered,
formatted once in memory; then every file of OUT (the series, OUT/rejected/,
sites.tsv, handlers.tsv, failed.tsv, the audit, run.json, SUMMARY.md)
written into a staging folder that is renamed into place (output.py)."""
from __future__ import annotations

import dataclasses
import io
import json
import shlex
import shutil
from dataclasses import dataclass
from typing import Callable

from ..find import scan, sites
from ..judge import handlers
from ..partition import prefixes, split
from ..render import cleanup, companions, messages, series
from ..verify import crossbuild, verify
from ..verify import checks
from ..verify.checks import Checked, Verdict
from . import output
from ..requests import KernelTree, PatchesRequest

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
    companions: tuple[checks.CompanionVerdict, ...]
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
    files = _mail_files(written) | _tables(kernel, req, written)
    with output.staged(req.out) as stage:
        output.write_files(stage, files)
        if req.audit_from and written.checked.composed.audit is not None:
            for name in ("audit.tsv", "AUDIT.md"):
                if (req.audit_from / name).is_file():
                    shutil.copyfile(req.audit_from / name, stage / name)
    return written


def _mail_files(written: Written) -> dict[str, str]:
    """OUT's mails, path -> text: each series' folder (cover letter first),
    its rejected patches under rejected/, the semantic patch's series."""
    files = {}
    for outcome in written.outcomes:
        for verdict in outcome.verdicts:
            if verdict.rejected and verdict.mail:
                files[f"rejected/{outcome.plan.name}/{verdict.mail.name}"] = verdict.mail.text
        for mail in outcome.mails.written if outcome.mails else []:
            files[f"{outcome.plan.name}/{mail.name}"] = mail.text
    if written.rule:
        files[f"{companions.RULE_SERIES}/{written.rule.name}"] = written.rule.text
    return files


def mail_out(kernel: KernelTree, req: PatchesRequest, checked: Checked) -> Written:
    """Each series' accepted patches as mails, addressed and covered; the
    companion patches, checked like the others."""
    accepted_plans = [dataclasses.replace(plan, patches=[v.patch.plan for v in verdicts if not v.rejected])
                      for plan, verdicts in checked.runs]
    prefix_of = {id(d.patch.plan): d.prefix for drafts in checked.composed.drafts for d in drafts}
    blurbs = [_cover_text(kernel, req, checked, plan, verdicts) for plan, verdicts in checked.runs]
    titles = series.cover_prefixes([p for p in accepted_plans if p.patches], lambda pp: prefix_of[id(pp)])
    # The media series carries its kselftest, last (companions.py).
    media = any(p.name == split.MEDIA_SERIES and p.patches for p in accepted_plans)
    takes_test, takes_rule = media and companions.takes_selftest(kernel.root), companions.takes_rule(kernel.root)
    test, rule = companions.companion_mails(kernel, req.identity, takes_test, takes_rule)
    outcomes = []
    for (plan, verdicts), blurb in zip(checked.runs, blurbs):
        if blurb is None:
            outcomes.append(Outcome(plan, verdicts))
            continue
        accepted = [v for v in verdicts if not v.rejected]
        # the cover goes to everyone its patches go to
        to = series.union([v.patch.to for v in accepted])
        cc = series.union([v.patch.cc for v in accepted], to)
        sent = [v.patch for v in accepted]
        if plan.name == split.MEDIA_SERIES and test is not None:
            # the test goes to the series' lists too: linux-media reads it with the series
            lists = [c for c in cc if "@vger.kernel.org" in c or "@lists." in c]
            sent.append(dataclasses.replace(test, cc=tuple(series.union([test.cc, lists], test.to))))
        subject = messages.subject(titles[plan.name], [s for v in accepted for s in v.patch.plan.sites])
        cover = series.Cover(subject, blurb, tuple(to), tuple(cc))
        mails = series.format_mails(kernel, plan, sent, req.identity, cover, checked.composed.grouped.base)
        if any(mails.errors):   # each applied in the first pass: cannot happen
            raise series.SeriesError(f"{plan.name}: a checked patch no longer applies: {' '.join(mails.errors)}")
        outcomes.append(Outcome(plan, verdicts, mails, tuple(sent)))
    media_mails = [o.mails for o in outcomes if o.plan.name == split.MEDIA_SERIES and o.mails]
    return Written(checked, tuple(outcomes),
                   tuple(checks.companion_verdicts(kernel, rule, media_mails[0] if media_mails else None)), rule)


def _cover_text(kernel: KernelTree, req: PatchesRequest, checked: Checked, plan: split.SeriesPlan,
                verdicts: tuple[Verdict, ...]) -> str | None:
    """The cover letter's text of a series' accepted patches (mail_out
    addresses it); None when no patch of it is accepted."""
    accepted = [v for v in verdicts if not v.rejected]
    if not accepted:
        return None
    return cover_blurb(plan, accepted, kernel.version, not req.build, checked.composed.audit is not None)


def _tables(kernel: KernelTree, req: PatchesRequest, written: Written) -> dict[str, str]:
    """SUMMARY.md, run.json, sites.tsv, handlers.tsv, failed.tsv: name -> text."""
    texts = {"SUMMARY.md": summary(written, kernel.version, canonical_command(req), not req.build),
             RUN_RECORD: run_record(req)}
    grouped = written.checked.composed.grouped
    analysed = grouped.analysed
    labelled = split.label_sites(list(grouped.plans))
    in_series = {(s.file, s.line, s.rule) for s in labelled}
    # a site in no series (left out, or a rule reported but did not
    # change the file) is still listed, with series "-"
    labelled += [dataclasses.replace(site, subsystem="-", series="-")
                 for site in analysed.labelled if (site.file, site.line, site.rule) not in in_series]
    series_of = {(s.file, s.line, s.rule): s.series for s in labelled}
    out = {"sites.tsv": io.StringIO(), "handlers.tsv": io.StringIO(), "failed.tsv": io.StringIO()}
    sites.write_tsv(labelled, out["sites.tsv"], sites.EFFECT_COLUMNS)
    handlers.write_tsv(analysed.model, {s: series_of.get((s.file, s.line, s.rule), "-")
                                        for h in analysed.model for s in h.sites}, out["handlers.tsv"])
    scan.write_failed_tsv(analysed.scanned.failed, out["failed.tsv"])
    return texts | {name: fh.getvalue() for name, fh in out.items()}


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
                    "Both patches were" if audited == len(behavioural) == 2 else
                    f"All {audited} patches were" if audited == len(behavioural) else
                    f"{audited} of the {len(behavioural)} patches {'was' if audited == 1 else 'were'}")
        checked += (f" {measured}"
                    " measured in a kernel booted in QEMU, before and after; "
                    f"{'its' if audited == 1 else 'their'} \"Tested in QEMU\" line says "
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
