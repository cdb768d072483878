"""End to end: build the kernel, boot it in QEMU, run the selftests for real
(the kernel's kselftest-install output, through run_kselftest.sh).

Runs `python3 -m enotty qemu-test` as a user would, pristine
first (the baseline), then the mutant, then the default run (the committed
media series) when the series exists.  Cold (no ccache, no build folder) the first boot costs one
tinyconfig kernel build; later runs recompile only the files a patch set
touches.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Minutes when cold (a kernel build and three boots); make check runs it,
# ENOTTY_QUICK=1 leaves it out while editing.
pytestmark = pytest.mark.skipif(os.environ.get("ENOTTY_QUICK") == "1",
                                reason="ENOTTY_QUICK=1: QEMU boots left out")

from ..kernel import tree
from enotty.qemutest import run as qemu_run

TOOLS = Path(__file__).resolve().parents[2]

# vivid's fb_ioctl answers unknown commands with -EINVAL on 6.12 (the fb
# core itself says -ENOTTY when a driver has no fb_ioctl).  The 32-bit
# binary is not affected: fb_compat_ioctl never calls the driver for
# unknown commands.  Nothing else fails on the pristine kernel.
PRISTINE_FAILURES = {
    "ioctl_errno:node.fb.unknown_own_range",
    "ioctl_errno:node.fb.unknown_foreign",
    "ioctl_errno:node.fb.known_unsupported",
}
V4L2_KINDS = ("vid_cap", "vid_out", "vbi_cap", "vbi_out", "radio_rx", "radio_tx",
              "sdr_cap", "touch", "meta_cap", "meta_out")
ALL_KINDS = V4L2_KINDS + ("subdev", "media", "request", "cec", "fb")


def _run(*args: str) -> tuple[int, str, dict]:
    results = tree.cache_dir() / "qemu" / "results"
    label = qemu_run.run_label(
        args[args.index("--series") + 1] if "--series" in args else "media",
        args[args.index("--mutant") + 1] if "--mutant" in args else None)
    (results / f"{label}.json").unlink(missing_ok=True)
    env = dict(os.environ, PYTHONPATH=str(TOOLS))
    # Debian 12's tree: make check boots a version that does not move.
    res = subprocess.run([sys.executable, "-m", "enotty", "qemu-test", "--kver", "6.12", *args],
                         capture_output=True, text=True, env=env, check=False)
    data_path = results / f"{label}.json"
    assert data_path.is_file(), f"no results for {label}:\n{res.stdout}\n{res.stderr}"
    return res.returncode, res.stdout + res.stderr, json.loads(data_path.read_text())


@pytest.fixture(scope="module")
def pristine() -> tuple[int, str, dict]:
    return _run("--series", "none")


@pytest.fixture(scope="module")
def mutant(pristine) -> tuple[int, str, dict]:
    return _run("--series", "none", "--mutant", "einval")


def _failures(data: dict) -> set[str]:
    return {n for n, s in data["cases"].items() if s in ("fail", "error")}


def test_pristine_fails_only_on_vivid_fb(pristine):
    rc, out, data = pristine
    assert _failures(data) == PRISTINE_FAILURES, out
    assert rc == 1
    assert data["qemu_rc"] == 1, "guest did not leave through isa-debug-exit"
    # Every node kind was found, in both binaries: nothing skipped.
    for binary in ("ioctl_errno", "ioctl_errno_32"):
        for kind in ALL_KINDS:
            assert data["cases"][f"{binary}:node.{kind}.good_argument"] == "pass"
    # Only the selftest failures are reasons (and run_kselftest.sh's verdict
    # on the test that holds them): no crash, no skip, compliance fine.
    assert all(r.startswith("selftest ioctl_errno") for r in data["reasons"][1:]), data["reasons"]
    assert data["reasons"][0] == ("run_kselftest.sh: selftests: drivers/media: ioctl_errno.sh"
                                  " # exit=1: fail"), data["reasons"]
    assert len(data["compliance_failures"]) >= len(V4L2_KINDS)


def test_mutant_fails_on_every_v4l2_node(pristine, mutant):
    rc, out, data = mutant
    assert rc == 1
    failures = _failures(data)
    for kind in V4L2_KINDS:
        for binary in ("ioctl_errno", "ioctl_errno_32"):
            assert f"{binary}:node.{kind}.unknown_own_range" in failures, out
        assert f"ioctl_errno:node.{kind}.unknown_foreign" in failures, out
    # Sub-devices, media, CEC do not go through the mutated path.
    for kind in ("subdev", "media", "cec"):
        assert f"ioctl_errno:node.{kind}.unknown_own_range" not in failures
    assert any("test invalid ioctls: FAIL" in r for r in data["reasons"]), data["reasons"]
    assert any("pristine kernel had" in r for r in data["reasons"]), data["reasons"]


def test_media_series_fixes_exactly_the_pristine_failures(pristine, mutant):
    source = tree.resolve(None, need_kernel=True, kver="6.12")
    if not qemu_run.default_series_dir(source, "media").is_dir():
        pytest.skip("no generated media series yet (make patches)")
    # No --series: the default run, as `make qemu-test` starts it.
    rc, out, data = _run()
    assert rc == 0, out
    assert not _failures(data)
    fixed = {n for n, s in pristine[2]["cases"].items()
             if s == "fail" and data["cases"].get(n) == "pass"}
    assert fixed == _failures(pristine[2])
    for node, count in data["compliance_failures"].items():
        assert count <= pristine[2]["compliance_failures"].get(node, count), node
