"""`enotty mailout --series NAME [--send]`: git send-email over one series.

Dry run unless --send.  Recipients: the cover letter's To: and Cc: (the
union of get_maintainer.pl over the series' patches) are given to
send-email for the whole series; each patch's own To:/Cc: headers (its
get_maintainer.pl answer) add to that.  send-email threads the mails:
the cover letter first, every patch a reply to it (--thread
--no-chain-reply-to).  The sender is the series' author (the From: of
the cover letter, i.e. SIGNOFF or git config when it was made), so a
machine without a git identity can mail it too.  Needs the Debian package
git-email.
"""
from __future__ import annotations

import argparse
import email
import email.policy
import email.utils
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from .errors import UsageError

RECIPIENT_HEADERS = ("To", "Cc")


def known_series(out: Path) -> list[str]:
    if not out.is_dir():
        return []
    return sorted(p.name for p in out.iterdir()
                  if p.is_dir() and p.name != "rejected" and (p / "0000-cover-letter.patch").is_file())


def series_files(out: Path, name: str) -> list[Path]:
    """The mbox files of a series, cover letter first; UsageError if unknown."""
    folder = out / name
    cover = folder / "0000-cover-letter.patch"
    if not cover.is_file():
        known = ", ".join(known_series(out)) or f"none (run make patches; looked in {out})"
        raise UsageError(f"no series {name!r} in {out}; known series: {known}")
    return sorted(folder.glob("[0-9][0-9][0-9][0-9]-*.patch"))


def recipients(mbox: Path) -> dict[str, list[str]]:
    """To/Cc addresses of one mbox file's header."""
    msg = email.message_from_bytes(mbox.read_bytes(), policy=email.policy.compat32)
    out: dict[str, list[str]] = {}
    for header in RECIPIENT_HEADERS:
        values = msg.get_all(header) or []
        people = []
        for value in values:
            unfolded = re.sub(r"\s*\n\s*", " ", str(value))
            people += [p.strip() for p in unfolded.split(",") if p.strip()]
        out[header] = people
    return out


def sender(mbox: Path) -> tuple[str, str]:
    """(name, address) of one mbox file's From:."""
    msg = email.message_from_bytes(mbox.read_bytes(), policy=email.policy.compat32)
    return email.utils.parseaddr(str(msg.get("From", "")))


def send_email_env(author: tuple[str, str]) -> dict[str, str]:
    """send-email asks git for an author and committer identity even with
    --from; where git config has none, the series' author stands in."""
    env = dict(os.environ)
    for who in ("AUTHOR", "COMMITTER"):
        env.setdefault(f"GIT_{who}_NAME", author[0])
        env.setdefault(f"GIT_{who}_EMAIL", author[1])
    return env


def send_email_command(files: list[Path], send: bool) -> list[str]:
    cover = recipients(files[0])
    name, address = sender(files[0])
    cmd = ["git", "send-email", f"--from={name} <{address}>", "--confirm=never",
           "--thread", "--no-chain-reply-to",
           "--suppress-cc=self", "--suppress-cc=misc-by", "--no-format-patch"]
    if not send:
        cmd.append("--dry-run")
    for person in cover["To"]:
        cmd.append(f"--to={person}")
    for person in cover["Cc"]:
        cmd.append(f"--cc={person}")
    return cmd + [str(f) for f in files]


def has_send_email() -> bool:
    if shutil.which("git") is None:
        return False
    res = subprocess.run(["git", "--exec-path"], capture_output=True, text=True, check=False)
    return (Path(res.stdout.strip()) / "git-send-email").is_file()


def mailout(out: Path, name: str | None, send: bool) -> int:
    if not name:
        known = ", ".join(known_series(out)) or "none"
        raise UsageError(f"name a series: --series NAME (make mailout SERIES=NAME); known: {known}")
    files = series_files(out, name)
    if not has_send_email():
        raise UsageError("git send-email is missing: apt-get install git-email libmailtools-perl")
    cmd = send_email_command(files, send)
    print("enotty: " + ("sending" if send else "dry run (SEND=1 sends)") +
          f": {len(files)} mails of series {name}", file=sys.stderr)
    return subprocess.run(cmd, check=False, stdin=subprocess.DEVNULL,
                          env=send_email_env(sender(files[0]))).returncode


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--series", metavar="NAME", help="the series folder name (e.g. media)")
    parser.add_argument("--out", metavar="DIR",
                        help="output folder of make patches (default: generated-patches/linux-VERSION/)")
    parser.add_argument("--send", action="store_true", help="send for real (default: --dry-run)")


def command(args: argparse.Namespace) -> int:
    from . import patches, tree
    out = Path(args.out).expanduser() if args.out else patches.default_out(tree.default_tree())
    return mailout(out, args.series, args.send)
