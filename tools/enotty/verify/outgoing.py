"""The series as they go out, once the verdicts are in: each series'
mails as the render stage formatted them (formatted again, in memory,
without the patches that failed) with a cover letter that says how they
were checked (cover_blurb) and addressed to everyone its patches go to; the rows of the companion patches that go with them (checked in
verify.companion_verdicts).  The write stage only serialises the result."""
from __future__ import annotations

import dataclasses

from typing import Mapping

from ..find.sites import Site
from ..judge import handlers
from ..partition import source_facts, split
from ..render import cleanup, cover_text, messages, rule_reach, series
from . import crossbuild, verify
from .verdicts import Checked, CompanionVerdict, Outcome, Verdict
from ..requests import Identity, KernelTree


def mail_out(kernel: KernelTree, identity: Identity, no_build: bool, checked: Checked,
             extra: list[CompanionVerdict]) -> Checked:
    """checked with each series' accepted patches as mails, addressed and
    covered, and the rows of the companion patches that go out (extra:
    their verdicts, verify.companion_verdicts)."""
    composed = checked.composed
    accepted_plans = [dataclasses.replace(plan, patches=[v.patch.plan for v in verdicts if not v.rejected])
                      for plan, verdicts in checked.runs]
    prefix_of = {id(d.patch.plan): d.prefix for drafts in composed.drafts for d in drafts}
    titles = series.cover_prefixes([p for p in accepted_plans if p.patches], lambda pp: prefix_of[id(pp)])
    # The media series carries its kselftest, last (render/companions.py).
    media = any(p.name == split.MEDIA_SERIES and p.patches for p in accepted_plans)
    accepted_of = [[v for v in verdicts if not v.rejected] for _plan, verdicts in checked.runs]
    # addressed by the render stage; the kselftest goes out with a media series only
    test, rule = composed.companions.selftest if media else None, composed.companions.rule
    # drivers by the modules the handler model names; the rule's count where the rule goes out
    model = composed.grouped.analysed.model
    modules = handlers.modules(model)
    blurbs = [cover_blurb(plan, accepted, kernel.version, no_build, composed.audit is not None, modules,
                          _rule_count(kernel, accepted) if rule is not None else None,
                          kept=handlers.kept_in_modules(kernel.root, model, _changed(accepted), modules))
              if accepted else ""
              for (plan, _verdicts), accepted in zip(checked.runs, accepted_of)]
    outcomes = []
    for (plan, verdicts), accepted, blurb, raw in zip(checked.runs, accepted_of, blurbs, composed.formatted):
        if not accepted:
            outcomes.append(Outcome(plan, verdicts))
            continue
        # the cover goes to everyone its patches go to
        to = series.union([v.patch.to for v in accepted])
        cc = series.union([v.patch.cc for v in accepted], to)
        sent = [v.patch for v in accepted]
        if plan.name == split.MEDIA_SERIES and test is not None:
            # addressed as its own diff routes it (the media section it joins: linux-media),
            # not to every list of the series (av7110's linux-staging)
            sent.append(test)
        subject = messages.subject(titles[plan.name], [s for v in accepted for s in v.patch.plan.sites])
        cover = series.Cover(subject, blurb, tuple(to), tuple(cc))
        # every patch passed: the mails the render stage formatted go out as they are,
        # covered and addressed; else the series is numbered again without the others
        mails = (series.finish(raw, sent, cover, composed.grouped.base) if len(accepted) == len(verdicts) else
                 series.format_mails(kernel, plan, sent, identity, cover, composed.grouped.base))
        if any(mails.errors):   # each applied in the first pass: cannot happen
            raise series.SeriesError(f"{plan.name}: a checked patch no longer applies: {' '.join(mails.errors)}")
        outcomes.append(Outcome(plan, verdicts, mails, tuple(sent)))
    # the kselftest row names its mail as the media series goes out
    tests = [m for o in outcomes if o.plan.name == split.MEDIA_SERIES and o.mails
             for m in o.mails.written if "-selftests-" in m.name]
    rows = [row if row.series != split.MEDIA_SERIES else dataclasses.replace(row, filename=tests[0].name)
            for row in extra if row.series != split.MEDIA_SERIES or tests]
    return dataclasses.replace(checked, outcomes=tuple(outcomes), companions=tuple(rows), rule=rule)


# ---------------------------------------------------------------- the cover letter

def cover_blurb(plan: split.SeriesPlan, accepted: list[Verdict], version: str, no_build: bool,
                has_audit: bool, modules: Mapping[str, str] | None = None,
                rule_reports: int | None = None,
                kept: Mapping[str, list[tuple[str, str]]] | None = None) -> str:
    """The cover letter's text: what the series does for its drivers
    (modules: file -> the module the handler model names), how it was
    checked and measured, and how many of its exits the semantic patch
    sent upstream reports (rule_reports; None when no rule goes out);
    kept: module -> the handlers of it the series leaves (name, why)."""
    # a cleanup is measured too (no change, as it says) but carries no tested line
    audited = sum(1 for v in accepted if v.draft.tested and not v.patch.plan.cleanup) if has_audit else None
    cleanups_audited = sum(1 for v in accepted if v.draft.measured and v.patch.plan.cleanup)
    # patches without sites (a companion test or documentation patch) are
    # not conversions: they say what they are themselves
    behavioural = [v for v in accepted if not v.patch.plan.cleanup and v.patch.plan.sites]
    changed = _changed(behavioural)
    paras = []
    if changed:
        # luo: guards in functions that answer the other commands already
        partial = {f.path for v in behavioural for f in v.patch.plan.files
                   if f.guards and all(site.rule == source_facts.GUARD_RULE for site in f.sites)}
        paras.append(cover_text.opening(cover_text.drivers(changed, modules or {}, kept, partial)))
    cleanups = [v for v in accepted if v.patch.plan.cleanup]
    if cleanups:
        paras.append(cleanup.cover_note(cleanups[0].patch.plan.sites, len(accepted), alone=not changed))
    checked = (f"Each {'handler ' if plan.name == split.MEDIA_SERIES else ''}patch applies in order"
               f" to Linux {version}")
    warns = [v for v in accepted if v.checkpatch.detail]
    checked += (" and" if no_build else ",") + " passes checkpatch" + (f" ({series.count(len(warns), 'patch')} with warnings)"
                                        if warns else "")
    if not no_build:
        not_built = sorted({rel for v in accepted for rel, chk in v.build.items()
                            if chk.status == verify.NOT_BUILT})
        built = [(rel, chk.arch) for v in accepted for rel, chk in v.build.items()
                 if chk.status == verify.OK and chk.arch]
        forced = sorted((rel, arch) for rel, arch in built if crossbuild.FORCED in arch)
        built_in = sorted({arch for _, arch in built if crossbuild.FORCED not in arch} | (
            {crossbuild.X86_64} if forced else set()), key=lambda a: (a != crossbuild.X86_64, a))
        checked += (" and builds in an x86_64 allmodconfig kernel" if built_in in ([], [crossbuild.X86_64]) else
                    " and builds for the architectures that compile it ("
                    + ", ".join(crossbuild.config_name(a) for a in built_in) + ")") + (
            f" ({_join_words(not_built)} {'is' if len(not_built) == 1 else 'are'} not built there)"
            if not_built else "") + "".join(
            f" ({rel} with {arch.split(crossbuild.FORCED, 1)[1]} given to make, since Kconfig"
            " sets that only with a Rust toolchain, which this build did not have; the file does not"
            " test the symbol)"
            for rel, arch in forced)
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
        # the test drives vivid's and vimc's nodes: of the series' handlers
        # it reaches vivid's own only
        vivid = sorted({f"{s.function}()" for v in accepted for s in v.patch.plan.sites
                        if s.file.startswith(VIVID_FOLDER)})
        paras.append("The last patch adds a kselftest, tools/testing/selftests/drivers/media/ioctl_errno,"
                     " that checks what the nodes of the vivid and vimc test drivers answer to unknown"
                     " commands, native and, where the compiler builds -m32 programs, 32-bit"
                     + (f"; of this series' handlers it reaches {_join_words(vivid)} only" if vivid else "")
                     + ". It passes checkpatch and builds with the kernel's kselftest make.")
    if rule_reports is not None and changed:
        paras.append(cover_text.rule_sentence(rule_reports, len(_exits(changed))))
    return messages.wrap("\n\n".join(paras))


VIVID_FOLDER = "drivers/media/test-drivers/vivid/"


def _changed(accepted: list[Verdict]) -> list[Site]:
    """The sites of the patches that change what user space sees."""
    return [site for v in accepted if not v.patch.plan.cleanup for site in v.patch.plan.sites]


def _exits(sites: list[Site]) -> set[tuple[str, int]]:
    """The lines a series changes, each once."""
    return {(s.file, s.line) for s in sites}


def _rule_count(kernel: KernelTree, accepted: list[Verdict]) -> int:
    """How many of the series' converted exits the upstream rule reports."""
    changed = [s for v in accepted if not v.patch.plan.cleanup for s in v.patch.plan.sites]
    return rule_reach.reported(kernel.root, changed, use_cache=kernel.use_cache)


def _join_words(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
