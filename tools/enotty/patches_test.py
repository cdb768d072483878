"""`enotty patches` end to end on fixture trees, and its bad-input handling."""
from __future__ import annotations

import email
import email.policy
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from enotty import cli
from enotty.render import drafts
from .write.mailout import recipients
from enotty.requests import KernelTree

FIXTURES = Path(__file__).parent / "testdata" / "series"
KERNEL = FIXTURES / "kernel"
SIGNOFF = "Test Author <author@example.org>"
HAS_SPATCH = shutil.which("spatch") is not None
needs_spatch = pytest.mark.skipif(not HAS_SPATCH, reason="needs spatch (coccinelle)")


def _subject(mbox: str) -> str:
    """A mail's Subject, unfolded."""
    return str(email.message_from_string(mbox, policy=email.policy.default)["Subject"])


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a private scan cache and scratch area; the default tree's scripts stay
    # reachable through the real cache (checkpatch.pl, get_maintainer.pl)
    real = Path(os.environ.get("ENOTTY_CACHE", Path.home() / ".cache" / "enotty"))
    cache = tmp_path / "cache"
    (cache / "src").mkdir(parents=True)
    if (real / "src" / "linux-source-6.12").is_dir():
        (cache / "src" / "linux-source-6.12").symlink_to(real / "src" / "linux-source-6.12")
    monkeypatch.setenv("ENOTTY_CACHE", str(cache))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = cli.main(list(argv))
    return code, capsys.readouterr().err


def test_kdir_that_is_not_a_kernel_tree_is_one_line_exit_2(capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path) -> None:
    code, err = run(capsys, "patches", "--kdir", str(FIXTURES / "plain"), "--out", str(tmp_path / "o"),
                    "--signoff", SIGNOFF)
    assert code == 2
    assert err.count("\n") == 1 and "is not a kernel tree" in err and "--subdir" in err
    assert not (tmp_path / "o").exists()


def test_bad_signoff_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, err = run(capsys, "patches", "--kdir", str(KERNEL), "--out", str(tmp_path / "o"),
                    "--signoff", "nobody")
    assert code == 2 and err.count("\n") == 1 and "Name <mail>" in err


@needs_spatch
def test_subdir_of_a_plain_folder_groups_by_path(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "o"
    code, err = run(capsys, "patches", "--kdir", str(FIXTURES / "plain"), "--subdir", "sub",
                    "--out", str(out), "--signoff", SIGNOFF)
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == ["SUMMARY.md", "failed.tsv", "handlers.tsv", "run.json", "sites.tsv", "sub"]
    assert "by path (no MAINTAINERS)" in (out / "SUMMARY.md").read_text()
    # one patch goes out alone: no cover letter, "[PATCH]"
    (only,) = sorted((out / "sub").iterdir())
    assert recipients(only) == {"To": [], "Cc": []}
    assert _subject(only.read_text()).startswith("[PATCH] ")


@needs_spatch
def test_whole_fixture_kernel(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "linux"
    t0 = time.monotonic()
    code, err = run(capsys, "patches", "--kdir", str(KERNEL), "--out", str(out), "--signoff", SIGNOFF)
    assert code == 0, err
    print(f"fixture kernel: {time.monotonic() - t0:.1f} s", file=sys.stderr)
    assert sorted(p.name for p in out.iterdir()) == [
        "SUMMARY.md", "char-and-misc-drivers", "failed.tsv", "handlers.tsv", "media", "run.json", "sites.tsv", "the-rest",
        "watchdog-device-drivers"]
    media = sorted((out / "media").iterdir())
    assert [_subject(p.read_text()) for p in media] == [
        "[PATCH 0/2] media: Return -ENOTTY for unknown ioctl commands",
        "[PATCH 1/2] media: uvc: Return -ENOTTY for unknown ioctl commands",
        "[PATCH 2/2] media: atomisp: Return -ENOTTY for unknown ioctl commands",
    ]
    uvc = media[1].read_text()
    assert "drivers/media/usb/uvc/uvc_ctrl.c" in uvc and "drivers/media/usb/uvc/uvc_v4l2.c" in uvc
    tsv = (out / "sites.tsv").read_text().splitlines()
    assert tsv[0].split("\t") == ["file", "line", "function", "interface", "from", "to", "rule",
                                  "subsystem", "series", "paths", "reach", "guard", "branches",
                                  "uncased", "forward", "fallback", "visible", "entry"]
    assert len(tsv) == 8
    summary = (out / "SUMMARY.md").read_text()
    assert "| [media](media/) | MEDIA INPUT INFRASTRUCTURE (V4L/DVB) | 2 | 3 | 3 | 0 |" in summary
    if shutil.which("perl") and (Path(os.environ["ENOTTY_CACHE"]) / "src" / "linux-source-6.12").exists():
        wd = recipients(sorted((out / "watchdog-device-drivers").iterdir())[1])
        # b4 style: To = maintainers and reviewers (--nol), Cc = lists (--nom)
        assert wd["To"] == ["Wim Watchdog <wim@example.org>", "Guenter Review <guenter@example.org>"]
        assert "linux-watchdog@vger.kernel.org" in wd["Cc"]
    # a second run gives the same bytes (committed output == fresh run)
    again = tmp_path / "again"
    code, err = run(capsys, "patches", "--kdir", str(KERNEL), "--out", str(again), "--signoff", SIGNOFF)
    assert code == 0
    diff = subprocess.run(["diff", "-r", str(out), str(again)], capture_output=True, text=True)
    assert diff.returncode == 0, diff.stdout[:2000]


# make check runs the whole pipeline on real subtrees of the default tree
# (minutes when cold); ENOTTY_QUICK=1 leaves them out while editing.
QUICK = os.environ.get("ENOTTY_QUICK") == "1"


@pytest.mark.skipif(QUICK, reason="ENOTTY_QUICK=1: real subtrees of the default tree left out")
@pytest.mark.parametrize("subdir", ["drivers/watchdog", "drivers/media", "drivers/staging/media"])
def test_E2E_real_subtree(subdir: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ENOTTY_CACHE")   # the real scan cache and prepared build
    out = tmp_path / "out"
    t0 = time.monotonic()
    code, err = run(capsys, "patches", "--subdir", subdir, "--out", str(out), "--signoff", SIGNOFF)
    seconds = time.monotonic() - t0
    print(f"E2E {subdir}: {seconds:.0f} s", file=sys.stderr)
    assert code == 0, err
    summary = (out / "SUMMARY.md").read_text()
    assert "Generated by `make patches M=" + subdir + "`" in summary
    assert not (out / "rejected").exists(), summary
    if "media" in subdir:
        # Both media folders end in the one media series (the V4L2 slice).
        patches = sorted((out / "media").glob("0*.patch"))
        assert len(patches) >= 2 and patches[0].name == "0000-cover-letter.patch"
        sites = (out / "sites.tsv").read_text().splitlines()[1:]
        assert sites and all(line.split("\t")[0].startswith(subdir + "/") for line in sites)
    for folder in out.iterdir():
        if folder.is_dir() and folder.name != "rejected":
            files = sorted(folder.iterdir())
            assert (files[0].name == "0000-cover-letter.patch") == (len(files) > 1)
            for f in files:
                res = subprocess.run(["git", "mailinfo", str(tmp_path / "m"), str(tmp_path / "p")],
                                     stdin=f.open("rb"), capture_output=True)
                assert res.returncode == 0


@needs_spatch
def test_a_patch_failing_checkpatch_is_numbered_out_and_reported(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from .verify import verify
    real = verify.checkpatch

    def strict(kernel: KernelTree, patch: Path) -> verify.Check:
        if "bar_wdt" in patch.name:
            return verify.Check(verify.FAILED, "ERROR:TRAILING_WHITESPACE: trailing whitespace")
        return real(kernel, patch)

    monkeypatch.setattr(verify, "checkpatch", strict)
    out = tmp_path / "o"
    code, err = run(capsys, "patches", "--kdir", str(KERNEL), "--subdir", "drivers/watchdog",
                    "--out", str(out), "--signoff", SIGNOFF)
    assert code == 0, err
    kept = sorted((out / "watchdog-device-drivers").iterdir())
    assert [_subject(p.read_text()) for p in kept] == [
        "[PATCH] watchdog: foo_wdt: Return -ENOTTY for unknown ioctl commands"]
    rejected = list((out / "rejected" / "watchdog-device-drivers").iterdir())
    assert len(rejected) == 1 and "bar_wdt" in rejected[0].name
    summary = (out / "SUMMARY.md").read_text()
    assert "## Rejected patches" in summary
    assert "watchdog: bar_wdt: Return -ENOTTY for unknown ioctl commands: checkpatch: " \
           "ERROR:TRAILING_WHITESPACE" in summary


def test_audit_rows_follow_a_patch_whose_number_or_series_moved() -> None:
    row = dict.fromkeys(("target", "source", "function", "command", "abi", "before", "after"), "x")
    rows = [dict(row, patch="networking-general/0006-tun-Return-ENOTTY-for-unknown-ioctl-commands.patch"),
            dict(row, patch="block-layer/0004-loop-Return-ENOTTY-for-unknown-ioctl-commands.patch")]
    # the series was split since the audit: the old series' rows still count
    got = drafts._audit_rows(rows, "tun-tap-driver", "0001-tun-Return-ENOTTY-for-unknown-ioctl-commands.patch")
    assert [r["patch"] for r in got] == [rows[0]["patch"]]
    # the same series, another number
    assert drafts._audit_rows(rows, "block-layer", "0002-loop-Return-ENOTTY-for-unknown-ioctl-commands.patch") \
        == [rows[1]]
    assert drafts._audit_rows(rows, "block-layer", "0002-nbd-Return-ENOTTY-for-unknown-ioctl-commands.patch") == []
