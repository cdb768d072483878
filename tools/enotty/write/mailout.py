"""`enotty mailout --series NAME [--send]`: git send-email over one series.

Dry run unless --send.  Recipients: the first mail's To: and Cc: (the
cover letter's: the union of get_maintainer.pl over the series' patches;
a series of one patch has no cover letter) are given to send-email for
the whole series; each patch's own To:/Cc: headers (its
get_maintainer.pl answer) add to that.  send-email threads the mails:
the cover letter first, every patch a reply to it (--thread
--no-chain-reply-to).  Needs the Debian package git-email.

Identity: the committed series carry the identity of whoever generated
them, a placeholder as far as the sender is concerned.  A Signed-off-by
certifies the Developer's Certificate of Origin
(Documentation/process/submitting-patches.rst) and must be the sender's
own, so the mails go out as the sender: --signoff 'Name <mail>'
(SIGNOFF=), else git config user.name and user.email -- where b4 and git
send-email also take it from.  Copies of the mails in a temporary folder
get the sender in From:, in the Signed-off-by: lines that named the
placeholder and in the cover letter's shortlog; the committed files stay
as they are.  Their fixed Date: is dropped: send-email dates every mail
at sending.  Without an identity whose address can receive replies, a
dry run still shows the mails (with the committed identity) and --send
refuses with one line.
"""
from __future__ import annotations

import email
import email.policy
import email.utils
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ..errors import UsageError
from ..requests import Identity, MailoutRequest

RECIPIENT_HEADERS = ("To", "Cc")


MAIL_GLOB = "[0-9][0-9][0-9][0-9]-*.patch"
COVER = "0000-cover-letter.patch"


def known_series(out: Path) -> list[str]:
    """Folders of out holding mails (a series of one patch has no cover letter)."""
    if not out.is_dir():
        return []
    return sorted(p.name for p in out.iterdir()
                  if p.is_dir() and p.name != "rejected" and any(p.glob(MAIL_GLOB)))


def series_files(out: Path, name: str) -> list[Path]:
    """The mbox files of a series, cover letter (if any) first; UsageError if unknown."""
    folder = out / name
    files = sorted(folder.glob(MAIL_GLOB)) if name and name != "rejected" and folder.is_dir() else []
    if not files:
        known = ", ".join(known_series(out)) or f"none (run make patches; looked in {out})"
        raise UsageError(f"no series {name!r} in {out}; known series: {known}")
    return files


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


def sender(mbox: Path) -> Identity:
    """Who one mbox file's From: names."""
    msg = email.message_from_bytes(mbox.read_bytes(), policy=email.policy.compat32)
    return Identity(*email.utils.parseaddr(str(msg.get("From", ""))))


# Domains that never receive mail (RFC 2606, RFC 6761) and the host part git
# invents when it guesses an identity (user@host.(none)).
_RESERVED_TLDS = ("example", "invalid", "localhost", "test", "local", "(none)")
_RESERVED_DOMAINS = ("example.com", "example.net", "example.org")


def is_real_address(address: str) -> bool:
    """Whether a mail address can be a sender's own: user@domain.tld with a
    domain outside the reserved ones (maintainers@...example is a placeholder)."""
    local, at, domain = address.rpartition("@")
    domain = domain.lower().rstrip(".")
    if not at or not local or "." not in domain or any(c in address for c in " <>,"):
        return False
    if domain.rsplit(".", 1)[1] in _RESERVED_TLDS:
        return False
    return not any(domain == d or domain.endswith("." + d) for d in _RESERVED_DOMAINS)


def git_identity() -> Identity | None:
    """user.name and user.email from the sender's git config, None if one is unset."""
    values = []
    for key in ("user.name", "user.email"):
        try:
            res = subprocess.run(["git", "config", "--get", key], capture_output=True,
                                 text=True, check=False, stdin=subprocess.DEVNULL)
        except OSError:
            return None
        values.append(res.stdout.strip())
    return Identity(values[0], values[1]) if all(values) else None


_FROM_HEADER = re.compile(r"^From: .*(?:\n[ \t].*)*\n", re.M)
_DATE_HEADER = re.compile(r"^Date: .*(?:\n[ \t].*)*\n", re.M)


def personalise(mbox: str, placeholder: Identity, ident: Identity) -> str:
    """One mail as `ident` sends it: From:, the Signed-off-by: lines naming
    the placeholder and the cover letter's shortlog line name `ident`; the
    Date: header goes (git send-email dates the mail).  Other lines, other
    people's tags included, are kept byte for byte."""
    head, sep, body = mbox.partition("\n\n")
    head += "\n"
    from_ = email.utils.formataddr((ident.name, ident.email), charset="utf-8")
    head = _FROM_HEADER.sub(lambda m: "From: " + from_ + "\n", head, count=1)
    head = _DATE_HEADER.sub("", head, count=1)
    old_tag = f"Signed-off-by: {placeholder}"
    new_tag = f"Signed-off-by: {ident}"
    lines = [new_tag if ln == old_tag else ln for ln in body.split("\n")]
    shortlog = re.compile(re.escape(placeholder.name) + r" (\(\d+\):)$")
    lines = [shortlog.sub(lambda m: f"{ident.name} {m.group(1)}", ln) for ln in lines]
    text = head[:-1] + sep + "\n".join(lines)
    if not text.isascii() and "\nContent-Type:" not in "\n" + head:
        # a sender's name outside ASCII in the body: declare it, as
        # format-patch does for a UTF-8 author
        text = text.replace(sep, "\nMIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8"
                            "\nContent-Transfer-Encoding: 8bit" + sep, 1)
    return text


def personalised_copies(files: list[Path], ident: Identity, folder: Path) -> list[Path]:
    """The series' mails as `ident` sends them, written into folder (same
    names); the placeholder is the first mail's From:."""
    placeholder = sender(files[0])
    out = []
    for path in files:
        dest = folder / path.name
        dest.write_text(personalise(path.read_text(), placeholder, ident))
        out.append(dest)
    return out


def signed_off_by(mbox: Path) -> list[str]:
    """The Signed-off-by: values of one mail's body."""
    body = mbox.read_text().partition("\n\n")[2]
    return [ln[len("Signed-off-by: "):] for ln in body.splitlines() if ln.startswith("Signed-off-by: ")]


def send_email_env(author: Identity) -> dict[str, str]:
    """send-email asks git for an author and committer identity even with
    --from; where git config has none, the series' author stands in."""
    env = dict(os.environ)
    for who in ("AUTHOR", "COMMITTER"):
        env.setdefault(f"GIT_{who}_NAME", author.name)
        env.setdefault(f"GIT_{who}_EMAIL", author.email)
    return env


def send_email_command(files: list[Path], send: bool) -> list[str]:
    cover = recipients(files[0])
    cmd = ["git", "send-email", f"--from={sender(files[0])}", "--confirm=never",
           "--thread", "--no-chain-reply-to",
           "--suppress-cc=self", "--suppress-cc=misc-by", "--no-format-patch",
           "--8bit-encoding=UTF-8"]
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


def mailout(out: Path, name: str | None, send: bool, ident: Identity | None = None) -> int:
    """Dry-run (or with send, send) series `name` of out as ident (SIGNOFF=),
    else as git config's identity; returns git send-email's exit status."""
    if not name:
        known = ", ".join(known_series(out)) or "none"
        raise UsageError(f"name a series: --series NAME (make mailout SERIES=NAME); known: {known}")
    files = series_files(out, name)
    ident = ident or git_identity()
    placeholder = sender(files[0])
    if send and (ident is None or not is_real_address(ident.email)):
        who = f"{ident} is a placeholder" if ident else "no sender identity"
        raise UsageError(f"{who}: SEND=1 needs your own name and mail for From: and Signed-off-by:"
                         " (SIGNOFF='Name <mail>' or git config user.name/user.email)")
    if not has_send_email():
        raise UsageError("git send-email is missing: apt-get install git-email libmailtools-perl")
    log = sys.stderr
    if ident is None:
        ident = placeholder
        print(f"enotty: no sender identity (SIGNOFF= or git config user.name/user.email):"
              f" showing the committed {placeholder}; SEND=1 would refuse", file=log)
    with tempfile.TemporaryDirectory(prefix=f"enotty-mailout-{name}-") as tmp:
        mails = personalised_copies(files, ident, Path(tmp))
        cmd = send_email_command(mails, send)
        print("enotty: " + ("sending" if send else "dry run (SEND=1 sends)") +
              f": {len(mails)} mails of series {name} from {ident}", file=log)
        code = subprocess.run(cmd, check=False, stdin=subprocess.DEVNULL,
                              env=send_email_env(ident)).returncode
        if not send:
            for mail in (m for m in mails if m.name != COVER):
                tags = "; ".join(signed_off_by(mail)) or "none"
                print(f"enotty: {mail.name}: Signed-off-by: {tags}", file=log)
    return code


def command(req: MailoutRequest) -> int:
    """The mailout a request describes (enotty.cli builds it).  The sender
    is req.sender when the request carries one (SIGNOFF=), else git config."""
    return mailout(req.out, req.series, req.send, req.sender)
