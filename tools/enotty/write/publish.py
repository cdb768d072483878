"""The write stage: what the earlier stages decided, serialised.  The
verify stage hands over the series as they go out (formatted in memory,
covered and addressed) and every verdict; this module turns them and the
scan's typed results into OUT's files (the series, OUT/rejected/,
sites.tsv, handlers.tsv, failed.tsv, the audit, run.json, SUMMARY.md),
written into a staging folder that is renamed into place (output.py)."""
from __future__ import annotations

import dataclasses
import io
import json
import shlex
import shutil
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable

from ..find import scan, sites
from ..judge import handlers, recall
from ..judge.kept_commands import joined, reader_names
from ..partition import split
from ..render import companions, series
from ..verify import verify
from ..verify.verdicts import Checked, Outcome, Verdict
from . import output
from ..requests import PatchesRequest

RUN_RECORD = "run.json"


def canonical_command(req: PatchesRequest) -> str:
    """The make line that reproduces the output (no OUT or SIGNOFF: they do
    not change the content beyond the identity, which the files show)."""
    words = ["make", "patches"]
    if req.scan.tree.kdir:
        words.append(f"KDIR={req.scan.tree.kdir}")
    elif req.scan.tree.kver == "6.12":
        words.append("KVER=6.12")
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
        "kver": req.scan.tree.kver,
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
class Written:
    """What the write stage wrote: the verify stage's result, serialised."""
    checked: Checked

    def counts(self) -> str:
        outcomes = self.checked.outcomes
        mailed = [o for o in outcomes if o.mails]
        rejected = sum(1 for o in outcomes for v in o.verdicts if v.rejected)
        return (f"{len(mailed)} series, {sum(len(o.sent) for o in mailed)} patches, {rejected} rejected,"
                f" {len(self.checked.composed.grouped.analysed.scanned.sites)} sites")


def write(req: PatchesRequest, checked: Checked) -> Written:
    """Every file of OUT, as the verify stage left the series (formatted,
    covered and addressed), written into a staging folder that is renamed
    into place."""
    written = Written(checked)
    files = _mail_files(checked) | _tables(req, written)
    with output.staged(req.out) as stage:
        output.write_files(stage, files)
        if req.audit_from and checked.composed.audit is not None:
            for name in ("audit.tsv", "AUDIT.md"):
                if (req.audit_from / name).is_file():
                    shutil.copyfile(req.audit_from / name, stage / name)
    return written


def _mail_files(checked: Checked) -> dict[str, str]:
    """OUT's mails, path -> text: each series' folder (cover letter first),
    its rejected patches under rejected/, the semantic patch's series."""
    files = {}
    for outcome in checked.outcomes:
        for verdict in outcome.verdicts:
            if verdict.rejected and verdict.mail:
                files[f"rejected/{outcome.plan.name}/{verdict.mail.name}"] = verdict.mail.text
        for mail in outcome.mails.written if outcome.mails else []:
            files[f"{outcome.plan.name}/{mail.name}"] = mail.text
    if checked.rule:
        files[f"{companions.RULE_SERIES}/{checked.rule.name}"] = checked.rule.text
    return files


def _tables(req: PatchesRequest, written: Written) -> dict[str, str]:
    """SUMMARY.md, run.json, sites.tsv, handlers.tsv, failed.tsv: name -> text."""
    grouped = written.checked.composed.grouped
    analysed = grouped.analysed
    labelled = split.label_sites(list(grouped.plans))
    in_series = {(s.file, s.line, s.rule) for s in labelled}
    # a site in no series (left out, or a rule reported but did not
    # change the file) is still listed, with series "-"
    labelled += [dataclasses.replace(site, subsystem="-", series="-")
                 for site in analysed.labelled if (site.file, site.line, site.rule) not in in_series]
    series_of = {(s.file, s.line, s.rule): s.series for s in labelled}
    misses = recall.committed_misses(req.scan.tree.version, [
        {"file": s.file, "line": str(s.line), "series": s.series} for s in labelled]) if not req.scan.subdir else ([], [])
    texts = {"SUMMARY.md": summary(written, req.scan.tree.version, canonical_command(req), not req.build, misses),
             RUN_RECORD: run_record(req), "failed.tsv": failed_tsv(analysed.scanned.failed)}
    out = {"sites.tsv": io.StringIO(), "handlers.tsv": io.StringIO()}
    sites.write_tsv(labelled, out["sites.tsv"], sites.EFFECT_COLUMNS)
    handlers.write_tsv(analysed.model, {s: series_of.get((s.file, s.line, s.rule), "-")
                                        for h in analysed.model for s in h.sites}, out["handlers.tsv"])
    return texts | {name: fh.getvalue() for name, fh in out.items()}


FAILED_COLUMNS = ("file", "status", "reason")


def failed_tsv(failures: Iterable[scan.Failure]) -> str:
    """failed.tsv: header `file status reason`, one row per file the scan
    could not fully read, by file."""
    rows = ["\t".join(FAILED_COLUMNS)] + [f"{f.file}\t{f.status}\t{f.reason}"
                                           for f in sorted(failures, key=lambda f: f.file)]
    return "\n".join(rows) + "\n"


# ---------------------------------------------------------------- SUMMARY.md

def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def summary(written: Written, version: str, cmdline: str, no_build: bool,
            misses: tuple[list[recall.Miss], list[str]] = ([], [])) -> str:
    """SUMMARY.md: what was found, what goes out, what was checked, what not."""
    out = io.StringIO()
    w = out.write
    runs = written.checked.outcomes
    result = written.checked.composed.grouped.analysed.scanned
    patches = sum(len(r.sent) for r in runs if r.mails)
    rejected = [(r, v) for r in runs for v in r.verdicts if v.rejected]
    w(f"# ENOTTY series for Linux {version}\n\n")
    w(f"Generated by `{cmdline}` with {scan.spatch_version(scan.spatch_binary())}.\n\n")
    w(f"- {series.count(len(result.sites), 'site')} in {series.count(len(result.diffs), 'file')}; "
      f"{result.candidates} of {result.c_files} .c files scanned after the prefilter\n")
    w(f"- {sum(1 for r in runs if r.mails)} series, {patches} patches, {len(rejected)} rejected\n")
    w(f"- {series.count(len(result.failed), 'file')} spatch could not fully parse or timed out: failed.tsv\n")
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
    _recall_misses(w, *misses)
    return out.getvalue()


def _recall_misses(w: Callable[[str], object], misses: list[recall.Miss], census: list[str]) -> None:
    """The census's REAL exits that the rules do not find (cocci/recall/README.rst):
    those kept.tsv keeps, with what keeps them, then the misses to fix."""
    kept = [m for m in misses if m.keeper]
    if kept:
        w(f"\n## Kept without a rule\n\nThe committed census of this tree classifies"
          f" {series.count(len(kept), 'more exit')} as answering only unknown commands; no rule reports"
          " them, and cocci/recall/kept.tsv names what keeps each at its errno:\n\n")
        exits = Counter((m.file, m.function, m.errno, m.keeper, m.why) for m in kept)
        for (file, function, errno, keeper, why), n in exits.items():
            many = f", {n} exits" if n > 1 else ""
            w(f"- {file}: {function}() (-{errno}{many}) kept by a {keeper}: {_md(why)}\n")
    misses = [m for m in misses if not m.keeper]
    if not misses:
        return
    w(f"\n## Recall misses\n\nThe committed census of this tree ({', '.join('cocci/recall/' + c for c in census)})"
      f" classifies {series.count(len(misses), 'exit')} as answering only unknown commands that the rules do not"
      " report, so no series converts them and no line above gives a reason; the census's reading of each"
      " (a new rule or a patch by hand):\n\n")
    for m in misses:
        w(f"- {m.file}: {m.function}() (-{m.errno}): {_md(m.why)}\n")


def _summary_tail(w: Callable[[str], object], written: Written, rejected: list[tuple[Outcome, Verdict]]) -> None:
    """SUMMARY.md after the series' tables: companions, rejected, not built, left out."""
    runs = written.checked.outcomes
    grouped = written.checked.composed.grouped
    left_out, left_cleanups = grouped.analysed.left_out, grouped.left_cleanups
    companion_rows = written.checked.companions
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
    kept = handlers.kept_answers(grouped.analysed.model)
    if kept:
        w("\n## Answers kept for named commands\n\nThese handlers are converted, but a program reads"
          " their old answer for commands they have no case for (judge/consumers.tsv), and the patch"
          " keeps it for those commands:\n\n")
        for site, answer in sorted(kept.items(), key=lambda item: item[0].sort_key()):
            verb = "keeps" if len(answer.commands) == 1 else "keep"
            w(f"- {site.file}: {site.function}(): {_md(joined(list(answer.commands)))} {verb} -{answer.errno}"
              f" ({_md(joined(reader_names(answer)))})\n")
    if left_cleanups:
        w("\n## Cleanups left out (user space sees no change; CLEANUP=1 adds them)\n\n")
        for change in left_cleanups:
            w(f"- {change.path}: {', '.join(sorted({s.function + '()' for s in change.sites}))}\n")
