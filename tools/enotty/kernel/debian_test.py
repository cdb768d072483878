"""Tests for asking Debian unstable for its newest linux-source with a private apt configuration."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from . import debian


def test_apt_options_keep_every_file_under_the_state_folder(tmp_path: Path) -> None:
    opts = debian.apt_options(tmp_path)
    values = dict(o.split("=", 1) for o in opts if o != "-o")
    for key in ("Dir::Etc::sourcelist", "Dir::State::Lists", "Dir::Cache"):
        assert Path(values[key]).is_relative_to(tmp_path), key
    assert values["Dir::Etc::sourceparts"] == "/nonexistent"


def test_the_index_is_not_refreshed_while_it_is_young(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ran: list[list[str]] = []

    def run(argv: list[str], what: str, cwd: Path | None = None) -> str:
        ran.append(argv)
        return ""

    monkeypatch.setattr(debian, "_run", run)
    assert debian.refresh_index(tmp_path) is True
    assert (tmp_path / "sources.list").read_text().split()[2] == "sid"
    assert debian.refresh_index(tmp_path) is False and len(ran) == 1
    os.utime(tmp_path / "updated", (0, 0))
    assert debian.refresh_index(tmp_path) is True and len(ran) == 2


def test_newest_picks_the_highest_linux_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    answers = {
        "search": "linux-source-6.19 - Linux kernel source\nlinux-source-7.2 - Linux kernel source\n"
                  "linux-source-7.10 - Linux kernel source\nlinux-source - meta-package\n",
        "policy": "linux-source-7.10:\n  Installed: (none)\n  Candidate: 7.10.1-2\n",
    }
    asked: list[str] = []

    def run(argv: list[str], what: str, cwd: Path | None = None) -> str:
        verb = next(a for a in argv if a in answers)
        asked.append(argv[-1])
        return answers[verb]

    monkeypatch.setattr(debian, "_run", run)
    assert debian.newest(tmp_path) == debian.Package("linux-source-7.10", "7.10.1-2")
    assert asked[-1] == "linux-source-7.10"


@pytest.mark.skipif(os.environ.get("ENOTTY_QUICK") == "1", reason="ENOTTY_QUICK: no network")
def test_REAL_APT_lists_a_linux_source_newer_than_debian_12s(tmp_path: Path) -> None:
    """The real mirror, through the private configuration: unstable lists a
    linux-source newer than 6.12 (whatever version it serves that day)."""
    etc = Path("/etc/apt")
    before = sorted((p, p.stat().st_mtime) for p in etc.rglob("*") if p.is_file())
    try:
        debian.refresh_index(tmp_path)
    except debian.FetchError as err:
        pytest.skip(f"no Debian mirror reachable: {err}")
    package = debian.newest(tmp_path)
    major, minor = (int(x) for x in package.name.removeprefix("linux-source-").split("."))
    assert (major, minor) > (6, 12)
    assert package.version.startswith(f"{major}.{minor}.")
    assert sorted((p, p.stat().st_mtime) for p in etc.rglob("*") if p.is_file()) == before
