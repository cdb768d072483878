"""Tests for the Debian package check."""
from __future__ import annotations

import pytest

from . import packages
from .errors import UsageError


def test_missing_reports_only_absent_packages() -> None:
    # dpkg itself is always installed on Debian; the other name cannot exist.
    assert packages.missing(["dpkg", "enotty-no-such-package"]) == ["enotty-no-such-package"]


def test_non_root_gets_the_exact_apt_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(packages.NEEDS, "probe", ("dpkg", "enotty-no-such-package"))
    monkeypatch.setattr(packages.os, "geteuid", lambda: 1000)
    with pytest.raises(UsageError) as err:
        packages.ensure("probe")
    assert str(err.value).endswith(
        "apt-get install -y --no-install-recommends enotty-no-such-package")


def test_nothing_missing_does_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(packages.NEEDS, "probe", ("dpkg",))
    # As non-root a missing package would raise: nothing must be asked for.
    monkeypatch.setattr(packages.os, "geteuid", lambda: 1000)
    packages.ensure("probe")


def test_unknown_target_is_a_usage_error() -> None:
    with pytest.raises(UsageError):
        packages.ensure("no-such-target")


def test_check_needs_everything_the_other_targets_need() -> None:
    for target in ("report", "patches", "qemu"):
        assert set(packages.NEEDS[target]) <= set(packages.NEEDS["check"])


def test_main_exit_status(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(packages.NEEDS, "probe", ("enotty-no-such-package",))
    monkeypatch.setattr(packages.os, "geteuid", lambda: 1000)
    assert packages.main(["probe"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "apt-get install" in err


def test_ensure_packages_names_why_and_the_apt_line(monkeypatch: pytest.MonkeyPatch) -> None:
    # a faked dpkg: every cross compiler is missing
    monkeypatch.setattr(packages, "missing", lambda wanted: [p for p in wanted if "linux-gnu" in p])
    monkeypatch.setattr(packages.os, "geteuid", lambda: 1000)
    packages.ensure_packages(["gcc"], "host")           # nothing missing: nothing said
    with pytest.raises(UsageError) as err:
        packages.ensure_packages(["gcc", "gcc-m68k-linux-gnu"], "cross compilers for m68k")
    assert str(err.value) == ("missing Debian packages (cross compilers for m68k); run as root:"
                              " apt-get install -y --no-install-recommends gcc-m68k-linux-gnu")


def test_a_failing_apt_get_is_one_usage_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess

    def fake_run(cmd: list[str], **kw: object) -> object:
        if cmd[0] == "apt-get":
            raise subprocess.CalledProcessError(100, cmd)
        return type("R", (), {"returncode": 1, "stdout": ""})()

    monkeypatch.setattr(packages.subprocess, "run", fake_run)
    monkeypatch.setattr(packages.os, "geteuid", lambda: 0)
    with pytest.raises(UsageError, match=r"^could not install gcc-sparc64-linux-gnu \(cross compilers; apt-get would"):
        packages.ensure_packages(["gcc-sparc64-linux-gnu"], "cross compilers")


def test_root_installs_the_first_set_now_and_the_rest_in_the_background(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(packages.NEEDS, "probe", ("first-a", "later-b", "later-c"))
    monkeypatch.setitem(packages.FIRST, "probe", ("first-a",))
    monkeypatch.setattr(packages.os, "geteuid", lambda: 0)
    monkeypatch.setattr(packages, "missing", lambda wanted: [p for p in wanted if p != "later-c"])
    now: list[list[str]] = []
    later: list[list[str]] = []
    monkeypatch.setattr(packages, "ensure_packages", lambda wanted, why, *a, **k: now.append(list(wanted)))
    monkeypatch.setattr(packages, "start_background", lambda need, why: later.append(need))
    packages.ensure("probe")
    assert now == [["first-a"]]
    assert later == [["later-b"]]     # later-c is installed already


def test_a_background_run_is_waited_for(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess
    import time
    pid_file = tmp_path / "apt.pid"
    monkeypatch.setattr(packages, "BACKGROUND_PID", pid_file)
    assert packages.wait_for_background() is False        # none going
    child = subprocess.Popen(["sleep", "1.5"])
    pid_file.write_text(f"{child.pid}\n")
    started = time.monotonic()
    assert packages.wait_for_background() is True
    assert time.monotonic() - started >= 1.0
    assert child.poll() is not None
    assert not pid_file.exists()
