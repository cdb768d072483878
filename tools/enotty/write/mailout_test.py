"""mailout: series lookup, recipients, the git send-email command line."""
from __future__ import annotations

import email.header
from pathlib import Path

import pytest

from . import mailout
from enotty.errors import UsageError
from enotty.requests import Identity

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

Test Author (1):
  watchdog: Return -ENOTTY for unknown ioctl commands
"""

PATCH = COVER.replace("0/1", "1/1").split("\n\nBlurb.")[0] + """

Body.

Signed-off-by: Test Author <author@example.org>
Reviewed-by: Other Person <other@example.org>
---
 drivers/watchdog/x.c | 2 +-
"""


def make_out(tmp_path: Path) -> Path:
    out = tmp_path / "out"
    for name in ("watchdog-device-drivers", "media"):
        (out / name).mkdir(parents=True)
        (out / name / "0000-cover-letter.patch").write_text(COVER)
        (out / name / "0001-x.patch").write_text(PATCH)
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
    monkeypatch.delenv("GIT_CONFIG_GLOBAL", raising=False)
    for var in ("NAME", "EMAIL"):
        for who in ("AUTHOR", "COMMITTER"):
            monkeypatch.delenv(f"GIT_{who}_{var}", raising=False)
    monkeypatch.chdir(tmp_path)
    out = make_out(tmp_path)
    assert mailout.mailout(out, "media", send=False) == 0
    text = capfd.readouterr().out
    assert text.count("Dry-OK") == 2 and "RCPT TO:<wim@example.org>" in text
    assert "From: Test Author <author@example.org>" in text


def git_config_identity(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str | None,
                        mail: str | None) -> None:
    """The sender's git configuration: a global file with exactly this identity."""
    cfg = tmp_path / "gitconfig"
    cfg.write_text("".join(f"[user]\n\t{k} = {v}\n" for k, v in (("name", name), ("email", mail)) if v))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(cfg))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.chdir(tmp_path)          # no repository config either


def test_placeholder_addresses_are_not_a_sender() -> None:
    assert mailout.is_real_address("jane@kernel.org")
    assert mailout.is_real_address("j.doe@mail.example-corp.de")
    for fake in ("maintainers@users.noreply.a-seed-43850500.example", "a@example.org",
                 "root@host.(none)", "me@localhost", "x@y.invalid", "x@sub.example.com",
                 "nodomain", "a@b", "@kernel.org"):
        assert not mailout.is_real_address(fake), fake


def test_sender_from_git_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    git_config_identity(monkeypatch, tmp_path, "Jane Dev", "jane@kernel.org")
    assert mailout.git_identity() == Identity("Jane Dev", "jane@kernel.org")
    git_config_identity(monkeypatch, tmp_path, "Jane Dev", None)
    assert mailout.git_identity() is None


def test_personalise_rewrites_only_the_placeholder() -> None:
    placeholder = Identity("Test Author", "author@example.org")
    patch = mailout.personalise(PATCH, placeholder, Identity("Jane Dev", "jane@kernel.org"))
    head, _, body = patch.partition("\n\n")
    assert "\nFrom: Jane Dev <jane@kernel.org>\n" in "\n" + head + "\n"
    assert "Date:" not in head and "author@example.org" not in patch
    assert "Signed-off-by: Jane Dev <jane@kernel.org>\nReviewed-by: Other Person <other@example.org>" in body
    assert head.count("\n") == PATCH.partition("\n\n")[0].count("\n") - 1   # only Date: went
    cover = mailout.personalise(COVER, placeholder, Identity("Jane Dev", "jane@kernel.org"))
    assert "\nJane Dev (1):\n" in cover and "Test Author" not in cover
    # a name outside ASCII: encoded in the header, declared for the body
    utf = mailout.personalise(PATCH, placeholder, Identity("Jörg Dev", "joerg@kernel.org"))
    from_value = next(ln for ln in utf.splitlines() if ln.startswith("From: "))[6:]
    assert from_value.isascii()
    assert str(email.header.make_header(email.header.decode_header(from_value))) == "Jörg Dev <joerg@kernel.org>"
    assert "Content-Type: text/plain; charset=UTF-8" in utf.partition("\n\n")[0]
    assert "Signed-off-by: Jörg Dev <joerg@kernel.org>" in utf


def test_send_without_identity_refuses_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capfd: pytest.CaptureFixture[str]) -> None:
    out = make_out(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "nogit") + ":" + __import__("os").environ["PATH"])
    for name, mail in ((None, None), ("Seed maintainers", "maintainers@users.noreply.a-seed.example")):
        git_config_identity(monkeypatch, tmp_path, name, mail)
        with pytest.raises(UsageError) as err:
            mailout.mailout(out, "media", send=True)
        assert "\n" not in str(err.value) and "SEND=1 needs your own name and mail" in str(err.value)
    assert capfd.readouterr().out == ""   # nothing ran, nothing was sent
    # the committed files are untouched
    assert (out / "media" / "0001-x.patch").read_text() == PATCH


@pytest.mark.skipif(not mailout.has_send_email(), reason="git send-email not installed (Debian: git-email)")
def test_dry_run_sends_as_the_git_identity(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capfd: pytest.CaptureFixture[str]) -> None:
    git_config_identity(monkeypatch, tmp_path, "Jane Dev", "jane@kernel.org")
    for var in ("NAME", "EMAIL"):
        for who in ("AUTHOR", "COMMITTER"):
            monkeypatch.delenv(f"GIT_{who}_{var}", raising=False)
    out = make_out(tmp_path)
    assert mailout.mailout(out, "media", send=False) == 0
    got = capfd.readouterr()
    froms = [ln for ln in got.out.splitlines() if ln.startswith("From: ")]
    assert froms == ["From: Jane Dev <jane@kernel.org>"] * 2
    assert "Test Author" not in got.out and "Thu, 1 Jan 2026" not in got.out   # send-email's own Date:
    assert "enotty: 0001-x.patch: Signed-off-by: Jane Dev <jane@kernel.org>" in got.err
    assert (out / "media" / "0001-x.patch").read_text() == PATCH


def test_a_series_of_one_patch_has_no_cover_letter(tmp_path: Path) -> None:
    out = make_out(tmp_path)
    (out / "random").mkdir()
    (out / "random" / "0001-random-x.patch").write_text(PATCH.replace("[PATCH 1/1]", "[PATCH]"))
    (out / "empty").mkdir()
    assert mailout.known_series(out) == ["media", "random", "watchdog-device-drivers"]
    files = mailout.series_files(out, "random")
    assert [f.name for f in files] == ["0001-random-x.patch"]
    cmd = mailout.send_email_command(files, send=False)
    assert "--to=Wim Watchdog <wim@example.org>" in cmd and cmd[-1] == str(files[0])
    for bad in ("empty", "rejected", ""):
        with pytest.raises(UsageError):
            mailout.series_files(out, bad)


def test_identity_parses_name_and_mail_once() -> None:
    assert Identity.parse("Jane Doe <jane@example.org>") == Identity("Jane Doe", "jane@example.org")
    for bad in ("jane@example.org", "<jane@example.org>", "Jane <nope>"):
        with pytest.raises(ValueError):
            Identity.parse(bad)
