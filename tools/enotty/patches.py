"""`enotty patches`: scan, split, verify and write mail-ready series into OUT.

Stages: scan the tree (enotty.scan) -> split per subsystem and driver
(enotty.split) -> apply every patch in order in a scratch git repository
(enotty.series) -> checkpatch, x86_64 allmodconfig build and fixpoint
(enotty.verify) -> write OUT atomically (enotty.output).

A patch that fails to apply, to build or checkpatch is not part of its
series: it is numbered out, written to OUT/rejected/SERIES/ with its first
numbering, and its reason is in SUMMARY.md; the mailout never sees it.
A fixpoint miss (the rules still match after the patch) is reported only:
the patch is still right, just not complete.
"""
from __future__ import annotations

import dataclasses
import io
import json
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import console, messages, output, rules, scan, series, sites, split, verify
from .errors import UsageError
from .maintainers import Maintainers, get_maintainer
from .requests import PatchesRequest, ScanRequest

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
    if not req.cleanups:
        words.append("CLEANUP=0")
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
        "identity": str(req.identity),
    }
    return json.dumps(record, indent=2, sort_keys=True) + "\n"


@dataclass
class Verdict:
    """What SUMMARY.md says about one patch."""
    patch: series.Patch
    apply: verify.Check
    checkpatch: verify.Check = verify.Check(verify.SKIPPED)
    build: dict[str, verify.Check] = field(default_factory=dict)
    fixpoint: dict[str, verify.Check] = field(default_factory=dict)

    @property
    def rejected(self) -> str:
        """'' when the patch goes out, else why not."""
        if self.apply.status != verify.OK:
            return "does not apply: " + self.apply.detail
        if self.checkpatch.status == verify.FAILED:
            return "checkpatch: " + self.checkpatch.detail
        bad = [f"{rel}: {c.detail}" for rel, c in sorted(self.build.items()) if c.status == verify.FAILED]
        if bad:
            return "build: " + "; ".join(bad)
        return ""

    def build_cell(self) -> str:
        counts: dict[str, int] = {}
        for chk in self.build.values():
            counts[chk.status] = counts.get(chk.status, 0) + 1
        return ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) or "-"

    def fixpoint_cell(self) -> str:
        bad = [f"{r}: {c.detail}" for r, c in sorted(self.fixpoint.items()) if c.status != verify.OK]
        return "; ".join(bad) if bad else ("ok" if self.fixpoint else "-")


@dataclass
class SeriesRun:
    plan: split.SeriesPlan
    verdicts: list[Verdict]
    written: series.Written | None = None
    to: list[str] = field(default_factory=list)
    cc: list[str] = field(default_factory=list)


def _prefix(root: Path, git: bool, plan: split.PatchPlan) -> str:
    if git:
        # a driver folder's history is richer than one file's
        whole = plan.key == plan.folder or plan.key.startswith("section:")
        found = messages.history_prefix(root, [plan.folder] if whole else plan.paths)
        if found:
            return found
    return messages.path_prefix(plan.paths[0], plan.driver)


def cover_prefix(name: str, subjects: list[str]) -> str:
    """The subjects' most common first prefix (`watchdog:`), else the series name."""
    counts: dict[str, int] = {}
    for subj in subjects:
        if ": " in subj:
            first = subj.split(": ", 1)[0].split("/")[0]
            counts[first] = counts.get(first, 0) + 1
    if not counts:
        return f"{name}:"
    return max(sorted(counts), key=lambda k: counts[k]) + ":"


def _union(lists: list[list[str]], minus: list[str] | tuple[()] = ()) -> list[str]:
    seen, out = set(m.lower() for m in minus), []
    for people in lists:
        for person in people:
            if person.lower() not in seen:
                seen.add(person.lower())
                out.append(person)
    return out


def cover_blurb(run: SeriesRun, accepted: list[Verdict], rule_names: list[str], spatch: str,
                command: str, version: str, no_build: bool) -> str:
    plan = run.plan
    s = [site for v in accepted for site in v.patch.plan.sites]
    tos = {site.to for site in s}
    files = sorted({p for v in accepted for p in v.patch.plan.paths})
    paras = [
        f"Ioctl handlers in {plan.subsystem} answer a command they do not know with "
        f"{messages.errno_phrase({site.from_ for site in s})}. This series makes them return "
        f"{messages.errno_phrase(tos)}, the convention of Documentation/driver-api/ioctl.rst: "
        "-ENOTTY (\"Inappropriate ioctl for device\") is the final answer for an unknown "
        "command, -ENOIOCTLCMD is the answer of a handler whose core tries a fallback "
        "before answering -ENOTTY itself. "
        f"{len(s)} sites in {len(files)} files, one patch per driver; each patch names "
        "the interface and the core code that dispatches to it.",
        messages.abi_note(s),
        "How it was generated:\n"
        f"- Coccinelle rules: {', '.join(rule_names)}\n"
        f"- {spatch}\n"
        f"- {command} on Linux {version}",
    ]
    tested = [f"- every patch applies in order to the pristine {version} tree (git apply)"]
    cp = [v.checkpatch for v in accepted]
    warns = [c.detail for c in cp if c.detail]
    tested.append("- scripts/checkpatch.pl: no errors" + (f"; {len(warns)} patches with warnings"
                                                          if warns else ", no warnings"))
    if no_build:
        tested.append("- build: not checked in this run")
    else:
        counts: dict[str, int] = {}
        for v in accepted:
            for chk in v.build.values():
                counts[chk.status] = counts.get(chk.status, 0) + 1
        tested.append("- x86_64 allmodconfig build of the touched files: " +
                      ", ".join(f"{n} {st}" for st, n in sorted(counts.items())))
    fix_bad = [v for v in accepted if v.fixpoint_cell() not in ("ok", "-")]
    tested.append("- running the rules again on the patched files finds nothing" if not fix_bad else
                  f"- running the rules again finds sites left in {len(fix_bad)} patches (see their notes)")
    paras.append("How it was tested:\n" + "\n".join(tested))
    return messages.wrap("\n\n".join(paras))


def command(req: PatchesRequest) -> int:
    """Scan, split, verify and write the series of one request into req.out."""
    started = time.monotonic()
    if not req.scan.subdir and not req.scan.tree.is_kernel:
        raise UsageError(f"KDIR {req.scan.tree.root} is not a kernel tree (no MAINTAINERS or Makefile);"
                         " name a folder with --subdir (M=) to group series by path")
    output.check_destination(req.out)
    # kill(1) must clean up like ^C: spatch and make children ended, scratch
    # folders removed, OUT left as it was.
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        result = console.scan_tree(req.scan)
        return write_output(req, result, started)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def write_output(req: PatchesRequest, result: scan.ScanResult, started: float) -> int:
    log = sys.stderr
    root, version, out = req.scan.tree.root, req.scan.tree.version, req.out
    ident = (req.identity.name, req.identity.email)
    by_file: dict[str, list[sites.Site]] = {}
    for site in result.sites:
        by_file.setdefault(site.file, []).append(site)
    changes = [split.FileChange(f, result.diffs[f], tuple(by_file.get(f, ())))
               for f in sorted(result.diffs)]
    maint = Maintainers.load(root)
    plans = split.plan(changes, maint, root)
    ifaces = {i.name: messages.InterfaceInfo(i.name, i.to, i.dispatch) for i in rules.interfaces()}
    git = messages.is_git_checkout(root)
    signoff = str(req.identity)
    spatch = scan.spatch_version(scan.spatch_binary())
    cmdline = canonical_command(req)
    rule_names = [p.stem for p in rules.rule_files()]
    no_build = not req.build

    runs: list[SeriesRun] = []
    patched: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory(prefix="prelim-", dir=series.scratch_root()) as tmp_s:
        tmp = Path(tmp_s)
        for plan in plans:
            patches = []
            prefixes = [_prefix(root, git, pp) for pp in plan.patches]
            for pp, prefix in zip(plan.patches, prefixes):
                if prefixes.count(prefix) > 1 and not prefix.endswith(f" {pp.driver}:"):
                    prefix += f" {pp.driver}:"   # two patches must not share a subject
                subj = messages.subject(prefix, pp.sites)
                used = sorted({s.rule for s in pp.sites})
                msg = messages.commit_message(subj, pp.sites, ifaces, used, signoff)
                patches.append(series.Patch(pp, subj, msg))
            repo = series.apply_all(root, plan, patches, ident, tmp / plan.name / "repo")
            for p in patches:
                if not p.apply_error:
                    for rel in p.plan.paths:
                        patched[rel] = (repo.folder / rel).read_bytes()
            prelim = tmp / plan.name / "prelim"
            if any(not p.apply_error for p in patches):
                series.write(root, plan, patches, ident, prelim, "prelim", "prelim", [], [])
            verdicts = []
            for p in patches:
                v = Verdict(p, verify.Check(verify.OK) if not p.apply_error
                            else verify.Check(verify.FAILED, p.apply_error))
                if not p.apply_error:
                    path = prelim / p.filename
                    v.checkpatch = verify.checkpatch(root, path)
                    p.to = get_maintainer(root, [path], "to")
                    p.cc = _union([get_maintainer(root, [path], "cc")], p.to)
                verdicts.append(v)
            runs.append(SeriesRun(plan, verdicts))
            print(f"enotty: {plan.name}: {len(patches)} patches applied and checked", file=log)

        build = {} if no_build else verify.build(root, patched, log)
        fix = verify.fixpoint(patched, lambda folder: _rescan(folder, req.scan))
        for run in runs:
            for v in run.verdicts:
                if v.apply.status == verify.OK:
                    v.build = {r: build.get(r, verify.Check(verify.SKIPPED, "--no-build")) for r in v.patch.plan.paths}
                    v.fixpoint = {r: fix[r] for r in v.patch.plan.paths}

        with output.staged(out) as stage:
            for run in runs:
                accepted = [v for v in run.verdicts if not v.rejected]
                rejected = [v for v in run.verdicts if v.rejected]
                if rejected:
                    folder = stage / "rejected" / run.plan.name
                    folder.mkdir(parents=True, exist_ok=True)
                    for v in rejected:
                        if v.patch.filename:
                            shutil.copyfile(tmp / run.plan.name / "prelim" / v.patch.filename,
                                            folder / v.patch.filename)
                if not accepted:
                    continue
                run.to = _union([v.patch.to for v in accepted])
                run.cc = _union([v.patch.cc for v in accepted], run.to)
                subj = messages.subject(cover_prefix(run.plan.name, [v.patch.subject for v in accepted]),
                                        [s for v in accepted for s in v.patch.plan.sites])
                blurb = cover_blurb(run, accepted, rule_names, spatch, cmdline, version, no_build)
                for v in accepted:
                    v.patch.filename = ""
                run.written = series.write(root, run.plan, [v.patch for v in accepted], ident,
                                           stage / run.plan.name, subj, blurb, run.to, run.cc)
                for v in accepted:
                    if v.patch.apply_error:   # applied in the first pass: cannot happen
                        v.apply = verify.Check(verify.FAILED, v.patch.apply_error)
            labelled = split.label_sites(plans)
            # a site whose file got no diff (a rule reported but did not change
            # it) is still listed, in no series
            labelled += [dataclasses.replace(site, subsystem="-", series="-")
                         for site in result.sites if site.file not in result.diffs]
            with open(stage / "sites.tsv", "w") as fh:
                sites.write_tsv(labelled, fh, sites.SERIES_COLUMNS)
            with open(stage / "failed.tsv", "w") as fh:
                scan.write_failed_tsv(result.failed, fh)
            (stage / RUN_RECORD).write_text(run_record(req))
            (stage / "SUMMARY.md").write_text(summary(runs, result, root, version, cmdline, spatch,
                                                      maint is not None, no_build))
    total = sum(len(r.written.patches) for r in runs if r.written)
    rej = sum(1 for r in runs for v in r.verdicts if v.rejected)
    print(f"enotty: wrote {out}: {sum(1 for r in runs if r.written)} series, {total} patches,"
          f" {rej} rejected, {len(result.sites)} sites; {time.monotonic() - started:.0f} s", file=log)
    return 0


def _rescan(folder: Path, req: ScanRequest) -> tuple[list[sites.Site], list[scan.Failure]]:
    res = scan.scan(folder, folder, jobs=req.jobs, timeout=req.timeout)
    return res.sites, res.failed


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def summary(runs: list[SeriesRun], result: scan.ScanResult, root: Path, version: str,
            cmdline: str, spatch: str, has_maintainers: bool, no_build: bool) -> str:
    out = io.StringIO()
    w = out.write
    patches = sum(len(r.written.patches) for r in runs if r.written)
    rejected = [(r, v) for r in runs for v in r.verdicts if v.rejected]
    w(f"# ENOTTY series for Linux {version}\n\n")
    w(f"Generated by `{cmdline}` with {spatch}.\n\n")
    w(f"- {len(result.sites)} sites in {len(result.diffs)} files; "
      f"{result.candidates} of {result.c_files} .c files scanned after the prefilter\n")
    w(f"- {sum(1 for r in runs if r.written)} series, {patches} patches, {len(rejected)} rejected\n")
    w(f"- {len(result.failed)} files spatch could not fully parse or timed out: failed.tsv\n")
    w("- split: " + ("MAINTAINERS sections (tools/enotty/split.py)" if has_maintainers
                     else "by path (no MAINTAINERS)") + "\n")
    w("- checks: apply = `git apply` in order on the pristine files; checkpatch = "
      "scripts/checkpatch.pl; build = x86_64 allmodconfig object build"
      + (" (not run)" if no_build else "") + "; fixpoint = the rules find nothing in the patched files\n\n")
    w("| series | subsystem | patches | files | sites | rejected |\n|---|---|---:|---:|---:|---:|\n")
    for r in runs:
        acc = r.written.patches if r.written else []
        w(f"| [{r.plan.name}]({r.plan.name}/) | {_md(r.plan.subsystem)} | {len(acc)} | "
          f"{sum(len(p.plan.files) for p in acc)} | {sum(len(p.plan.sites) for p in acc)} | "
          f"{sum(1 for v in r.verdicts if v.rejected)} |\n")
    for r in runs:
        w(f"\n## {r.plan.name}\n\n{_md(r.plan.subsystem)}\n\n")
        w("| patch | files | sites | apply | checkpatch | build | fixpoint |\n"
          "|---|---:|---:|---|---|---|---|\n")
        for v in r.verdicts:
            name = v.patch.filename if not v.rejected else f"rejected: {v.patch.subject}"
            w(f"| {_md(name)} | {len(v.patch.plan.files)} | {len(v.patch.plan.sites)} | "
              f"{_md(v.apply.cell())} | {_md(v.checkpatch.cell())} | {_md(v.build_cell())} | "
              f"{_md(v.fixpoint_cell())} |\n")
    if rejected:
        w("\n## Rejected patches\n\nNot in any series (OUT/rejected/SERIES/ keeps them):\n\n")
        for r, v in rejected:
            w(f"- {r.plan.name}: {_md(v.patch.subject)}: {_md(v.rejected)}\n")
    not_built = sorted({rel for r in runs for v in r.verdicts for rel, c in v.build.items()
                        if c.status == verify.NOT_BUILT})
    if not_built:
        w("\n## Not built on x86_64 allmodconfig\n\n")
        for rel in not_built:
            w(f"- {rel}\n")
    return out.getvalue()
