"""TAP as the kernel's kselftests print it: the one reader of the audit's
kselftests (enotty.audit.kselftest_tap) and the QEMU selftests
(enotty.qemutest.console).

kselftest.h and kselftest_harness.h print `ok N name`, `not ok N name`,
`ok N name # SKIP why` (also `ok N # SKIP why`, named by the why), XFAIL,
XPASS and error directives, and a `# Totals:` line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_LINE = re.compile(r"^\s*(not ok|ok)\s+(\d+)\b\s*(?:-\s*)?(.*?)\s*$")
_DIRECTIVE = re.compile(r"\s*#\s*(SKIP|XFAIL|XPASS|TODO|error)\b.*$", re.I)
_TOTALS = re.compile(
    r"^# Totals: pass:(\d+) fail:(\d+) xfail:(\d+) xpass:(\d+) skip:(\d+) error:(\d+)")
TOTAL_KEYS = ("pass", "fail", "xfail", "xpass", "skip", "error")


def cases(lines: list[str]) -> dict[str, str]:
    """case -> pass, fail, skip, xfail, xpass or error.  A case is named by
    its description (its number when it has none); a repeated description
    gets its number appended."""
    out: dict[str, str] = {}
    for line in lines:
        m = _LINE.match(line)
        if not m:
            continue
        verdict, number, rest = m.groups()
        directive = _DIRECTIVE.search(rest)
        desc = _DIRECTIVE.sub("", rest).strip()
        if directive and not desc:
            # ksft_test_result_skip(): `ok N # SKIP why`, the why names it
            desc = re.sub(r"^\s*#\s*\w+\s*", "", directive.group(0)).strip()
        desc = desc or f"#{number}"
        if desc in out:
            desc = f"{desc} #{number}"
        kind = directive.group(1).lower() if directive else ""
        if kind in ("skip", "xfail", "xpass", "error"):
            out[desc] = kind
        else:
            out[desc] = "pass" if verdict == "ok" else "fail"
    return out


def totals(lines: list[str]) -> dict[str, int] | None:
    """The last `# Totals:` line's counts, None when there is none."""
    found = None
    for line in lines:
        m = _TOTALS.match(line)
        if m:
            found = dict(zip(TOTAL_KEYS, (int(v) for v in m.groups())))
    return found


@dataclass
class Tap:
    """Per-case outcome (cases()) and the totals line (totals()) of one program."""
    cases: dict[str, str]
    totals: dict[str, int] | None


def read(lines: list[str]) -> Tap:
    """One kselftest program's TAP output."""
    return Tap(cases(lines), totals(lines))
