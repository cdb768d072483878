"""`enotty patches`: scan, split, verify and write mail-ready series into OUT.

Stages: scan the tree (enotty.find.scan) -> split per subsystem and driver
(enotty.partition.split) -> apply every patch in order in a scratch git repository
(enotty.render.series) -> checkpatch, x86_64 allmodconfig build and fixpoint
(enotty.verify.verify) -> write OUT atomically (enotty.write.output).

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
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import console
from .find import interfaces, rules, scan, sites
from .judge import effects, handlers, selftest_search
from .partition import prefixes, split
from .render import cleanup, companions, messages, series
from .verify import crossbuild, verify
from .write import output
from .errors import UsageError
from .partition.maintainers import Maintainers, get_maintainer
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


@dataclass
class SeriesRun:
    plan: split.SeriesPlan
    verdicts: list[Verdict]
    written: series.Written | None = None
    to: list[str] = field(default_factory=list)
    cc: list[str] = field(default_factory=list)


def _union(lists: list[list[str]], minus: list[str] | tuple[()] = ()) -> list[str]:
    seen, out = set(m.lower() for m in minus), []
    for people in lists:
        for person in people:
            if person.lower() not in seen:
                seen.add(person.lower())
                out.append(person)
    return out


def cover_blurb(run: SeriesRun, accepted: list[Verdict], rule_names: list[str], spatch: str,
                command: str, version: str, no_build: bool, audited: int | None,
                cleanups_audited: int = 0) -> str:
    """The cover letter's text: what the series does for its subsystem, how
    it was checked and measured, and one pointer to the semantic patch.
    rule_names, spatch and command are the run's (SUMMARY.md says them);
    the letter points once to the semantic patch sent upstream."""
    plan = run.plan
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


@dataclass
class Prepared:
    """The scan's changes, with effects, minus the sites left out and why."""
    changes: list[split.FileChange]
    labelled: list[sites.Site]              # every site, effects filled in
    left_out: dict[sites.Site, str]         # site -> the reason it is left out
    model: list[handlers.Handler] = field(default_factory=list)   # handlers.tsv


def prepare_changes(result: scan.ScanResult, root: Path) -> Prepared:
    """Effects per site; a site whose in-tree test expects its old answer
    is left out (its hunk dropped) with the test named, so that no series
    breaks a kselftest it does not update."""
    found = effects.analyse_sites(result.sites, root)
    labelled = [dataclasses.replace(s, effects=found.get(s)) for s in result.sites]
    hits = selftest_search.search(labelled, root)
    left_out = {s: selftest_search.left_out_reason(s, h) for s, h in hits.items() if h}
    # A file no configuration of any architecture compiles gets no patch:
    # nobody could build it, and the kernel test robot would not either.
    nowhere = crossbuild.Unbuildable(root)
    for path in sorted({s.file for s in labelled}):
        why = nowhere.reason(path)
        if why:
            funcs = ", ".join(sorted({s.function + "()" for s in labelled if s.file == path}))
            for site in labelled:
                if site.file == path and site not in left_out:
                    left_out[site] = (f"{path}: {funcs} left as it is: no configuration of any"
                                      f" architecture compiles it ({why}).")
    # The unit of conversion is the handler: all of its unknown-command
    # exits, or none of them.
    model = handlers.model(labelled, root, left_out)
    for site, why in handlers.left_out(model).items():
        left_out.setdefault(site, why)
    by_file: dict[str, list[sites.Site]] = {}
    for site in labelled:
        by_file.setdefault(site.file, []).append(site)
    changes = []
    for path in sorted(result.diffs):
        keep = tuple(s for s in by_file.get(path, ()) if s not in left_out)
        diff = result.diffs[path]
        dropped = {s.line for s in by_file.get(path, ()) if s in left_out}
        if dropped:
            diff = split.split_hunks(diff, dropped)[0] if keep else ""
        if diff:
            changes.append(split.FileChange(path, diff, keep))
    return Prepared(changes, labelled, left_out, model)


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


def write_output(req: PatchesRequest, result: scan.ScanResult, started: float) -> int:
    log = sys.stderr
    root, version, out = req.scan.tree.root, req.scan.tree.version, req.out
    ident = (req.identity.name, req.identity.email)
    prep = prepare_changes(result, root)
    maint = Maintainers.load(root)
    plans = split.plan(prep.changes, maint, root, cleanups=req.cleanups)
    left_cleanups = [] if req.cleanups else split.cleanup_changes(prep.changes)
    ifaces = interfaces.by_name()
    git = prefixes.is_git_checkout(root)
    base = series.base_commit(root) if git else None
    signoff = str(req.identity)
    spatch = scan.spatch_version(scan.spatch_binary())
    cmdline = canonical_command(req)
    rule_names = rules.shape_names()
    no_build = not req.build
    audit = read_audit(req.audit_from)

    runs: list[SeriesRun] = []
    patched: dict[str, bytes] = {}
    prefix_of: dict[int, str] = {}
    with tempfile.TemporaryDirectory(prefix="prelim-", dir=series.scratch_root()) as tmp_s:
        tmp = Path(tmp_s)
        for plan in plans:
            raw = [prefixes.patch_prefix(root, pp.paths, pp.section, git=git) for pp in plan.patches]
            subject_prefixes = prefixes.distinct_prefixes(raw, [pp.driver for pp in plan.patches])
            patches = []
            for pp, prefix in zip(plan.patches, subject_prefixes):
                prefix_of[id(pp)] = prefix
                if pp.cleanup:
                    msg = cleanup.commit_message(prefix, pp.sites, signoff, alone=len(plan.patches) == 1)
                    subj = msg.split("\n", 1)[0]
                else:
                    subj = messages.subject(prefix, pp.sites)
                    used = sorted({s.rule for s in pp.sites})
                    msg = messages.commit_message(subj, pp.sites, ifaces, used, signoff,
                                                  docs=[d.path for d in pp.docs],
                                                  kept=handlers.kept_siblings(pp.sites, prep.model))
                patches.append(series.Patch(pp, subj, msg))
            # A first write, without recipients: the files checkpatch and
            # get_maintainer.pl read, and the patched files for the build.
            prelim = tmp / plan.name / "prelim"
            try:
                patched.update(series.write(root, plan, patches, ident, prelim, "prelim", "prelim",
                                            [], [], use_cache=req.scan.use_cache).files)
            except series.SeriesError:
                if any(not p.apply_error for p in patches):
                    raise            # git failed on a patch that applies: not a verdict
            verdicts = []
            for p in patches:
                v = Verdict(p, verify.Check(verify.OK) if not p.apply_error
                            else verify.Check(verify.FAILED, p.apply_error))
                if not p.apply_error:
                    path = prelim / p.filename
                    v.checkpatch = verify.checkpatch(root, path, use_cache=req.scan.use_cache)
                    p.to = get_maintainer(root, [path], "to", use_cache=req.scan.use_cache)
                    p.cc = _union([get_maintainer(root, [path], "cc", use_cache=req.scan.use_cache)], p.to)
                verdicts.append(v)
            runs.append(SeriesRun(plan, verdicts))
            print(f"enotty: {plan.name}: {series.count(len(patches), 'patch')} applied and checked", file=log)

        build = {} if no_build else verify.build(root, patched, log, jobs=req.scan.jobs,
                                                 use_cache=req.scan.use_cache)
        fix = verify.fixpoint(patched, lambda folder: _rescan(folder, req.scan, result.facts))
        for run in runs:
            for v in run.verdicts:
                if v.apply.status == verify.OK:
                    v.build = {r: build.get(r, verify.Check(verify.SKIPPED, "--no-build")) for r in v.patch.plan.paths}
                    v.fixpoint = {r: fix[r] for r in v.patch.plan.paths}

        accepted_plans = [dataclasses.replace(run.plan, patches=[v.patch.plan for v in run.verdicts
                                                                  if not v.rejected])
                          for run in runs]
        titles = series.cover_prefixes([p for p in accepted_plans if p.patches],
                                       lambda pp: prefix_of[id(pp)])
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
                audited = None
                cleanups_audited = 0
                if audit is not None:
                    audited = 0
                    for v in accepted:
                        if v.patch.plan.cleanup:
                            # measured too (no change, as it says), but it
                            # carries no tested line
                            cleanups_audited += bool(_audit_rows(audit, run.plan.name, v.patch.filename))
                            continue
                        mine = _audit_rows(audit, run.plan.name, v.patch.filename)
                        # the rows name the patch as the audit did (its number may differ)
                        line = messages.tested_line(mine, mine[0]["patch"]) if mine else ""
                        if line:
                            audited += 1
                            used = sorted({s.rule for s in v.patch.plan.sites})
                            v.patch.message = messages.commit_message(
                                v.patch.subject, v.patch.plan.sites, ifaces, used, signoff, tested=line,
                                docs=[d.path for d in v.patch.plan.docs],
                                own_type_only=messages.only_own_type_changed(mine),
                                kept=handlers.kept_siblings(v.patch.plan.sites, prep.model))
                run.to = _union([v.patch.to for v in accepted])
                run.cc = _union([v.patch.cc for v in accepted], run.to)
                subj = messages.subject(titles[run.plan.name], [s for v in accepted for s in v.patch.plan.sites])
                blurb = cover_blurb(run, accepted, rule_names, spatch, cmdline, version, no_build, audited,
                                    cleanups_audited)
                for v in accepted:
                    v.patch.filename = ""
                # The media series carries its kselftest, last (companions.py).
                extra = ([companions.selftest_patch(root, signoff, use_cache=req.scan.use_cache)]
                         if run.plan.name == split.MEDIA_SERIES and companions.takes_selftest(root) else [])
                for p in extra:
                    # the test goes to the series' lists too: linux-media reads it with the series
                    p.cc = _union([p.cc, [c for c in run.cc if "@vger.kernel.org" in c or "@lists." in c]], p.to)
                run.written = series.write(root, run.plan, [v.patch for v in accepted] + extra, ident,
                                           stage / run.plan.name, subj, blurb, run.to, run.cc, base=base,
                                           use_cache=req.scan.use_cache)
                for v in accepted:
                    if v.patch.apply_error:   # applied in the first pass: cannot happen
                        v.apply = verify.Check(verify.FAILED, v.patch.apply_error)
            # The semantic patch itself, for scripts/coccinelle (companions.py).
            companion_rows = []
            if companions.takes_rule(root):
                rule_mail = companions.rule_series(root, ident, signoff, stage / companions.RULE_SERIES,
                                                   use_cache=req.scan.use_cache)
                companion_rows.append(companions.CompanionVerdict(
                    companions.RULE_SERIES, rule_mail.name, 1,
                    verify.checkpatch(root, rule_mail, use_cache=req.scan.use_cache),
                    companions.check_rule(use_cache=req.scan.use_cache)))
            for mail in sorted((stage / split.MEDIA_SERIES).glob("*-selftests-*.patch")):
                companion_rows.append(companions.CompanionVerdict(
                    split.MEDIA_SERIES, mail.name, mail.read_text().count("\ndiff --git "),
                    verify.checkpatch(root, mail, use_cache=req.scan.use_cache),
                    companions.check_selftest(root, log, use_cache=req.scan.use_cache)))
            labelled = split.label_sites(plans)
            in_series = {(s.file, s.line, s.rule) for s in labelled}
            # a site in no series (left out, or a rule reported but did not
            # change the file) is still listed, with series "-"
            labelled += [dataclasses.replace(site, subsystem="-", series="-")
                         for site in prep.labelled if (site.file, site.line, site.rule) not in in_series]
            with open(stage / "sites.tsv", "w") as fh:
                sites.write_tsv(labelled, fh, sites.EFFECT_COLUMNS)
            series_of = {(s.file, s.line, s.rule): s.series for s in labelled}
            with open(stage / "handlers.tsv", "w") as fh:
                handlers.write_tsv(prep.model, {s: series_of.get((s.file, s.line, s.rule), "-")
                                                for h in prep.model for s in h.sites}, fh)
            with open(stage / "failed.tsv", "w") as fh:
                scan.write_failed_tsv(result.failed, fh)
            if req.audit_from and audit is not None:
                for name in ("audit.tsv", "AUDIT.md"):
                    if (req.audit_from / name).is_file():
                        shutil.copyfile(req.audit_from / name, stage / name)
            (stage / RUN_RECORD).write_text(run_record(req))
            (stage / "SUMMARY.md").write_text(summary(runs, result, root, version, cmdline, spatch,
                                                      maint is not None, no_build, prep.left_out,
                                                      left_cleanups, companion_rows))
    total = sum(len(r.written.patches) for r in runs if r.written)
    rej = sum(1 for r in runs for v in r.verdicts if v.rejected)
    print(f"enotty: wrote {out}: {sum(1 for r in runs if r.written)} series, {total} patches,"
          f" {rej} rejected, {len(result.sites)} sites; {time.monotonic() - started:.0f} s", file=log)
    return 0


def _rescan(folder: Path, req: ScanRequest,
            facts: dict[str, str]) -> tuple[list[sites.Site], list[scan.Failure]]:
    """The rules again over the patched files, laid out like the tree, with
    the scan's phase-1 rows: phase 1 over these few files alone would not
    see the ops tables and callers elsewhere."""
    res = scan.scan(folder, folder, jobs=req.jobs, timeout=req.timeout, facts=facts)
    return res.sites, res.failed


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def summary(runs: list[SeriesRun], result: scan.ScanResult, root: Path, version: str,
            cmdline: str, spatch: str, has_maintainers: bool, no_build: bool,
            left_out: dict[sites.Site, str], left_cleanups: list[split.FileChange],
            companion_rows: list[companions.CompanionVerdict] | None = None) -> str:
    out = io.StringIO()
    w = out.write
    patches = sum(len(r.written.patches) for r in runs if r.written)
    rejected = [(r, v) for r in runs for v in r.verdicts if v.rejected]
    w(f"# ENOTTY series for Linux {version}\n\n")
    w(f"Generated by `{cmdline}` with {spatch}.\n\n")
    w(f"- {series.count(len(result.sites), 'site')} in {series.count(len(result.diffs), 'file')}; "
      f"{result.candidates} of {result.c_files} .c files scanned after the prefilter\n")
    w(f"- {sum(1 for r in runs if r.written)} series, {patches} patches, {len(rejected)} rejected\n")
    w(f"- {len(result.failed)} files spatch could not fully parse or timed out: failed.tsv\n")
    w("- split: " + ("MAINTAINERS sections (tools/enotty/partition/split.py)" if has_maintainers
                     else "by path (no MAINTAINERS)") + "\n")
    w("- checks: apply = `git apply` in order on the pristine files; checkpatch = "
      "scripts/checkpatch.pl; build = object build in x86_64 allmodconfig, or where that does not"
      " build a file, on the first platform of tools/enotty/verify/crossbuild.py whose configuration does"
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
    return out.getvalue()
