"""What the in-tree kselftests printed in the two boots: TAP, before/after.

guest-init.sh runs each selected kselftest framed by `ENOTTY-AUDIT: BEGIN
kselftest NAME` and `END kselftest NAME rc=N` (enotty.kernel.qemu.Section).
Inside, kselftest.h and kselftest_harness.h print TAP: `ok N name`,
`not ok N name`, `ok N name # SKIP why` (also `ok N # SKIP why`); a
program that prints no TAP is judged by its exit status alone.

The verdict: a kselftest (or one of its TAP cases) that passes on the
pristine kernel and fails, times out or vanishes with the series applied
means the series must update that test in the same patch, or leave the
site alone with the reason in SUMMARY.md.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..kernel import tap
from .kselftests import Kselftest, Selection

KSFT_SKIP = 4
# busybox timeout kills with SIGTERM: the shell sees 143; coreutils says 124.
TIMEOUT_RCS = (124, 143)


@dataclass
class Run:
    """One kselftest in one boot."""
    name: str
    rc: int | None                      # None: no END marker (the guest stopped inside)
    cases: dict[str, str] = field(default_factory=dict)     # case -> tap.cases()' verdicts
    secs: int | None = None             # its run time in the guest

    @property
    def status(self) -> str:
        if self.rc is None:
            return "unfinished"
        if self.rc in TIMEOUT_RCS:
            return "timeout"
        if self.rc == KSFT_SKIP:
            return "skip"
        return "pass" if self.rc == 0 else "fail"

    def counts(self) -> str:
        if not self.cases:
            return "no TAP"
        n = {k: sum(1 for v in self.cases.values() if v == k) for k in ("pass", "fail", "skip", "xfail")}
        return ", ".join(f"{v} {k}" for k, v in n.items() if v or k in ("pass", "fail"))

    def summary(self, timed: bool = False) -> str:
        """status (counts, exit status); timed: with the run time too, for
        the log only -- AUDIT.md is committed, and the seconds vary."""
        detail = [self.counts()]
        if self.rc is not None:
            detail.append(f"exit {self.rc}")
        if timed and self.secs is not None:
            detail.append(f"{self.secs} s")
        return f"{self.status} ({', '.join(detail)})"


def parse(name: str, lines: list[str], rc: int | None, secs: int | None = None) -> Run:
    """The TAP cases of one framed section (enotty.kernel.tap reads them)."""
    return Run(name, rc, cases=tap.cases(lines), secs=secs)


def runs(sections) -> dict[str, Run]:
    """name -> Run for every kselftest section of a boot (bootlog.Boot.sections)."""
    return {s.name: parse(s.name, s.lines, s.rc, s.secs) for s in sections if s.kind == "kselftest"}


def problems(selected: list[Kselftest], before: dict[str, Run], after: dict[str, Run]) -> list[str]:
    """One line per kselftest that passed before and fails after."""
    out = []
    for row in selected:
        old, new = before.get(row.name), after.get(row.name)
        if old is None:
            continue
        where = ", ".join(row.sources)
        # A control's source is patched by no series: its failure is a
        # change no patch accounts for (a mutant, a stray hunk).
        todo = (f"{where} is touched by no patch (a control): find the change that broke it"
                if row.how == "control" else
                f"update the test in the patch of {where}, or leave the site alone (SUMMARY.md)")
        if new is None:
            if old.status == "pass":
                out.append(f"kselftest {row.name}: passes on the pristine kernel and did not "
                           f"run with the series")
            continue
        broken = [case for case, res in old.cases.items()
                  if res == "pass" and new.cases.get(case) in ("fail", None)]
        for case in broken:
            got = new.cases.get(case)
            now = "fails" if got == "fail" else f"did not report ({new.summary()})"
            out.append(f"kselftest {row.name}: {case} passes on the pristine kernel and {now} "
                       f"with the series: {todo}")
        if not broken and old.status == "pass" and new.status not in ("pass", "skip"):
            out.append(f"kselftest {row.name}: passes on the pristine kernel, {new.summary()} "
                       f"with the series: {todo}")
    return out


def notes(selected: list[Kselftest], before: dict[str, Run], after: dict[str, Run]) -> list[str]:
    """Not failures, but worth a look: a case that passed and now skips."""
    out = []
    for row in selected:
        old, new = before.get(row.name), after.get(row.name)
        if old is None or new is None:
            continue
        for case, res in old.cases.items():
            if res == "pass" and new.cases.get(case) == "skip":
                out.append(f"kselftest {row.name}: {case} passed on the pristine kernel and "
                           f"skips with the series")
    return out


def md_section(selection: Selection, before: dict[str, Run], after: dict[str, Run],
               found: list[str]) -> list[str]:
    """AUDIT.md's part: which kselftests ran, before -> after, and which not and why."""
    out = ["## In-tree kselftests", "",
           "Kernel kselftests (tools/testing/selftests, built static from the same tree) "
           "that exercise the patched files, run in both boots after the probe "
           "(selftests/audit/kselftests.tsv).", ""]
    if selection.run:
        out += ["| kselftest | exercises | pristine | patched |", "|---|---|---|---|"]
        for row in selection.run:
            old, new = before.get(row.name), after.get(row.name)
            what = ", ".join(row.sources) + (" (untouched control)" if row.how == "control" else "")
            out.append(f"| {row.name} | {what} | {old.summary() if old else 'not run'} | "
                       f"{new.summary() if new else 'not run'} |")
        out.append("")
    else:
        out += ["None ran.", ""]
    mine = [p for p in found if p.startswith("kselftest ")]
    out += ([f"- problem: {p}" for p in mine] if mine else
            ["No kselftest that passes on the pristine kernel fails with the series."])
    out.append("")
    if selection.not_run:
        out += ["Not run:", ""]
        out += [f"- {row.name} ({', '.join(row.sources)}): {why}" for row, why in selection.not_run]
        out.append("")
    return out
