"""End to end: the s390x guest, booted for real.

Runs `python3 -m enotty audit` on a version folder that holds the
s390-architecture series alone, as `make audit SERIES=s390-architecture`
would for that series: no x86_64 row is touched, so only the s390x guest
boots -- its tinyconfig kernel cross-built with gcc-s390x-linux-gnu
(cached by content), its static probe and init, pristine and patched.
/dev/clp (arch/s390/pci/pci_clp.c) must change from EINVAL to ENOTTY,
/dev/z90crypt (the untouched control) must not change; then
mutant-s390-untouched.patch (zcrypt refuses the unknown commands with EINVAL, not EPERM)
must fail the verdict.
"""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from enotty.audit import single_series

from enotty.render.messages import read_audit

pytestmark = pytest.mark.skipif(os.environ.get("ENOTTY_QUICK") == "1",
                                reason="ENOTTY_QUICK=1: QEMU boots left out")

SERIES = "s390-architecture"


@pytest.fixture(scope="module")
def s390_series(tmp_path_factory) -> Path:
    return single_series.version_folder(SERIES, tmp_path_factory.mktemp("patches"))


def audit(out: Path, patches: Path, *extra: str) -> subprocess.CompletedProcess:
    return single_series.audit(SERIES, out, patches, *extra)


@pytest.fixture(scope="module")
def s390_audit(tmp_path_factory, s390_series):
    out = tmp_path_factory.mktemp("audit")
    return audit(out, s390_series), out


def test_the_s390x_guest_measures_clp_and_keeps_its_control(s390_audit):
    res, out = s390_audit
    assert res.returncode == 0, res.stdout + res.stderr
    with open(out / "audit.tsv") as fh:
        rows = read_audit(fh)
    assert rows and all(r["target"].startswith("[s390x] ") for r in rows)
    clp = [r for r in rows if r["target"] == "[s390x] /dev/clp"
           and r["command"].split(":")[0] in ("foreign", "own", "unlikely")]
    assert clp, "no unknown command measured on /dev/clp"
    for r in clp:
        assert (r["source"], r["function"], r["abi"]) == (
            "arch/s390/pci/pci_clp.c", "clp_misc_ioctl", "native")
        assert (r["before"], r["after"]) == ("EINVAL", "ENOTTY")
        assert r["patch"].startswith(f"{SERIES}/0001-")
    control = [r for r in rows if r["target"] == "[s390x] /dev/z90crypt"]
    assert control and all(r["before"] == r["after"] and r["patch"] == "-" for r in control)
    assert all(r["before"] not in ("-", "missing") for r in control)
    md = (out / "AUDIT.md").read_text()
    assert "One s390x kernel" in md and "One x86_64 kernel" not in md
    assert "## In-tree kselftests" not in md      # they run in x86_64 only
    assert "arch/s390/pci/pci_clp.c: audited" in md
    assert "drivers/s390/char/tape_3590.c: not audited: s390 (needs a 3590/3592 tape" in md


def test_the_s390x_control_fails_the_verdict(s390_audit, s390_series, tmp_path):
    res, _ = s390_audit
    assert res.returncode == 0, "the s390x audit itself must pass first"
    res = audit(tmp_path, s390_series, "--mutant", "s390-untouched")
    assert res.returncode == 1, res.stdout + res.stderr
    problems = [ln for ln in res.stdout.splitlines() if ln.startswith("audit: problem:")]
    assert any("[s390x] /dev/z90crypt" in p and "no applied patch touches it" in p
               for p in problems), problems
