"""Write a series for real with git: scratch repo, commits, format-patch, cover.

The scratch repository (under enotty.kernel.tree.cache_dir()/series/, never in the
tree) holds the pristine copies of just the files the series touches.  Each
patch is applied with `git apply --index` (the apply check) and committed
with a fixed author, committer and date, so `git format-patch` writes the same
bytes on every run: committed output equals a fresh run.  format-patch runs
without --thread because git stamps thread Message-Ids with the current time;
`git send-email` threads the mails itself (cover letter first, every patch a
reply to it), which is what the mailout does.  The user's git configuration
is kept out (GIT_CONFIG_GLOBAL=/dev/null) so no diff.noprefix or
format.signature changes the files.

Kernel conventions (Documentation/process/submitting-patches.rst): a
series of one patch is sent as `[PATCH]` without a cover letter; a tree
tag goes into the subject prefix (`[PATCH net-next 0/3]`); when the tree
is a git checkout, `base-commit:` names the commit the series applies to,
as git format-patch --base writes it (the scratch repository has no such
commit, so the line is added here).  Every series has a title of its own
(cover_prefixes).
"""
from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from typing import Callable, Sequence

from .. import cache
from ..partition import prefixes
from ..kernel import tree
from ..requests import Identity, KernelTree
from ..partition.split import PatchPlan, SeriesPlan

# Author and committer date of every generated commit.  Mail clients and
# git send-email use the time of sending, so this date only has to be fixed.
FIXED_DATE = "Thu, 1 Jan 2026 00:00:00 +0000"


class SeriesError(Exception):
    """git failed where it cannot fail on good input."""


@dataclass(frozen=True)
class Patch:
    """One patch of a series: its plan and its commit message, composed once."""
    plan: PatchPlan
    subject: str
    message: str
    to: tuple[str, ...] = ()       # get_maintainer.pl's answer for it
    cc: tuple[str, ...] = ()

    @property
    def diff(self) -> str:
        return self.plan.diff


@dataclass(frozen=True)
class Cover:
    """The cover letter of a series of more than one patch."""
    subject: str = ""
    blurb: str = ""
    to: tuple[str, ...] = ()
    cc: tuple[str, ...] = ()


@dataclass(frozen=True)
class Mail:
    """One file of a series: its name (NNNN-....patch) and its mbox text."""
    name: str
    text: str


@dataclass(frozen=True)
class Formatted:
    """A series as git formatted it, in memory: nothing is on disk yet."""
    cover: Mail | None                 # 0000-cover-letter.patch (None for one patch)
    mails: tuple[Mail | None, ...]     # per patch, in order; None where it does not apply
    errors: tuple[str, ...]            # per patch: '' when it applied, else git apply's reason
    files: dict[str, bytes] = field(default_factory=dict)   # patched files: rel -> content
    template: str = ""                 # the cover letter as git wrote it (for finish()); '' for one patch

    @property
    def written(self) -> list[Mail]:
        """The files of the series, cover letter first."""
        return [m for m in (self.cover, *self.mails) if m is not None]


def git_env(ident: Identity) -> dict[str, str]:
    env = dict(os.environ)
    for key in list(env):
        if key.startswith("GIT_"):
            del env[key]
    name, email = ident.name, ident.email
    env.update({
        "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_AUTHOR_DATE": FIXED_DATE,
        "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": email,
        "GIT_COMMITTER_DATE": FIXED_DATE, "TZ": "UTC", "LC_ALL": "C",
    })
    return env


class ScratchRepo:
    """A throw-away git repository seeded with pristine files of the tree."""

    def __init__(self, folder: Path, ident: Identity) -> None:
        self.folder = folder
        self.env = git_env(ident)
        folder.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "base")

    def git(self, *args: str, stdin: str | None = None, check: bool = True) -> subprocess.CompletedProcess[str]:
        res = subprocess.run(["git", *args], cwd=self.folder, env=self.env, input=stdin,
                             capture_output=True, text=True, check=False)
        if check and res.returncode != 0:
            raise SeriesError(f"git {' '.join(args[:2])}: {res.stderr.strip()}")
        return res

    def seed(self, root: Path, paths: list[str]) -> None:
        """Commit the pristine copies of paths (read from root, never written)."""
        for rel in paths:
            dest = self.folder / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(root / rel, dest)
        self.git("add", "--", *paths)
        self.git("commit", "-q", "--no-verify", "-m", "pristine")
        self.git("tag", "pristine")

    def apply(self, diff: str) -> str:
        """'' when the diff applies (and is staged), else git apply's reason."""
        res = self.git("apply", "--index", "--whitespace=nowarn", "-", stdin=diff, check=False)
        if res.returncode != 0:
            self.git("reset", "-q", "--hard", "HEAD")
            lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
            return "; ".join(lines[:3]) or "git apply failed"
        return ""

    def commit(self, message: str) -> None:
        self.git("commit", "-q", "--no-verify", "-F", "-", stdin=message)

    def format_patch(self, outdir: Path, count: int, subject_prefix: str = "PATCH") -> list[Path]:
        """The `count` commits since pristine as mbox files, with a cover
        letter template and numbers when there is more than one."""
        several = ["--cover-letter", "--numbered"] if count > 1 else ["--no-numbered"]
        self.git("format-patch", "-q", *several, "--zero-commit", "--no-signature", "--no-renames",
                 f"--subject-prefix={subject_prefix}", "-o", str(outdir), "pristine..HEAD")
        return sorted(outdir.glob("*.patch"))


def scratch_root() -> Path:
    folder = tree.cache_dir() / "series"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def apply_all(root: Path, patches: list[Patch], identity: Identity, repo_dir: Path) -> tuple[ScratchRepo, list[str]]:
    """Seed, then apply and commit each patch in order; per patch '' when
    it applied, else git apply's reason (that patch is left out of the history)."""
    repo = ScratchRepo(repo_dir, identity)
    repo.seed(root, sorted({p for patch in patches
                            for p in patch.plan.paths + [d.path for d in patch.plan.docs]}))
    errors = []
    for patch in patches:
        error = repo.apply(patch.diff) if patch.diff else "empty diff"
        errors.append(error)
        if not error:
            repo.commit(patch.message)
    return repo, errors


_HEADER_END = "\n\n"


def add_recipients(mbox: str, to: list[str], cc: list[str]) -> str:
    """Insert To:/Cc: headers (folded, format-patch style) into one mail."""
    head, sep, body = mbox.partition(_HEADER_END)
    if not to and cc:
        # an orphaned driver (ans-lcd): no maintainer, so its list, the
        # first Cc get_maintainer.pl names, is whom the mail is to
        to, cc = cc[:1], cc[1:]
    extra = ""
    for name, people in (("To", to), ("Cc", cc)):
        if people:
            extra += f"\n{name}: " + ",\n    ".join(people)
    return head + extra + sep + body


def union(lists: Sequence[Sequence[str]], minus: Sequence[str] = ()) -> list[str]:
    """The people of lists, each once and in order (compared without case),
    minus those of minus."""
    seen, out = set(m.lower() for m in minus), []
    for people in lists:
        for person in people:
            if person.lower() not in seen:
                seen.add(person.lower())
                out.append(person)
    return out


def fill_cover(cover: str, subject: str, blurb: str) -> str:
    if "*** SUBJECT HERE ***" not in cover or "*** BLURB HERE ***" not in cover:
        raise SeriesError("git format-patch wrote no cover letter template")
    return cover.replace("*** SUBJECT HERE ***", subject).replace("*** BLURB HERE ***", blurb.rstrip("\n"))


def add_base_commit(mbox: str, base: str | None) -> str:
    """The `base-commit:` line git format-patch --base writes, at the end."""
    if not base:
        return mbox
    return mbox.rstrip("\n") + f"\n\nbase-commit: {base}\n"


# Bump when what format_mails() produces changes for the same inputs.
WRITE_FORMAT = "series-write-2"


def _write_key(root: Path, plan: SeriesPlan, patches: list[Patch], identity: Identity,
               cover: Cover, base: str | None) -> str:
    """Everything format_mails()'s files follow from: the pristine files, each
    patch's message, diff and recipients, the identity, the subject prefix,
    the cover letter and the base; and git's version (format-patch's bytes)."""
    paths = sorted({p for patch in patches for p in patch.plan.paths + [d.path for d in patch.plan.docs]})
    parts = [WRITE_FORMAT, _git_version(), plan.subject_prefix, identity.name, identity.email,
             cover.subject, cover.blurb, "\n".join(cover.to), "\n".join(cover.cc), base or ""]
    for rel in paths:
        parts += [rel, cache.digest((root / rel).read_bytes())]
    for patch in patches:
        parts += [patch.message, patch.diff, "\n".join(patch.to), "\n".join(patch.cc)]
    return cache.key(*parts)


@functools.lru_cache(maxsize=1)
def _git_version() -> str:
    return subprocess.run(["git", "--version"], capture_output=True, text=True, check=False).stdout.strip()


def format_mails(kernel: KernelTree, plan: SeriesPlan, patches: list[Patch], identity: Identity,
                 cover: Cover = Cover(), base: str | None = None) -> Formatted:
    """Apply the patches in order to the pristine files and format those that
    apply as a mail-ready series, in memory; the others keep their reason
    in Formatted.errors and are numbered out.  One patch that applies: no
    cover letter (cover unused), `[PATCH]`.  base: the base-commit to name
    (prefixes.base_commit(root)), None for none.

    Kept by content (_write_key): a rerun on the same input gives the same
    bytes without a git call (unless the tree says not to use its caches)."""
    store = cache.JsonCache(tree.cache_dir() / "series-write")
    k = _write_key(kernel.root, plan, patches, identity, cover, base)
    hit = store.get(k) if kernel.use_cache else None
    if isinstance(hit, dict) and len(hit.get("patches", ())) == len(patches):
        return _from_record(hit)
    done = _format(kernel.root, plan, patches, identity, cover, base)
    store.put(k, {"cover": done.cover.text if done.cover else "", "template": done.template,
                  "mails": [(m.name, m.text) for m in done.written],
                  "patches": [(e, m.name, m.text) if m else (e, "", "") for e, m in zip(done.errors, done.mails)],
                  "files": {rel: data.decode("latin-1") for rel, data in done.files.items()}})
    return done


def _from_record(hit: dict) -> Formatted:
    """format_mails()'s stored record as a Formatted (the cover letter, if
    any, is the first of its mails)."""
    letter = Mail(hit["mails"][0][0], hit["cover"]) if hit["cover"] else None
    return Formatted(letter,
                     tuple(Mail(name, text) if not error else None for error, name, text in hit["patches"]),
                     tuple(error for error, _name, _text in hit["patches"]),
                     {rel: data.encode("latin-1") for rel, data in hit["files"].items()},
                     str(hit.get("template", "")))


def _format(root: Path, plan: SeriesPlan, patches: list[Patch], identity: Identity,
            cover: Cover, base: str | None) -> Formatted:
    with tempfile.TemporaryDirectory(prefix=f"{plan.name}-", dir=scratch_root()) as tmp:
        repo, errors = apply_all(root, patches, identity, Path(tmp) / "repo")
        good = [p for p, e in zip(patches, errors) if not e]
        if not good:
            raise SeriesError(f"{plan.name}: no patch applies")
        files = {rel: (repo.folder / rel).read_bytes() for p in good for rel in p.plan.paths}
        paths = repo.format_patch(Path(tmp) / "out", len(good), plan.subject_prefix)
        texts = [(path.name, path.read_text()) for path in paths]
    covered = len(good) > 1
    if len(texts) != len(good) + covered:
        raise SeriesError(f"git format-patch wrote {len(texts)} files for {len(good)} patches")
    template = Mail(*texts.pop(0)) if covered else None
    formatted = iter(texts)
    raw = tuple(None if error else Mail(*next(formatted)) for error in errors)
    return finish(Formatted(template, raw, tuple(errors), files, template.text if template else ""),
                  patches, cover, base)


def finish(raw: Formatted, patches: list[Patch], cover: Cover = Cover(), base: str | None = None) -> Formatted:
    """A series formatted before (raw: format_mails of its patches without
    recipients, cover or base, as git wrote them) as it goes out: the cover letter filled in and
    addressed, each patch's mail addressed (patches: the same patches,
    their recipients known now), the base-commit named; the bytes
    format_mails(..., cover, base) gives, without running git again."""
    letter = None
    if raw.cover is not None:
        text = fill_cover(raw.template, cover.subject, cover.blurb)
        letter = Mail(raw.cover.name, add_base_commit(add_recipients(text, list(cover.to), list(cover.cc)), base))
    mails: list[Mail | None] = []
    for patch, mail in zip(patches, raw.mails):
        if mail is None:
            mails.append(None)
            continue
        text = add_recipients(mail.text, list(patch.to), list(patch.cc))
        mails.append(Mail(mail.name, text if letter else add_base_commit(text, base)))
    return Formatted(letter, tuple(mails), raw.errors, raw.files, raw.template)


# git format-patch names a mail NNNN-SUBJECT.patch in at most this many
# characters (format.filenameMaxLength, whose default is 64).
_NAME_MAX = 64


def mail_name(number: int, subject: str) -> str:
    """The file name git format-patch gives a commit of this subject, as
    format_sanitized_subject() and fmt_output_subject() make it: runs of
    characters other than letters, digits, '.' and '_' become one '-',
    runs of '.' one '.', the ends trimmed of '.' and '-', and the whole cut
    to _NAME_MAX with its suffix."""
    words = re.sub(r"\.{2,}", ".", "-".join(re.findall(r"[A-Za-z0-9._]+", subject)))
    name = f"{number:04d}-" + words.rstrip(".-")
    return name[:_NAME_MAX - len(".patch") - 1] + ".patch"


def count(number: int, singular: str, plural: str | None = None) -> str:
    """'1 site', '2 sites', '1 patch', '3 patches'."""
    if number == 1:
        return f"1 {singular}"
    if plural is None:
        plural = singular + ("es" if singular.endswith(("s", "sh", "ch", "x")) else "s")
    return f"{number} {plural}"


def cover_prefixes(plans: list[SeriesPlan], prefix_of: Callable[[PatchPlan], str]) -> dict[str, str]:
    """Series name -> the prefix of its title, unique among the series.

    prefix_of(patch) is the patch's subject prefix.  The title prefix is
    prefixes.series_prefix() of the series' patches (`ALSA:`,
    `char/misc:`).  Series of one patch are sent without a cover letter:
    their title is the patch's subject, so their prefix is the patch's.
    Where two series would still share one, each adds its subsystem's
    first word (`char/ipmi:`)."""
    wanted: dict[str, str] = {}
    for ser in plans:
        found = [prefix_of(p) for p in ser.patches]
        wanted[ser.name] = found[0] if len(found) == 1 else prefixes.series_prefix(found, ser.subsystem)
    by_prefix: dict[str, list[str]] = {}
    for name, prefix in wanted.items():
        by_prefix.setdefault(prefix, []).append(name)
    subsystems = {ser.name: ser.subsystem for ser in plans}
    for prefix, names in by_prefix.items():
        if len(names) < 2:
            continue
        for name in names:
            word = re.split(r"[^A-Za-z0-9]+", subsystems[name].strip())[0].lower() or name
            stem = prefix[:-2] if prefix.endswith(" -") else prefix[:-1]
            wanted[name] = f"{stem}/{word}" + (" -" if prefix.endswith(" -") else ":")
    return wanted
