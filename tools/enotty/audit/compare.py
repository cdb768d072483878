"""Before/after comparison of two probe runs, the verdict, audit.tsv and AUDIT.md.

Pure functions over plain records: the runner feeds them what the two
boots printed and what the series claim; nothing here boots or builds.
"""
from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field

from ..render.messages import AUDIT_COLUMNS
from .table import Exception_, Row, source_for  # audit.tsv's columns, read there, written here

TSV_HEADER = "\t".join(AUDIT_COLUMNS)
# The unknown commands every patched handler must answer ENOTTY after its
# series (unlikely: a magic the probe does not know the handler's own
# numbers for; presetup: before the target's setup step).
MUST_BE_ENOTTY = ("foreign", "own")
# Results that are no answer of the handler: the boot did not list the
# target (missing), the probe could not open it (-), the kernel lacks the
# kind of file (absent).
NOT_MEASURED = ("-", "missing", "absent")


@dataclass(frozen=True)
class Answer:
    """What one target answered to one command under one ABI."""
    target: str
    driver: str | None
    command: str
    abi: str            # native | compat
    harmless: bool      # the known harmless smoke-check command
    result: str         # errno name or "0"; "-" when the target could not be opened


@dataclass(frozen=True)
class Claim:
    """What the series says a patched source file changes for user space."""
    source: str
    patch: str                  # patch file relative to the output folder
    series: str
    functions: tuple[str, ...]  # the handlers it changes, and the ops functions that call them
    visible: bool               # False: a leaf -ENOIOCTLCMD -> ENOTTY cleanup
    old: tuple[str, ...]        # the answers user space saw before (EINVAL...)
    # The message says a check before the dispatch (a state or argument
    # check: ppdev's unclaimed port, test_hmm's range) answers first, so a
    # probe may well see the old answer: an unchanged answer is no problem.
    conditional: bool = False


@dataclass
class Line:
    target: str
    source: str
    function: str
    command: str
    abi: str
    before: str
    after: str
    patch: str
    harmless: bool

    @property
    def changed(self) -> bool:
        return self.before != self.after

    def patched(self, claims: dict[str, Claim]) -> bool:
        """Whether a patch changes this line's handler: its file is
        patched, and the function the table names (if one) is among the
        patch's (userfaultfd_ioctl() is left out where
        userfaultfd_dev_ioctl() of the same file changes)."""
        claim = claims.get(self.source)
        return claim is not None and (self.function in ("-", "") or "," in self.function
                                      or self.function in claim.functions)

    @property
    def check(self) -> str:
        """The probe's check: `own` of `own:FD_UNUSED`."""
        return self.command.partition(":")[0]

    def tsv(self) -> str:
        return "\t".join(getattr(self, column) for column in AUDIT_COLUMNS)


def compare(before: list[Answer], after: list[Answer], rows: dict[str, Row],
            claims: dict[str, Claim], prefix: str = "") -> list[Line]:
    """One line per (target, command, abi) seen in either boot, in a stable
    order; a side that did not see it shows `missing`.  rows are the
    guest's own (their globs match the probe's names); prefix goes before
    each target in the lines (another guest's name: `[s390x] /dev/clp`)."""
    key = lambda a: (a.target, a.command, a.abi)  # noqa: E731
    old = {key(a): a for a in before}
    new = {key(a): a for a in after}
    lines = []
    for k in sorted(set(old) | set(new)):
        a = new.get(k) or old[k]
        match = source_for(rows, a.target, a.driver)
        source, function = match if match else ("-", None)
        claim = claims.get(source)
        if function is None:
            function = ",".join(claim.functions) if claim else "-"
        line = Line(target=prefix + a.target, source=source, function=function, command=a.command,
                    abi=a.abi, before=old[k].result if k in old else "missing",
                    after=new[k].result if k in new else "missing", patch="-", harmless=a.harmless)
        if claim and line.patched(claims):
            line.patch = claim.patch
        lines.append(line)
    return lines


def problems(lines: list[Line], claims: dict[str, Claim]) -> list[str]:
    """The verdict: one message per problem, empty when the audit passes."""
    out = []
    for line in lines:
        # A target that only one boot listed (a legacy pty, a numbering) is
        # no answer that changed: one_boot_only() lists it for AUDIT.md.
        if not line.changed or "missing" in (line.before, line.after):
            continue
        where = f"{line.target} ({line.abi}, {line.command})"
        if line.harmless:
            out.append(f"{where}: the known harmless command changed its answer "
                       f"{line.before} -> {line.after}")
        elif not line.patched(claims):
            who = ("its source is unknown" if line.source == "-" else
                   f"{line.source} is not patched" if line.source not in claims else
                   f"{line.function}() in {line.source} is not patched")
            out.append(f"{where}: answer changed {line.before} -> {line.after}, "
                       f"but no applied patch touches it ({who})")
    for source, claim in sorted(claims.items()):
        measured = [ln for ln in lines if ln.source == source and ln.patched(claims) and not ln.harmless
                    and ln.before not in NOT_MEASURED and ln.after not in NOT_MEASURED]
        if not measured:
            continue
        changed = [ln for ln in measured if ln.changed]
        targets = ", ".join(sorted({ln.target for ln in measured}))
        if claim.visible and not changed and not claim.conditional:
            answers = ", ".join(sorted({ln.before for ln in measured}))
            out.append(f"{claim.patch}: claims a user-visible change in {source}, but every "
                       f"probe of {targets} answers the same before and after ({answers})")
        if not claim.visible and changed:
            ln = changed[0]
            out.append(f"{claim.patch}: says {source} changes nothing user space sees, but "
                       f"{ln.target} ({ln.abi}, {ln.command}) now answers {ln.after} "
                       f"(was {ln.before})")
    return out


def excused(line: Line, exceptions: list[Exception_]) -> Exception_ | None:
    """The documented exception that covers a line, if any."""
    for ex in exceptions:
        if (ex.source == line.source and fnmatch.fnmatchcase(line.target, ex.target)
                and ex.check == line.check and ex.abi in ("*", line.abi)):
            return ex
    return None


def not_enotty(lines: list[Line], claims: dict[str, Claim],
               exceptions: list[Exception_]) -> list[str]:
    """One problem per patched handler that still answers an unknown command
    of the foreign or own class with something else than ENOTTY after its
    series, on either ABI, unless an exception documents why."""
    bad: dict[tuple[str, str], list[str]] = {}
    for ln in lines:
        if (not ln.patched(claims) or ln.check not in MUST_BE_ENOTTY or ln.harmless
                or ln.after in NOT_MEASURED or ln.after == "ENOTTY" or excused(ln, exceptions)):
            continue
        answer = f"{ln.target} {ln.check}/{ln.abi}={ln.after}"
        bad.setdefault((ln.function, ln.source), [])
        if answer not in bad[(ln.function, ln.source)]:
            bad[(ln.function, ln.source)].append(answer)
    out = []
    for (function, source), answers in sorted(bad.items()):
        more = f" and {len(answers) - 3} more" if len(answers) > 3 else ""
        out.append(f"{function} ({source}) answers an unknown command with something else "
                   f"than ENOTTY after {claims[source].patch}: {', '.join(answers[:3])}{more}")
    return out


def one_boot_only(lines: list[Line]) -> list[str]:
    """Targets that only one of the two boots listed."""
    out = []
    for target in sorted({ln.target for ln in lines if "missing" in (ln.before, ln.after)}):
        side = next(("pristine" if ln.after == "missing" else "patched")
                    for ln in lines if ln.target == target and "missing" in (ln.before, ln.after))
        out.append(f"{target}: seen in the {side} boot only")
    return out


def partial(lines: list[Line], claims: dict[str, Claim]) -> list[str]:
    """Not failures, but worth a reviewer's eye: a patch whose change shows
    on some probes of its file while others still give the old answer
    (another path, a guard before the switch, the other ABI)."""
    out = []
    for source, claim in sorted(claims.items()):
        # presetup: before the target's setup step, where the state check
        # answers, not the dispatch the patch changes
        mine = [ln for ln in lines if ln.source == source and ln.patched(claims) and not ln.harmless
                and ln.check != "presetup"
                and ln.before not in NOT_MEASURED and ln.after not in NOT_MEASURED]
        if not claim.visible or not any(ln.changed for ln in mine):
            continue
        for ln in mine:
            if not ln.changed and ln.after in claim.old:
                out.append(f"{claim.patch}: {ln.target} ({ln.abi}, {ln.command}) still "
                           f"answers {ln.after}")
    return out


def write_tsv(lines: list[Line]) -> str:
    return TSV_HEADER + "\n" + "".join(ln.tsv() + "\n" for ln in lines)


@dataclass
class SourceStatus:
    """Why a patched file was or was not audited, for AUDIT.md."""
    source: str
    audited: bool
    why: str
    lines: list[Line] = field(default_factory=list)


def source_statuses(claims: dict[str, Claim], rows: dict[str, Row], lines: list[Line],
                    dropped: dict[str, list[str]], underivable: dict[str, str]) -> dict[str, SourceStatus]:
    """source -> its status: measured, or the first reason it was not."""
    out = {}
    for source in claims:
        row = rows.get(source)
        mine = [ln for ln in lines if ln.source == source]
        if row is None:
            status = SourceStatus(source, False, "not in selftests/audit/instantiate.tsv")
        elif not row.audit:
            status = SourceStatus(source, False, row.reason)
        elif source in underivable:
            status = SourceStatus(source, False, underivable[source])
        elif source in dropped:
            status = SourceStatus(source, False, "Kconfig dropped " + "; ".join(dropped[source]))
        elif not any(ln.before not in NOT_MEASURED and ln.after not in NOT_MEASURED
                     for ln in mine if not ln.harmless):
            seen = "no probe target matched " + " ".join(
                p.glob + (f"@{p.driver}" if p.driver else "") for p in row.targets)
            if mine:
                seen = "the probe could not open " + ", ".join(sorted({ln.target for ln in mine}))
            status = SourceStatus(source, False, f"not instantiated: {seen}", mine)
        else:
            status = SourceStatus(source, True, row.reason, mine)
        out[source] = status
    return out


def _summary(lines: list[Line]) -> str:
    """`/dev/fd0 native: EINVAL -> ENOTTY; compat: ...` over the unknown commands."""
    parts = []
    for target in sorted({ln.target for ln in lines}):
        for abi in ("native", "compat"):
            mine = [ln for ln in lines if ln.target == target and ln.abi == abi and not ln.harmless]
            if not mine:
                continue
            pairs = sorted({f"{ln.before} -> {ln.after}" if ln.changed else f"{ln.before} (no change)"
                            for ln in mine})
            parts.append(f"{target} {abi}: {', '.join(pairs)}")
    return "; ".join(parts)


def exceptions_md(lines: list[Line], exceptions: list[Exception_]) -> list[str]:
    """AUDIT.md's list of the documented exceptions that covered a measured line."""
    used = [ex for ex in exceptions if any(excused(ln, [ex]) for ln in lines
                                           if ln.after not in NOT_MEASURED and ln.after != "ENOTTY")]
    if not used:
        return []
    out = ["## Exceptions", "",
           "Patched handlers that still answer an unknown command with something else than "
           "ENOTTY after their series, and why (selftests/audit/exceptions.tsv):", ""]
    for ex in used:
        answers = sorted({f"{ln.abi} {ln.after}" for ln in lines if excused(ln, [ex])
                          and ln.after not in NOT_MEASURED})
        out.append(f"- {ex.source}: {ex.target} ({ex.check}, {ex.abi}: {', '.join(answers)}): "
                   f"{ex.reason}")
    return out + [""]


def audit_md(version: str, series: dict[str, list[str]], claims: dict[str, Claim],
             statuses: dict[str, SourceStatus], found: list[str], kernel_note: str,
             notes: list[str] | None = None, sections: list[str] | None = None) -> str:
    """AUDIT.md: per series and per patch, audited or not and why;
    sections: further Markdown lines (the kselftests) before the series."""
    audited = [s for s in statuses.values() if s.audited]
    out = [f"# Runtime audit of the series for linux-{version}", "",
           kernel_note, "",
           f"Patched source files: {len(statuses)}; audited at runtime: {len(audited)}.", ""]
    if found:
        out += ["## Problems", ""] + [f"- {p}" for p in found] + [""]
    else:
        out += ["Verdict: every audited patch shows the change its message claims, and no "
                "untouched target changed its answer.", ""]
    if notes:
        out += ["## Partial changes", "",
                "Probes of a patched file that still give the old answer after the series "
                "(another path, a guard before the changed line, the other ABI):", ""]
        out += [f"- {n}" for n in notes] + [""]
    out += sections or []
    for name in sorted(series):
        patches = series[name]
        mine = [c for c in claims.values() if c.series == name]
        n_aud = len({c.patch for c in mine if statuses[c.source].audited})
        out += [f"## {name}", "", f"{n_aud} of {len(patches)} patches audited.", ""]
        for patch in patches:
            files = [c for c in mine if c.patch == patch]
            out.append(f"- {patch}")
            for claim in files:
                st = statuses[claim.source]
                if st.audited:
                    out.append(f"  - {claim.source}: audited ({st.why}): {_summary(st.lines)}")
                else:
                    out.append(f"  - {claim.source}: not audited: {st.why}")
        out.append("")
    return "\n".join(out)
