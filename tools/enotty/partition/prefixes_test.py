"""Subject prefixes: from a git history, from the table, for patches of several files."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from . import prefixes
from ..measure import generated

REPO = Path(__file__).resolve().parents[3]
SITES = REPO / "generated-patches" / "linux-6.12.118" / "sites.tsv"
# the properties every committed output has, checked on each
each_output = pytest.mark.parametrize("output", generated.committed_outputs(), ids=lambda p: p.name)


def git(repo: Path, *args: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="A",
               GIT_AUTHOR_EMAIL="a@kernel.org", GIT_COMMITTER_NAME="A", GIT_COMMITTER_EMAIL="a@kernel.org")
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def commit(repo: Path, path: str, subject: str) -> None:
    file = repo / path
    file.parent.mkdir(parents=True, exist_ok=True)
    with file.open("a") as fh:
        fh.write(subject + "\n")
    git(repo, "add", path)
    git(repo, "commit", "-q", "-m", subject)


@pytest.fixture()
def kernel_git(tmp_path: Path) -> Path:
    """A tiny history in which each file has a habit a path cannot guess."""
    repo = tmp_path / "linux"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "master")
    for subject in ("block: floppy: old style", "floppy: fix a race", "floppy: use helper",
                    "Revert \"floppy: use helper\"", "floppy: drop dead code",
                    "treewide: sweep everything"):
        commit(repo, "drivers/block/floppy.c", subject)
    # Input puts a dash after the driver
    for subject in ("Input: serport - fix ldisc", "Input: serport - use guard",
                    "Input: serio - rename", "Input: serport - simplify"):
        commit(repo, "drivers/input/serio/serport.c", subject)
    # a file with too little history of its own takes its folder's habit
    for subject in ("ALSA: firewire-motu: add model", "ALSA: firewire-motu: fix",
                    "ALSA: firewire-motu: tidy"):
        commit(repo, "sound/firewire/motu/motu.c", subject)
    commit(repo, "sound/firewire/motu/motu-hwdep.c", "ALSA: motu: one-off")
    commit(repo, "drivers/char/newdrv.c", "Initial import")
    return repo


def test_subject_prefix_parsing() -> None:
    assert prefixes.subject_prefix("ALSA: hda: Fix mute LED") == "ALSA: hda:"
    assert prefixes.subject_prefix("s390/tape: Remove dead code") == "s390/tape:"
    assert prefixes.subject_prefix("Input: serport - fix ldisc") == "Input: serport -"
    assert prefixes.subject_prefix("crypto: ccp - Add support") == "crypto: ccp -"
    assert prefixes.subject_prefix("Merge tag 'sound-6.12'") is None
    assert prefixes.subject_prefix("Revert \"floppy: x\"") is None
    assert prefixes.subject_prefix("treewide: use foo") is None
    assert prefixes.subject_prefix("Fix the thing: it broke") is None   # spaces: a sentence


def test_dominant_prefix_needs_a_habit() -> None:
    assert prefixes.dominant_prefix(["tun: a", "tun: b", "net: tun: c", "tun: d"]) == "tun:"
    assert prefixes.dominant_prefix(["tun: a", "tun: b"]) is None
    # a tie goes to the one used most recently (subjects come newest first)
    assert prefixes.dominant_prefix(["b: 1", "a: 1", "a: 2", "b: 2"]) == "b:"


def test_prefix_from_git_history(kernel_git: Path) -> None:
    assert prefixes.is_git_checkout(kernel_git)
    assert not prefixes.is_git_checkout(kernel_git / "drivers")
    assert prefixes.patch_prefix(kernel_git, ["drivers/block/floppy.c"]) == "floppy:"
    assert prefixes.patch_prefix(kernel_git, ["drivers/input/serio/serport.c"]) == "Input: serport -"
    # one commit of its own: the folder's habit
    assert prefixes.patch_prefix(kernel_git, ["sound/firewire/motu/motu-hwdep.c"]) == "ALSA: firewire-motu:"
    # no habit anywhere: the table (a glob row here)
    assert prefixes.patch_prefix(kernel_git, ["drivers/char/newdrv.c"]) == "char: newdrv:"


def test_without_git_the_table_decides(kernel_git: Path, tmp_path: Path) -> None:
    tarball = tmp_path / "tarball"
    tarball.mkdir()
    assert not prefixes.is_git_checkout(tarball)
    assert prefixes.patch_prefix(tarball, ["drivers/block/floppy.c"]) == "floppy:"
    # git=False: a checkout's history is not consulted either
    assert prefixes.patch_prefix(kernel_git, ["sound/firewire/motu/motu-hwdep.c"], git=False) == \
        "ALSA: firewire-motu:"


@pytest.mark.parametrize("path, prefix", [
    ("drivers/block/floppy.c", "floppy:"), ("drivers/block/loop.c", "loop:"),
    ("drivers/block/nbd.c", "nbd:"), ("sound/pci/hda/hda_hwdep.c", "ALSA: hda:"),
    ("drivers/s390/char/tape_34xx.c", "s390/tape:"), ("drivers/gpio/gpiolib-cdev.c", "gpiolib: cdev:"),
    ("net/bluetooth/bnep/sock.c", "Bluetooth: bnep:"), ("drivers/isdn/mISDN/socket.c", "mISDN:"),
    ("drivers/char/random.c", "random:"), ("drivers/net/tun.c", "tun:"),
    ("drivers/video/fbdev/sis/sis_main.c", "fbdev: sis:"),
    ("drivers/media/test-drivers/vivid/vivid-osd.c", "media: vivid:"),
    ("drivers/crypto/ccp/dbc.c", "crypto: ccp -"), ("drivers/input/serio/serport.c", "Input: serport -"),
])
def test_table_rows_of_the_6_12_output(path: str, prefix: str) -> None:
    assert prefixes.table_prefix(path) == prefix


def test_table_specificity_and_fallback() -> None:
    rows = prefixes.parse_table("sound/\tALSA:\nsound/pci/*/*.c\tALSA: {stem}:\n"
                                "sound/pci/hda/hda_hwdep.c\tALSA: hda:\nsound/pci/hda/\tALSA: hda-folder:\n")
    assert prefixes.table_prefix("sound/pci/hda/hda_hwdep.c", rows) == "ALSA: hda:"      # path
    assert prefixes.table_prefix("sound/pci/hda/hda_codec.c", rows) == "ALSA: hda_codec:"  # glob over folder
    # * stays in a component; a folder row from higher up adds the file's folder
    assert prefixes.table_prefix("sound/pci/hda/sub/x.c", rows) == "ALSA: hda-folder: sub:"
    assert prefixes.table_prefix("sound/pci/hda/y.c", rows[:1] + rows[3:]) == "ALSA: hda-folder:"
    assert prefixes.table_prefix("sound/core/pcm.c", rows) == "ALSA: core:"
    assert prefixes.table_prefix("sound/pcm.c", rows) == "ALSA:"
    assert prefixes.table_prefix("drivers/nowhere/foo.c", rows) == "nowhere:"            # folder name
    assert prefixes.table_prefix("top.c", rows) == "top:"
    with pytest.raises(ValueError, match="prefixes.tsv:1"):
        prefixes.parse_table("only-a-key\n")
    with pytest.raises(ValueError, match="ends in"):
        prefixes.parse_table("a.c\tno colon\n")


@each_output
def test_table_covers_every_file_of_a_committed_output(output: Path) -> None:
    if not (output / "sites.tsv").is_file():
        pytest.skip(f"{output.name} has no sites.tsv")
    files = {line.split("\t")[0] for line in (output / "sites.tsv").read_text().splitlines()[1:]}
    exact = {r.key for r in prefixes.load_table() if r.kind == prefixes._EXACT}
    assert len(files) > 100 and sorted(files - exact) == []


def test_patches_of_several_files() -> None:
    # the MAINTAINERS section names the driver: TUN/TAP driver -> tun:
    assert prefixes.patch_prefix(None, ["drivers/net/tap.c", "drivers/net/tun.c"],
                                 section="TUN/TAP driver") == "tun:"
    # drivers below one folder with a row of its own
    firewire = ["sound/firewire/bebob/bebob_hwdep.c", "sound/firewire/dice/dice-hwdep.c",
                "sound/firewire/motu/motu-hwdep.c"]
    assert prefixes.patch_prefix(None, firewire,
                                 section="FIREWIRE AUDIO DRIVERS and IEC 61883-1/6") == "ALSA: firewire:"
    # otherwise the common start of their prefixes
    assert prefixes.patch_prefix(None, ["drivers/s390/cio/chsc_sch.c", "drivers/s390/crypto/zcrypt_api.c"]) \
        == "s390:"
    assert prefixes.patch_prefix(None, ["sound/pci/hda/hda_hwdep.c", "sound/usb/mixer_scarlett2.c"]) == "ALSA:"
    assert prefixes.patch_prefix(None, ["drivers/s390/char/tape_34xx.c", "drivers/s390/char/tape_3590.c"]) \
        == "s390/tape:"
    assert prefixes.common_start(["drm/i915/perf:", "drm/i915:"]) == "drm/i915:"
    assert prefixes.common_start(["tun:", "tap:"]) == ""


def test_series_prefix_and_distinct_subjects() -> None:
    rows = prefixes.parse_table("section:CHAR and MISC DRIVERS\tchar/misc:\n")
    assert prefixes.series_prefix(["ALSA: opl3:", "ALSA: rme9652:", "ALSA:"], "SOUND", rows) == "ALSA:"
    assert prefixes.series_prefix(["char: lp:", "ppdev:", "cxl:"], "CHAR and MISC DRIVERS", rows) == "char/misc:"
    # no row: the most common first component
    assert prefixes.series_prefix(["char: lp:", "ppdev:", "char: dtlk:"], "OTHER", rows) == "char:"
    assert prefixes.series_prefix(["tun:"], "NETWORKING DRIVERS", rows) == "tun:"
    # a one-word prefix is not doubled (was "tun::")
    assert prefixes.series_prefix(["tun:", "net: wwan: core:"], "NETWORKING DRIVERS", rows) == "tun:"
    assert prefixes.distinct_prefixes(["mISDN:", "mISDN:", "tun:"], ["socket", "timerdev", "tun"]) == \
        ["mISDN: socket:", "mISDN: timerdev:", "tun:"]
    dashed = prefixes.distinct_prefixes(["crypto: ccp -", "crypto: ccp -"], ["dbc", "sev"])
    assert dashed == ["crypto: ccp/dbc -", "crypto: ccp/sev -"]
    assert prefixes.common_start(dashed) == "crypto: ccp -"
    assert prefixes.series_prefix(dashed) == "crypto: ccp -"


@pytest.mark.skipif(not SITES.is_file(), reason="no committed 6.12 output")
def test_section_rows_name_real_sections() -> None:
    from ..kernel import tree
    maintainers = tree.cache_dir() / "src" / tree.PINNED_PACKAGE / "MAINTAINERS"
    if not maintainers.is_file():
        pytest.skip("default tree not unpacked")
    titles = set(maintainers.read_text(errors="replace").splitlines())
    rows = [r for r in prefixes.load_table() if r.kind == prefixes._SECTION]
    assert rows and [r.key for r in rows if r.key[len(prefixes.SECTION_KEY):] not in titles] == []


def test_two_drivers_of_one_folder_are_both_named() -> None:
    # hdsp.c and hdspm.c share sound/pci/rme9652/, whose name is a third
    # driver's (rme9652.c): upstream titles them "ALSA: hdsp:" / "ALSA: hdspm:"
    assert prefixes.patch_prefix(None, ["sound/pci/rme9652/hdsp.c", "sound/pci/rme9652/hdspm.c"]) == \
        "ALSA: hdsp, hdspm:"
    # drivers of several folders keep the folder's or the subsystem's prefix
    assert prefixes.patch_prefix(None, ["sound/firewire/bebob/bebob_hwdep.c",
                                        "sound/firewire/dice/dice-hwdep.c"]) == "ALSA: firewire:"
    # Input's and crypto's dashed style has no such form
    assert prefixes.patch_prefix(None, ["drivers/input/evdev.c", "drivers/input/joydev.c"]) == "Input:"


def _patch_files(text: str) -> list[str]:
    return sorted({line[6:] for line in text.splitlines() if line.startswith("+++ b/")})


@each_output
def test_every_committed_patch_prefix_has_a_row(output: Path) -> None:
    """Each patch's subject prefix comes from the table's rows for its
    files: one row, the pair of two, their common start (a patch spanning
    drivers), a section row, or a row plus the driver's name (two patches
    of one series with the same row)."""
    rows = prefixes.load_table()
    sections = {r.prefix for r in rows if r.kind == prefixes._SECTION}
    unexplained = []
    patches = sorted(output.glob("*/*.patch"))
    assert patches
    for path in patches:
        if path.name.startswith("0000-"):
            continue
        text = path.read_text(errors="replace")
        # the subject and its folded lines only; Input writes "return"
        m = re.search(r"^Subject: \[PATCH[^\]]*\] ((?:[^\n]|\n )*?) [Rr]eturn ", text, re.M)
        if m is None:   # the companions: the rule and the kselftest (with its MAINTAINERS line)
            assert all(f.startswith(("scripts/coccinelle/", "tools/testing/selftests/")) or f == "MAINTAINERS"
                       for f in _patch_files(text)), path
            continue
        prefix = " ".join(m.group(1).split())
        files = [f for f in _patch_files(text) if f.endswith((".c", ".h"))]
        found = sorted({prefixes.table_prefix(f) for f in files})
        folders = {r.prefix for r in rows if r.kind == prefixes._FOLDER and all(f.startswith(r.key) for f in files)}
        allowed = set(found) | sections | folders | {prefixes.common_start(found),
                                                     prefixes.patch_prefix(None, files)}
        if len(found) == 2:
            allowed.add(prefixes._pair(files, found, rows))
        if prefix in allowed or any(prefix.startswith(f + " ") or prefix.startswith(f[:-2] + "/")
                                    for f in found):
            continue
        unexplained.append(f"{path.parent.name}/{path.name}: {prefix!r} from {found}")
    assert unexplained == []
