"""End to end: the reduced audit, booted for real.

Runs `python3 -m enotty audit` as `make audit SERIES=random-number-driver OUT=...` does:
the one audit kernel (built once, then cached by content), booted pristine
and with the one-patch random series, probe native and -m32, and one
in-tree kselftest end to end (net/epoll_busy_poll.c, the control of
kselftests.tsv).  Then the three negative controls in one more boot:
mutant-einval.patch (random_ioctl() answers -EINVAL again),
mutant-untouched.patch (the RTC core, which no patch touches, answers
-EINVAL) and mutant-epoll.patch (ep_eventpoll_ioctl() answers -ENOTTY,
which epoll_busy_poll's test_invalid_ioctl does not accept) must each be
reported by the verdict.
Warm, this is two recompiled files, a relink and at most two boots.
"""
from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from enotty.audit import single_series

pytestmark = pytest.mark.skipif(os.environ.get("ENOTTY_QUICK") == "1",
                                reason="ENOTTY_QUICK=1: QEMU boots left out")

REPO = Path(__file__).resolve().parents[3]
SERIES = "random-number-driver"


@pytest.fixture(scope="module")
def one_series(tmp_path_factory) -> Path:
    """A version folder with the random series alone: the kernel is then
    configured for its drivers only (tinyconfig, the base fragment and
    random.c), which a fresh machine builds in minutes, not the audit
    kernel of every series."""
    return single_series.version_folder(SERIES, tmp_path_factory.mktemp("patches"))


def audit(out: Path, patches: Path, *extra: str) -> subprocess.CompletedProcess:
    return single_series.audit(SERIES, out, patches, *extra)


def rows(out: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO((out / "audit.tsv").read_text()), delimiter="\t"))


@pytest.fixture(scope="module")
def reduced(tmp_path_factory, one_series):
    out = tmp_path_factory.mktemp("audit")
    res = audit(out, one_series)
    return res, out


def test_reduced_audit_passes_and_measures_random(reduced):
    res, out = reduced
    assert res.returncode == 0, res.stdout + res.stderr
    random = [r for r in rows(out) if r["source"] == "drivers/char/random.c" and
              r["before"] != r["after"]]
    assert random, "no changed answer measured for drivers/char/random.c"
    abis = {r["abi"] for r in random}
    assert abis == {"native", "compat"}
    for r in random:
        assert (r["before"], r["after"]) == ("EINVAL", "ENOTTY")
        assert r["patch"].startswith(f"{SERIES}/0001-")
        assert r["function"] == "random_ioctl"
    # Nothing else changed: only the one patch was applied.
    others = [r for r in rows(out) if r["before"] != r["after"] and
              r["source"] != "drivers/char/random.c"]
    assert others == []
    md = (out / "AUDIT.md").read_text()
    assert "1 of 1 patches audited." in md
    assert "drivers/char/random.c: audited" in md
    # The in-tree kselftest ran in both boots and passed in both.
    row = next(ln for ln in md.splitlines() if ln.startswith("| epoll_busy_poll |"))
    assert row.count("| pass (5 pass, 0 fail, exit 0") == 2, row
    assert "kselftest epoll_busy_poll: pass (5 pass" in res.stdout


def test_negative_controls_fail_the_verdict(reduced, one_series, tmp_path):
    res, _ = reduced
    assert res.returncode == 0, "the reduced audit itself must pass first"
    res = audit(tmp_path, one_series, "--mutant", "einval,untouched,epoll")
    assert res.returncode == 1, res.stdout + res.stderr
    problems = [ln for ln in res.stdout.splitlines() if ln.startswith("audit: problem:")]
    assert any(f"{SERIES}/0001-" in p and "claims a user-visible change" in p
               and "drivers/char/random.c" in p for p in problems), problems
    assert any("/dev/rtc0" in p and "no applied patch touches it" in p for p in problems), problems
    assert any(p.startswith("audit: problem: kselftest epoll_busy_poll: "
                            "epoll_busy_poll.test_invalid_ioctl passes on the pristine kernel "
                            "and fails with the series") for p in problems), problems


def test_bad_series_replaces_nothing(tmp_path):
    (tmp_path / "audit.tsv").write_text("mine\n")
    env = dict(os.environ, PYTHONPATH=str(REPO / "tools"))
    res = subprocess.run([sys.executable, "-m", "enotty", "audit", "--series", "no-such-series",
                          "--out", str(tmp_path)], capture_output=True, text=True, env=env,
                         check=False)
    assert res.returncode == 2
    assert res.stderr.startswith("enotty: unknown series 'no-such-series'")
    assert len(res.stderr.strip().splitlines()) == 1
    assert (tmp_path / "audit.tsv").read_text() == "mine\n"
