"""The verify stage's result: a verdict per patch (Verdict), per companion
patch (CompanionVerdict), the series that go out (Outcome) and all of it
together (Checked), which the write stage only serialises."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Mapping

from ..kernel.build import FAILED, OK, SKIPPED, Check
from ..partition import split
from ..render import series
from ..render.drafts import Composed, Draft


@dataclass(frozen=True)
class Verdict:
    """What SUMMARY.md says about one patch."""
    draft: Draft                   # its patch addressed (to, cc) once it applied
    apply: Check
    checkpatch: Check = Check(SKIPPED)
    build: Mapping[str, Check] = field(default_factory=dict)
    fixpoint: Mapping[str, Check] = field(default_factory=dict)

    @property
    def patch(self) -> series.Patch:
        return self.draft.patch

    @property
    def mail(self) -> series.Mail | None:
        """The mail as checked (OUT/rejected/ keeps it when rejected)."""
        return self.draft.mail

    @property
    def rejected(self) -> str:
        """'' when the patch goes out, else why not."""
        if self.apply.status != OK:
            return "does not apply: " + self.apply.detail
        if self.checkpatch.status == FAILED:
            return "checkpatch: " + self.checkpatch.detail
        bad = [f"{rel}" + (f" ({c.arch})" if c.arch else "") + f": {c.detail}"
               for rel, c in sorted(self.build.items()) if c.status == FAILED]
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
        bad = [f"{r}: {c.detail}" for r, c in sorted(self.fixpoint.items()) if c.status != OK]
        return "; ".join(bad) if bad else ("ok" if self.fixpoint else "-")


@dataclass(frozen=True)
class CompanionVerdict:
    """SUMMARY.md's row of a companion patch: checked like the others."""
    series: str
    filename: str
    files: int
    checkpatch: Check
    build: Check


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
class Checked:
    """The verify stage's result: per series plan, per patch, its verdict;
    once the verdicts are in, the series as they go out (outgoing.py), the
    companion patches' rows and the semantic patch's one-patch series."""
    composed: Composed
    verdicts: tuple[tuple[Verdict, ...], ...]   # per series plan, per patch
    outcomes: tuple[Outcome, ...] = ()
    companions: tuple[CompanionVerdict, ...] = ()
    rule: series.Mail | None = None             # the semantic patch's one-patch series

    @property
    def runs(self) -> Iterator[tuple[split.SeriesPlan, tuple[Verdict, ...]]]:
        return zip(self.composed.grouped.plans, self.verdicts)

