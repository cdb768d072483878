"""Read the QEMU selftest run's console: TAP of the selftests,
v4l2-compliance, crashes, and the verdict.

selftests/qemu/init.sh frames every program's output with ENOTTY-QEMU
markers (enotty.kernel.qemu.frames reads them): run_kselftest.sh's as a
`kselftest` section, whose TAP nests the output of the programs the media
test's wrapper runs (kselftest_programs); enotty.kernel.tap reads the TAP.
Everything here is pure: text in, data out.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..kernel import tap
from ..kernel import qemu
from ..kernel.qemu import Section

MARKER = "ENOTTY-QEMU:"

_COMPLIANCE_TOTAL = re.compile(
    r"^Total for .*?: (\d+), Succeeded: (\d+), Failed: (\d+), Warnings: (\d+)")
_INVALID_IOCTLS = re.compile(r"^\s*test invalid ioctls: (\S+)")


@dataclass
class ComplianceResult:
    total: int | None
    failed: int | None
    warnings: int | None
    invalid_ioctls: str | None   # "OK", "FAIL", or None if the test did not run


def sections(text: str) -> list[Section]:
    """The framed sections, in order; an unterminated one keeps rc=None."""
    return qemu.frames(text, MARKER)


def parse_compliance(lines: list[str]) -> ComplianceResult:
    """v4l2-compliance's totals line and its `test invalid ioctls` verdict."""
    total = failed = warnings = None
    invalid = None
    for line in lines:
        m = _COMPLIANCE_TOTAL.match(line)
        if m:
            total, failed, warnings = int(m.group(1)), int(m.group(3)), int(m.group(4))
            continue
        m = _INVALID_IOCTLS.match(line)
        if m:
            # Several inputs/outputs repeat the test; one FAIL spoils it.
            if invalid != "FAIL":
                invalid = m.group(1)
    return ComplianceResult(total, failed, warnings, invalid)


def find_crash(text: str) -> str | None:
    """The first console line that shows a panic, oops, BUG or WARN."""
    found = qemu.trouble(text)
    return found[0] if found else None


# run_kselftest.sh prefixes each line a test prints with "# " (kselftest/
# runner.sh's tap_prefix); the media test's wrapper prints "# running NAME"
# before each program it runs.
_PREFIX = "# "
_RUNNING = re.compile(r"^# running (\S+)$")


def kselftest_programs(lines: list[str]) -> list[tuple[str, list[str]]]:
    """(program, its own output) for each program the wrapper ran, in
    order, from run_kselftest.sh's output."""
    out: list[tuple[str, list[str]]] = []
    for line in lines:
        if not line.startswith(_PREFIX):
            continue
        inner = line[len(_PREFIX):]
        m = _RUNNING.match(inner)
        if m:
            out.append((m.group(1), []))
        elif out:
            out[-1][1].append(inner)
    return out


def kselftest_results(lines: list[str]) -> dict[str, str]:
    """run_kselftest.sh's own verdict per test ('selftests: drivers/media:
    ioctl_errno.sh' -> pass, skip, fail): its unprefixed TAP lines."""
    return tap.cases([line for line in lines if not line.startswith("#")])


def programs(secs: list[Section]) -> list[tuple[str, list[str]]]:
    """Every selftest program's output, from each kselftest section."""
    return [prog for sec in secs if sec.kind == "kselftest" for prog in kselftest_programs(sec.lines)]


def selftest_cases(secs: list[Section]) -> dict[str, str]:
    """All selftest cases of all programs, named `program:case`."""
    out: dict[str, str] = {}
    for name, lines in programs(secs):
        for case, status in tap.cases(lines).items():
            out[f"{name}:{case}"] = status
    return out


def changed_cases(before: dict[str, str], after: dict[str, str]) -> list[tuple[str, str, str]]:
    """(case, before, after) for every case whose status differs, sorted."""
    names = sorted(set(before) | set(after))
    return [(n, before.get(n, "absent"), after.get(n, "absent"))
            for n in names if before.get(n, "absent") != after.get(n, "absent")]


@dataclass
class Verdict:
    ok: bool
    reasons: list[str]


def judge(text: str, qemu_rc: int | None, expected_selftests: tuple[str, ...],
          compliance_baseline: dict[str, int] | None = None) -> Verdict:
    """Whether a run passed, with a reason for every problem found.

    qemu_rc: QEMU's exit status, None after a timeout.  isa-debug-exit
    makes QEMU exit with (value << 1) | 1; /init writes 0 when it is done.
    compliance_baseline: v4l2-compliance failures per node on the pristine
    kernel; a patched kernel must not fail more (Debian's v4l-utils is older
    than the kernel, so some failures are expected on both).
    """
    reasons: list[str] = []
    if qemu_rc is None:
        reasons.append("QEMU timed out: the guest hung")
    elif qemu_rc != 1:
        reasons.append(f"QEMU exited with {qemu_rc}, not through isa-debug-exit from /init "
                       "(kernel panic or reboot?)")
    if qemu_rc is not None and not qemu.finished(text, MARKER):
        reasons.append("/init did not reach its end marker")
    crash = find_crash(text)
    if crash:
        reasons.append(f"kernel trouble on the console: {crash}")
    secs = sections(text)
    reasons += kselftest_problems(secs)
    ran = dict(programs(secs))
    for name in expected_selftests:
        if name not in ran:
            reasons.append(f"selftest {name} did not run")
            continue
        result = tap.read(ran[name])
        failed = sorted(n for n, s in result.cases.items() if s in ("fail", "error"))
        if result.totals is None:
            reasons.append(f"selftest {name} printed no totals line (crashed?)")
        elif result.totals["fail"] or result.totals["error"]:
            reasons.append(f"selftest {name}: {result.totals['fail']} failed, "
                           f"{result.totals['error']} errors")
        for case in failed:
            reasons.append(f"selftest {name}: not ok {case}")
    for sec in secs:
        if sec.kind != "compliance":
            continue
        res = parse_compliance(sec.lines)
        if res.invalid_ioctls is None:
            reasons.append(f"v4l2-compliance {sec.name}: no `test invalid ioctls` result")
        elif res.invalid_ioctls != "OK":
            reasons.append(f"v4l2-compliance {sec.name}: test invalid ioctls: {res.invalid_ioctls}")
        if compliance_baseline is not None and res.failed is not None:
            base = compliance_baseline.get(sec.name)
            if base is not None and res.failed > base:
                reasons.append(f"v4l2-compliance {sec.name}: {res.failed} failures, "
                               f"pristine kernel had {base}")
    return Verdict(not reasons, reasons)


def kselftest_problems(secs: list[Section]) -> list[str]:
    """What run_kselftest.sh says went wrong: a test that failed, timed out
    or skipped (the guest has vivid and vimc: a skip means the wrapper
    could not load them), or no kselftest section at all."""
    runs = [sec for sec in secs if sec.kind == "kselftest"]
    if not runs:
        return ["run_kselftest.sh did not run"]
    out = []
    for sec in runs:
        results = kselftest_results(sec.lines)
        if not results:
            out.append(f"{sec.name}: no test result (rc={sec.rc})")
        out += [f"{sec.name}: {test}: {status}" for test, status in results.items() if status != "pass"]
    return out


def compliance_failures(text: str) -> dict[str, int]:
    """Failures per v4l2-compliance node, for use as a baseline."""
    out = {}
    for sec in sections(text):
        if sec.kind == "compliance":
            res = parse_compliance(sec.lines)
            if res.failed is not None:
                out[sec.name] = res.failed
    return out
