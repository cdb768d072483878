"""The render stage: every patch's subject and commit message, built once,
with the QEMU audit's "Tested in QEMU" line where an earlier output folder
holds audit.tsv (messages.py words them, cleanup.py the leaf cleanups,
prefixes.py the subject prefixes); the companion patches sent beside
the series, the semantic patch and the media kselftest (companions.py);
then each series applied in order and formatted as mails, in memory
(series.format_mails), and every mail addressed as get_maintainer.pl says
(recipients.address), so that the verify stage only checks them."""
from __future__ import annotations

import dataclasses
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from ..find import interfaces
from ..judge import handlers
from ..judge.analysis import Analysed
from ..partition import split
from ..partition.grouping import Grouped
from . import cleanup, companions, messages, recipients, series
from ..requests import Identity, KernelTree, default_jobs


@dataclass(frozen=True)
class Draft:
    """One patch as composed: its message is final (the QEMU line included);
    once its series is formatted, its mail and its recipients (on patch)."""
    patch: series.Patch
    prefix: str               # its subject prefix (`watchdog: softdog:`)
    tested: bool = False      # the message says what the QEMU audit measured
    measured: bool = False    # audit rows name it (a cleanup: measured, no line)
    mail: series.Mail | None = None   # as formatted in its series, before its headers get To/Cc
    error: str = ""           # why it does not apply ('' when it does: then mail is set)


@dataclass(frozen=True)
class Composed:
    grouped: Grouped
    drafts: tuple[tuple[Draft, ...], ...]   # per series plan, per patch
    audit: tuple[Mapping[str, str], ...] | None   # audit.tsv's rows; None without an audit
    companions: companions.Companions = companions.Companions()   # sent beside the series, addressed
    patched: Mapping[str, bytes] = field(default_factory=dict)   # rel -> the file as the patches leave it
    formatted: tuple[series.Formatted, ...] = ()   # per series plan, as git wrote it (series.finish)


def compose(kernel: KernelTree, identity: Identity, grouped: Grouped,
            audit_from: Path | None = None) -> Composed:
    """Every patch's subject and commit message, built once, signed off by
    identity, with the QEMU line where audit_from holds an audit; the
    companion patches the tree takes (the kselftest only beside a media
    series); each series applied in order to the pristine files and
    formatted (a patch that does not apply keeps git's reason); every mail
    and companion patch addressed."""
    audit = read_audit(audit_from)
    drafts = []
    for plan, names in zip(grouped.plans, grouped.prefixes):
        drafts.append(tuple(_draft(str(identity), grouped.analysed, plan, pp, prefix, audit)
                            for pp, prefix in zip(plan.patches, names)))
    media = any(plan.name == split.MEDIA_SERIES for plan in grouped.plans)
    extra = companions.compose(kernel.root, identity, media)
    # the media series as it goes out: its kselftest last.  Each series in
    # a scratch repository of its own, as many at once as we may use CPUs:
    # git and Python take one core each, and a cold run has 47 series.
    with ThreadPoolExecutor(max_workers=default_jobs()) as pool:
        formatted = list(pool.map(
            lambda plan, mine: series.format_mails(kernel, plan, [d.patch for d in mine] + _beside(plan, extra),
                                                   identity),
            grouped.plans, drafts))
    tests = [(f.mails[-1], f.errors[-1]) for plan, f in zip(grouped.plans, formatted) if _beside(plan, extra)]
    if any(error for _mail, error in tests):
        raise series.SeriesError(f"the kselftest patch does not apply: {tests[0][1]}")
    extra = dataclasses.replace(extra, selftest_mail=tests[0][0] if tests else None)
    mails = [m for f, mine in zip(formatted, drafts) for m in f.mails[:len(mine)] if m is not None]
    people, extra = recipients.address(kernel, [m.text for m in mails], extra)
    to_cc = dict(zip((id(m) for m in mails), people))
    addressed = tuple(
        tuple(dataclasses.replace(d, error=error) if mail is None else
              dataclasses.replace(d, mail=mail, patch=dataclasses.replace(d.patch, to=to_cc[id(mail)][0],
                                                                          cc=to_cc[id(mail)][1]))
              for d, mail, error in zip(mine, f.mails, f.errors))
        for mine, f in zip(drafts, formatted))
    patched = {rel: f.files[rel] for f, mine in zip(formatted, drafts) for d in mine for rel in d.patch.plan.paths
               if rel in f.files}
    return Composed(grouped, addressed, None if audit is None else tuple(audit), extra, patched, tuple(formatted))


def _beside(plan: split.SeriesPlan, extra: companions.Companions) -> list[series.Patch]:
    """The companion patches a series carries: the media series its kselftest."""
    return [extra.selftest] if plan.name == split.MEDIA_SERIES and extra.selftest else []


def _draft(signoff: str, analysed: Analysed, plan: split.SeriesPlan, pp: split.PatchPlan,
           prefix: str, audit: list[dict[str, str]] | None) -> Draft:
    if pp.cleanup:
        msg = cleanup.commit_message(prefix, pp.sites, signoff, alone=len(plan.patches) == 1)
        subject = msg.split("\n", 1)[0]
        mine = _audit_rows(audit or [], plan.name, series.mail_name(1, subject))
        return Draft(series.Patch(pp, subject, msg), prefix, measured=bool(mine))
    subject = messages.subject(prefix, pp.sites, handlers.named_in_subject(pp.sites, analysed.model))
    mine = _audit_rows(audit or [], plan.name, series.mail_name(1, subject))
    # the rows name the patch as the audit did (its number may differ)
    tested = messages.tested_line(mine, mine[0]["patch"]) if mine else ""
    answers = handlers.kept_answers(analysed.model)
    msg = messages.commit_message(subject, handlers.without_kept(pp.sites, answers), interfaces.by_name(), sorted({s.rule for s in pp.sites}), signoff,
                                  tested=tested, docs=[d.path for d in pp.docs],
                                  changed_type=messages.changed_type(mine) if tested else "",
                                  kept=handlers.caveats(pp.sites, analysed.model)
                                  + handlers.kept_answer_sentences(pp.sites, answers)
                                  + handlers.kept_siblings(pp.sites, analysed.model)
                                  + messages.helped_sentences(handlers.helped_consumers(pp.sites))
                                  + messages.unaffected_sentences([u for f in pp.files for u in f.unaffected]),
                                  notes=[n for f in pp.files for n in f.notes],
                                  guards=tuple(dict.fromkeys(g for f in pp.files for g in f.guards)),
                                  guard_reads=tuple(dict.fromkeys(r for f in pp.files for r in f.guard_reads)),
                                  cites=tuple(dict.fromkeys(c for f in pp.files for c in f.cites)),
                                  answers_kept=frozenset(s.function for s in answers))
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
