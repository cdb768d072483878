"""Writing a series with git: mbox format, numbering, cover letter, git am."""
from __future__ import annotations

import dataclasses
import difflib
import email
import email.policy
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from . import messages, series
from ..kernel import tree
from ..find.interfaces import Interface
from enotty.requests import Identity
from ..find.sites import Site
from ..partition import prefixes
from ..partition.split import FileChange, PatchPlan, SeriesPlan

FIXTURE = Path(__file__).parents[1] / "testdata" / "series" / "kernel"
IDENTITY = Identity("Test Author", "author@example.org")
SIGNOFF = "Test Author <author@example.org>"


def _subject(mbox: str) -> str:
    """A mail's Subject, unfolded."""
    return str(email.message_from_string(mbox, policy=email.policy.default)["Subject"])


def einval_to_enotty(rel: str) -> FileChange:
    old = (FIXTURE / rel).read_text()
    new = old.replace("return -EINVAL;", "return -ENOTTY;")
    diff = "".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                        f"a/{rel}", f"b/{rel}"))
    line = old.splitlines().index("\t\treturn -EINVAL;") + 1
    site = Site(rel, line, Path(rel).stem + "_ioctl", "file_operations.unlocked_ioctl",
                "EINVAL", "ENOTTY", "ioctl_default_return")
    return FileChange(rel, diff, (site,))


def make_patch(change: FileChange, driver: str) -> series.Patch:
    plan = PatchPlan(change.path, driver, "WATCHDOG DEVICE DRIVERS", [change])
    subject = messages.subject(f"watchdog: {driver}:", plan.sites)
    ifaces = {"file_operations.unlocked_ioctl": Interface(
        "file_operations", "unlocked_ioctl", 1, "ENOTTY", False, "fs/ioctl.c:vfs_ioctl")}
    msg = messages.commit_message(subject, plan.sites, ifaces, ["ioctl_default_return"], SIGNOFF)
    return series.Patch(plan, subject, msg, to=("Wim Watchdog <wim@example.org>",),
                        cc=("linux-watchdog@vger.kernel.org",))


def write(plan: SeriesPlan, patches: list[series.Patch], out: Path, subject: str, blurb: str,
          to: tuple[str, ...] = (), cc: tuple[str, ...] = (), base: str | None = None) -> series.Formatted:
    """format_mails() over FIXTURE, saved into out as the write stage does."""
    done = series.format_mails(tree.at(FIXTURE), plan, patches, IDENTITY, series.Cover(subject, blurb, to, cc),
                               base)
    out.mkdir(parents=True, exist_ok=True)
    for mail in done.written:
        (out / mail.name).write_text(mail.text)
    return done


@pytest.fixture()
def written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, series.Formatted]:
    monkeypatch.setenv("ENOTTY_CACHE", str(tmp_path / "cache"))
    patches = [make_patch(einval_to_enotty("drivers/watchdog/bar_wdt.c"), "bar_wdt"),
               make_patch(einval_to_enotty("drivers/watchdog/foo_wdt.c"), "foo_wdt")]
    plan = SeriesPlan("watchdog-device-drivers", "WATCHDOG DEVICE DRIVERS", [p.plan for p in patches])
    out = tmp_path / "out"
    done = write(plan, patches, out, "watchdog: Return -ENOTTY",
                 "The blurb.\n", ("Wim Watchdog <wim@example.org>",), ("linux-watchdog@vger.kernel.org",))
    return out, done


def mailinfo(path: Path, tmp: Path) -> str:
    res = subprocess.run(["git", "mailinfo", str(tmp / "msg"), str(tmp / "patch")],
                         stdin=path.open("rb"), capture_output=True, check=True)
    return res.stdout.decode()


def test_files_numbering_and_mailinfo(written: tuple[Path, series.Formatted], tmp_path: Path) -> None:
    out, done = written
    names = sorted(p.name for p in out.iterdir())
    assert names[0] == "0000-cover-letter.patch"
    assert names[1].startswith("0001-watchdog-bar_wdt-Return-ENOTTY")
    assert names[2].startswith("0002-watchdog-foo_wdt-Return-ENOTTY") and len(names) == 3
    subjects = [_subject((out / n).read_text()) for n in names]
    assert subjects == ["[PATCH 0/2] watchdog: Return -ENOTTY",
                        "[PATCH 1/2] watchdog: bar_wdt: Return -ENOTTY for unknown ioctl commands",
                        "[PATCH 2/2] watchdog: foo_wdt: Return -ENOTTY for unknown ioctl commands"]
    info = mailinfo(out / names[1], tmp_path)
    assert "Author: Test Author" in info and "Email: author@example.org" in info
    assert "Subject: watchdog: bar_wdt: Return -ENOTTY for unknown ioctl commands" in info
    body = (tmp_path / "msg").read_text()
    assert "Signed-off-by: " + SIGNOFF in body
    assert "Documentation/driver-api/ioctl.rst" in body and "bar_wdt_ioctl()" in body
    assert all(len(line) <= 75 for line in body.splitlines() if not line.startswith("Signed-off-by"))
    assert "+\t\treturn -ENOTTY;" in (tmp_path / "patch").read_text()


def test_cover_letter_fields(written: tuple[Path, series.Formatted]) -> None:
    out, done = written
    cover = (out / "0000-cover-letter.patch").read_text()
    assert "***" not in cover
    head = cover.split("\n\n", 1)[0]
    assert "\nTo: Wim Watchdog <wim@example.org>" in head
    assert "\nCc: linux-watchdog@vger.kernel.org" in head
    assert "The blurb." in cover
    assert "Test Author (2):" in cover and "2 files changed" in cover  # shortlog + diffstat


def test_applies_with_git_am_and_is_deterministic(written: tuple[Path, series.Formatted],
                                                  tmp_path: Path) -> None:
    out, done = written
    repo = tmp_path / "am"
    shutil.copytree(FIXTURE, repo)
    env = series.git_env(IDENTITY)
    git = lambda *a: subprocess.run(["git", *a], cwd=repo, env=env, capture_output=True, text=True)  # noqa: E731
    git("init", "-q")
    git("add", ".")
    git("commit", "-qm", "pristine")
    patches = sorted(out.glob("000[1-9]-*.patch"))
    res = git("am", *map(str, patches))
    assert res.returncode == 0, res.stderr
    assert "return -ENOTTY;" in (repo / "drivers/watchdog/foo_wdt.c").read_text()
    assert git("log", "--format=%s").stdout.splitlines()[0] == \
        "watchdog: foo_wdt: Return -ENOTTY for unknown ioctl commands"
    # a second run writes the same bytes
    again = tmp_path / "again"
    patches2 = [make_patch(einval_to_enotty("drivers/watchdog/bar_wdt.c"), "bar_wdt"),
                make_patch(einval_to_enotty("drivers/watchdog/foo_wdt.c"), "foo_wdt")]
    plan = SeriesPlan("watchdog-device-drivers", "WATCHDOG DEVICE DRIVERS", [p.plan for p in patches2])
    write(plan, patches2, again, "watchdog: Return -ENOTTY",
          "The blurb.\n", ("Wim Watchdog <wim@example.org>",), ("linux-watchdog@vger.kernel.org",))
    for path in out.iterdir():
        assert (again / path.name).read_bytes() == path.read_bytes()


def test_a_patch_that_does_not_apply_is_left_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENOTTY_CACHE", str(tmp_path / "cache"))
    good = make_patch(einval_to_enotty("drivers/watchdog/bar_wdt.c"), "bar_wdt")
    broken_change = einval_to_enotty("drivers/watchdog/foo_wdt.c")
    broken_change = FileChange(broken_change.path,
                               broken_change.diff.replace("-\t\treturn -EINVAL;", "-\t\treturn -EBUSY;"),
                               broken_change.sites)
    bad = make_patch(broken_change, "foo_wdt")
    plan = SeriesPlan("wd", "WATCHDOG DEVICE DRIVERS", [good.plan, bad.plan])
    done = write(plan, [good, bad], tmp_path / "out", "s", "b")
    assert "patch does not apply" in done.errors[1] and not done.errors[0]
    assert done.mails[1] is None and [m.name[:5] for m in done.written] == ["0001-"]
    # one patch left: sent as [PATCH], without a cover letter
    assert _subject(done.written[0].text).startswith("[PATCH] watchdog: bar_wdt: ")
    assert done.cover is None and [p.name for p in (tmp_path / "out").iterdir()] == [done.written[0].name]


def test_tree_tag_and_base_commit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENOTTY_CACHE", str(tmp_path / "cache"))
    patches = [make_patch(einval_to_enotty("drivers/watchdog/bar_wdt.c"), "bar_wdt"),
               make_patch(einval_to_enotty("drivers/watchdog/foo_wdt.c"), "foo_wdt")]
    plan = SeriesPlan("net", "NETWORKING DRIVERS", [p.plan for p in patches], tree_tag="net-next")
    base = "1234567890abcdef1234567890abcdef12345678"
    done = write(plan, patches, tmp_path / "out", "watchdog: Return -ENOTTY", "Blurb.\n", base=base)
    assert done.cover and _subject(done.cover.text) == "[PATCH net-next 0/2] watchdog: Return -ENOTTY"
    mails = [m for m in done.mails if m]
    assert _subject(mails[1].text).startswith("[PATCH net-next 2/2] watchdog: foo_wdt:")
    assert done.cover.text.endswith(f"\n\nbase-commit: {base}\n")
    assert "base-commit" not in mails[0].text
    # one patch: the line goes into the patch, after the diff, as format-patch --base puts it
    plan1 = SeriesPlan("net", "NETWORKING DRIVERS", [patches[0].plan], tree_tag="net-next")
    one = write(plan1, [patches[0]], tmp_path / "one", "", "", base=base)
    text = one.written[0].text
    assert _subject(text).startswith("[PATCH net-next] watchdog: bar_wdt:")
    assert text.index("+\t\treturn -ENOTTY;") < text.index(f"\nbase-commit: {base}\n")


@pytest.mark.parametrize("count", [1, 2])
def test_finish_gives_the_bytes_of_formatting_again(count: int, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A series formatted without recipients, cover or base, then finished
    with them, equals the series formatted with them (no git run)."""
    monkeypatch.setenv("ENOTTY_CACHE", str(tmp_path / "cache"))
    addressed = [make_patch(einval_to_enotty("drivers/watchdog/bar_wdt.c"), "bar_wdt"),
                 make_patch(einval_to_enotty("drivers/watchdog/foo_wdt.c"), "foo_wdt")][:count]
    bare = [dataclasses.replace(p, to=(), cc=()) for p in addressed]
    plan = SeriesPlan("watchdog-device-drivers", "WATCHDOG DEVICE DRIVERS", [p.plan for p in bare])
    kernel = tree.at(FIXTURE)
    raw = series.format_mails(kernel, plan, bare, IDENTITY)
    assert not any("\nTo: " in m.text for m in raw.written)
    cover = series.Cover("watchdog: Return -ENOTTY", "The blurb.\n", ("Wim Watchdog <wim@example.org>",),
                         ("linux-watchdog@vger.kernel.org",))
    base = "1234567890abcdef1234567890abcdef12345678"
    again = series.format_mails(kernel, plan, addressed, IDENTITY, cover, base)
    finished = series.finish(raw, addressed, cover, base)
    assert finished.written == again.written
    assert all("\nTo: Wim Watchdog" in m.text and "base-commit: " + base in finished.written[0].text
               for m in finished.written)


def test_base_commit_of_a_checkout(tmp_path: Path) -> None:
    repo = tmp_path / "linux"
    shutil.copytree(FIXTURE, repo)
    assert prefixes.base_commit(repo) is None            # no git: a tarball
    env = series.git_env(IDENTITY)
    git = lambda *a: subprocess.run(["git", *a], cwd=repo, env=env, capture_output=True, text=True)  # noqa: E731
    git("init", "-q")
    git("add", ".")
    git("commit", "-qm", "base")
    head = git("rev-parse", "HEAD").stdout.strip()
    assert len(head) == 40 and prefixes.base_commit(repo) == head
    (repo / "drivers/watchdog/bar_wdt.c").write_text("changed\n")
    assert prefixes.base_commit(repo) is None            # local changes: no commit is the base


def test_counts_and_unique_titles() -> None:
    assert [series.count(1, "site"), series.count(2, "site"), series.count(1, "file"),
            series.count(3, "patch"), series.count(0, "file")] == \
        ["1 site", "2 sites", "1 file", "3 patches", "0 files"]

    def plan(name: str, subsystem: str, *paths: str) -> SeriesPlan:
        return SeriesPlan(name, subsystem, [PatchPlan(p, Path(p).stem, "") for p in paths])
    plans = [plan("sound", "SOUND", "sound/pci/hda/hda_hwdep.c", "sound/drivers/opl3/opl3_oss.c"),
             plan("char-and-misc-drivers", "CHAR and MISC DRIVERS", "drivers/char/lp.c", "drivers/char/ppdev.c"),
             plan("ipmi", "IPMI SUBSYSTEM", "drivers/char/ipmi/x.c", "drivers/char/ipmi/y.c"),
             plan("other", "OTHER CHAR", "drivers/char/a.c", "drivers/char/b.c"),
             plan("random", "RANDOM NUMBER DRIVER", "drivers/char/random.c")]
    table = {"sound/pci/hda/hda_hwdep.c": "ALSA: hda:", "sound/drivers/opl3/opl3_oss.c": "ALSA: opl3:",
             "drivers/char/lp.c": "char: lp:", "drivers/char/ppdev.c": "ppdev:",
             "drivers/char/ipmi/x.c": "char: x:", "drivers/char/ipmi/y.c": "char: y:",
             "drivers/char/a.c": "char: a:", "drivers/char/b.c": "char: b:", "drivers/char/random.c": "random:"}
    got = series.cover_prefixes(plans, lambda p: table[p.key])
    assert got == {"sound": "ALSA:", "char-and-misc-drivers": "char/misc:",
                   # two series would both be "char:": each names its subsystem
                   "ipmi": "char/ipmi:", "other": "char/other:",
                   "random": "random:"}
    assert len(set(got.values())) == len(got)


def test_a_rerun_on_the_same_input_writes_the_same_bytes_without_git(
        written: tuple[Path, series.Formatted], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out, done = written
    patches = [make_patch(einval_to_enotty("drivers/watchdog/bar_wdt.c"), "bar_wdt"),
               make_patch(einval_to_enotty("drivers/watchdog/foo_wdt.c"), "foo_wdt")]
    plan = SeriesPlan("watchdog-device-drivers", "WATCHDOG DEVICE DRIVERS", [p.plan for p in patches])
    monkeypatch.setenv("PATH", str(tmp_path / "no-git-here"))
    again = write(plan, patches, tmp_path / "again", "watchdog: Return -ENOTTY",
                  "The blurb.\n", ("Wim Watchdog <wim@example.org>",), ("linux-watchdog@vger.kernel.org",))
    assert again == done
    assert again.files == done.files and b"return -ENOTTY;" in again.files["drivers/watchdog/bar_wdt.c"]
    for mail in sorted(out.iterdir()):
        assert (tmp_path / "again" / mail.name).read_bytes() == mail.read_bytes()
    # a changed message is new input: git is needed again
    patches[0] = dataclasses.replace(patches[0], message=patches[0].message.replace("Return", "Answer"))
    with pytest.raises(FileNotFoundError):
        write(plan, patches, tmp_path / "third", "s", "b")


def test_a_mail_without_maintainers_goes_to_its_list() -> None:
    mbox = "From x\nSubject: [PATCH] a: b\n\nbody\n"
    out = series.add_recipients(mbox, [], ["linuxppc-dev@lists.ozlabs.org", "linux-kernel@vger.kernel.org"])
    assert "\nTo: linuxppc-dev@lists.ozlabs.org\nCc: linux-kernel@vger.kernel.org\n" in out


def test_mail_name_is_the_file_name_git_gives() -> None:
    """The compose stage finds a patch's audit rows by this name before git
    has written anything: it must be git format-patch's own."""
    subjects = ["watchdog: bar_wdt: Return -ENOTTY for unknown ioctl commands",   # cut to 64
                "a...b (c) --", "fbdev: omap: Return -ENOTTY", "x" * 80, "_lead. trail.-"]
    repo = series.ScratchRepo(Path(tempfile.mkdtemp(prefix="mail-name-")), IDENTITY)
    try:
        for number, subject in enumerate(subjects, 1):
            repo.git("commit", "-q", "--allow-empty", "-m", subject)
            out = repo.folder / "out"
            repo.git("format-patch", "-q", "-1", f"--start-number={number}", "-o", str(out))
            assert [p.name for p in out.iterdir()] == [series.mail_name(number, subject)]
            shutil.rmtree(out)
        assert series.mail_name(2, "a...b (c) --") == "0002-a.b-c.patch"
    finally:
        shutil.rmtree(repo.folder)
