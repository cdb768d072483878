"""mailout: series lookup, recipients, the git send-email command line."""
from __future__ import annotations

from pathlib import Path

import pytest

from enotty import mailout
from enotty.errors import UsageError

COVER = """\
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Test Author <author@example.org>
Date: Thu, 1 Jan 2026 00:00:00 +0000
Subject: [PATCH 0/1] watchdog: Return -ENOTTY for unknown ioctl commands
To: Wim Watchdog <wim@example.org>,
    Guenter Review <guenter@example.org>
Cc: linux-watchdog@vger.kernel.org,
    linux-kernel@vger.kernel.org

Blurb.
"""


def make_out(tmp_path: Path) -> Path:
    out = tmp_path / "out"
    for name in ("watchdog-device-drivers", "media"):
        (out / name).mkdir(parents=True)
        (out / name / "0000-cover-letter.patch").write_text(COVER)
        (out / name / "0001-x.patch").write_text(COVER.replace("0/1", "1/1"))
    (out / "rejected" / "media").mkdir(parents=True)
    return out


def test_unknown_series_lists_the_known_ones(tmp_path: Path) -> None:
    out = make_out(tmp_path)
    with pytest.raises(UsageError) as err:
        mailout.series_files(out, "nope")
    assert str(err.value).endswith("known series: media, watchdog-device-drivers")
    assert "\n" not in str(err.value)


def test_recipients_are_read_from_folded_headers(tmp_path: Path) -> None:
    out = make_out(tmp_path)
    got = mailout.recipients(out / "media" / "0000-cover-letter.patch")
    assert got == {"To": ["Wim Watchdog <wim@example.org>", "Guenter Review <guenter@example.org>"],
                   "Cc": ["linux-watchdog@vger.kernel.org", "linux-kernel@vger.kernel.org"]}


def test_send_email_command_is_a_dry_run_unless_send(tmp_path: Path) -> None:
    out = make_out(tmp_path)
    files = mailout.series_files(out, "media")
    assert [f.name for f in files] == ["0000-cover-letter.patch", "0001-x.patch"]
    cmd = mailout.send_email_command(files, send=False)
    assert cmd[:2] == ["git", "send-email"] and "--dry-run" in cmd
    assert "--to=Wim Watchdog <wim@example.org>" in cmd and "--cc=linux-kernel@vger.kernel.org" in cmd
    assert cmd[-2:] == [str(f) for f in files]
    assert "--dry-run" not in mailout.send_email_command(files, send=True)
    assert "--from=Test Author <author@example.org>" in cmd


@pytest.mark.skipif(not mailout.has_send_email(), reason="git send-email not installed (Debian: git-email)")
def test_real_dry_run(tmp_path: Path, capfd: pytest.CaptureFixture[str],
                      monkeypatch: pytest.MonkeyPatch) -> None:
    # A fresh machine: no git identity anywhere, so the series' author sends.
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    for var in ("NAME", "EMAIL"):
        for who in ("AUTHOR", "COMMITTER"):
            monkeypatch.delenv(f"GIT_{who}_{var}", raising=False)
    out = make_out(tmp_path)
    assert mailout.mailout(out, "media", send=False) == 0
    text = capfd.readouterr().out
    assert text.count("Dry-OK") == 2 and "RCPT TO:<wim@example.org>" in text
    assert "From: Test Author <author@example.org>" in text
