"""verify-generated: what it reads from the committed output, how it compares."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from . import generated
from ..judge import handlers
from ..errors import UsageError
from ..requests import VerifyGeneratedRequest


def test_recorded_request(tmp_path: Path) -> None:
    kernel = Path(__file__).parents[1] / "testdata" / "series" / "kernel"
    (tmp_path / "run.json").write_text(json.dumps({
        "command": "make patches M=drivers/watchdog BUILD=0", "kdir": str(kernel),
        "subdir": "drivers/watchdog", "version": "6.12.0", "build": False, "cleanups": False,
        "identity": "Jane Doe <jane@example.org>"}))
    req = generated.recorded_request(tmp_path)
    assert req.scan.tree.root == kernel.resolve() and req.scan.subdir == "drivers/watchdog"
    assert (req.build, req.cleanups, str(req.identity)) == (False, False, "Jane Doe <jane@example.org>")
    assert req.out == tmp_path
    # A record without "facts" was made before phase 1 existed in the
    # scan: the rerun has it; FACTS=0 is recorded as "facts": false.
    assert req.scan.across_files is True
    record = json.loads((tmp_path / "run.json").read_text())
    (tmp_path / "run.json").write_text(json.dumps(dict(record, facts=False)))
    assert generated.recorded_request(tmp_path).scan.across_files is False
    with pytest.raises(UsageError, match="no run.json"):
        generated.recorded_request(tmp_path / "media")
    (tmp_path / "run.json").write_text("{}")
    with pytest.raises(UsageError, match="not a run record"):
        generated.recorded_request(tmp_path)


def test_differences(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    for d in (a, b):
        (d / "s").mkdir(parents=True)
        (d / "same").write_text("x\n")
    (a / "s" / "p").write_text("one\ntwo\n")
    (b / "s" / "p").write_text("one\nTWO\n")
    (a / "gone").write_text("")
    (b / "new").write_text("")
    assert generated.differences(a, b) == [
        "only in committed: gone", "only in fresh run: new", "differs: s/p: -two | +TWO"]
    assert generated.differences(a / "s", a / "s") == []


@pytest.mark.skipif(__import__("shutil").which("spatch") is None, reason="needs spatch")
def test_verify_generated_on_the_fixture_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    from .. import cli
    monkeypatch.setenv("ENOTTY_CACHE", str(tmp_path / "cache"))
    kernel = Path(__file__).parents[1] / "testdata" / "series" / "kernel"
    out = tmp_path / "committed"
    assert cli.main(["patches", "--kdir", str(kernel), "--subdir", "drivers/watchdog", "--out", str(out),
                     "--signoff", "Jane Doe <jane@example.org>"]) == 0
    assert generated.recorded_request(out).scan.subdir == "drivers/watchdog"
    req = VerifyGeneratedRequest(tree=None, committed=out)
    assert generated.verify_generated(req) == 0
    patch = sorted((out / "watchdog-device-drivers").glob("0001-*.patch"))[0]
    patch.write_text(patch.read_text().replace("ENOTTY", "EBADF"))
    capsys.readouterr()
    assert generated.verify_generated(req) == 1
    err = capsys.readouterr().err
    assert "differs from a fresh run" in err and f"differs: watchdog-device-drivers/{patch.name}" in err


# README.rst quotes a patch of the default output, the newest tree's
README_OUTPUT = max(generated.committed_outputs(), key=lambda p: [int(x) for x in p.name[6:].split(".")],
                    default=Path(__file__).resolve().parents[3] / "generated-patches" / "linux-6.12.118")
# the properties every committed output has, checked on each
each_output = pytest.mark.parametrize("output", generated.committed_outputs(), ids=lambda p: p.name)


def committed_file(output: Path, name: str) -> Path:
    """output/name; the test is skipped for an output without it."""
    if not (output / name).is_file():
        pytest.skip(f"{output.name} has no {name}")
    return output / name


@each_output
def test_cover_letters_agree_with_the_audit(output: Path) -> None:
    """A series with measured patches (audit.tsv's patch column) must not
    say that make audit reaches none of its drivers (the sound cover did,
    when only its cleanup patch had been measured)."""
    audit = committed_file(output, "audit.tsv")
    # an audit older than the output may name patches the output no longer
    # has (a series split since): those measure nothing of today's series
    measured = {row.split("\t")[7].split("/")[0]
                for row in audit.read_text().splitlines()[1:]
                if row.split("\t")[7] != "-" and (output / row.split("\t")[7]).is_file()}
    assert measured
    for series in sorted(measured):
        cover = output / series / "0000-cover-letter.patch"
        if cover.is_file():
            text = " ".join(cover.read_text().split())
            assert "make audit reaches none of these drivers" not in text, series
            assert "measured in a kernel booted in QEMU" in text, series
            # One measured patch has one line: "1 of the 2 patches was
            # measured ...; its line", not "their".
            if re.search(r"\b1 of the \d+ patches was measured", text):
                assert 'its "Tested in QEMU" line' in text, series
            # Every patch measured reads "Both patches" or "All 3 patches",
            # not "2 of the 2".
            assert not [m for m in re.findall(r"\b(\d+) of the (\d+) patches", text)
                        if m[0] == m[1]], series


@each_output
def test_no_committed_handler_is_half_converted(output: Path) -> None:
    """The handler model of the committed output: a handler in a series has
    no unknown-command exit left with its old answer, and every handler left
    out for that reason is named, with why, in SUMMARY.md."""
    with open(committed_file(output, "handlers.tsv")) as fh:
        rows = handlers.read_tsv(fh)
    assert rows
    text = committed_file(output, "SUMMARY.md").read_text()
    converted = [r for r in rows if r["verdict"] == "converted"]
    assert converted and all(r["left"] == "-" and r["series"] != "-" for r in converted)
    for r in rows:
        if r["verdict"] == "left out":
            assert r["series"] == "-", r
            assert r["left"] != "-" and named_in_summary(r, text), r


@each_output
def test_every_answer_kept_by_name_is_in_its_patch(output: Path) -> None:
    """Each handler SUMMARY.md says keeps its old answer for named commands
    is converted (handlers.tsv) in a patch that names those commands in
    added lines, with the comment that says who reads the answer."""
    text = committed_file(output, "SUMMARY.md").read_text()
    kept = re.findall(r"^- (\S+): (\w+)\(\): (.+?) keeps? -(E[A-Z]+) \((.+)\)$", text, re.M)
    assert kept, "no answer kept by name"
    with open(committed_file(output, "handlers.tsv")) as fh:
        converted = {(r["file"], f) for r in handlers.read_tsv(fh) if r["verdict"] == "converted"
                     for f in r["functions"].split(",")}
    patches = {p: p.read_text() for p in output.glob("*/0*.patch")}
    for file, function, commands, errno, readers in kept:
        assert (file, function) in converted, (file, function)
        mine = [t for t in patches.values() if f"+++ b/{file}\n" in t]
        assert len(mine) == 1, file
        added = "\n".join(line for line in mine[0].splitlines() if line.startswith("+"))
        for name in re.split(r", | and ", commands):
            assert re.search(r"\b%s\b" % name, added), (file, name)
        assert f"-{errno} here" in " ".join(added.replace("+", " ").replace("*", " ").split()), file


def named_in_summary(row: dict[str, str], summary: str) -> bool:
    """SUMMARY.md gives the row's reason: the handler's own ("h() left
    out: why"), or its sites' (an in-tree test, a file no configuration
    compiles: "file: f() left as it is: why", the tests with their lines)."""
    if f"{row['handler']}() left out: {row['left']}" in " ".join(summary.split()):
        return True
    tests = re.sub(r" expects? EINVAL$", "", row["left"]).split(", ")
    functions = row.get("functions", row["handler"]).split(",")
    # the bullet of a site in the handler's file, or in a header it calls
    for file, names, why in re.findall(r"^- (\S+): (.*?) left as it is: (.*)$", summary, re.M):
        if file != row["file"] and not any(f"{f}()" in names for f in functions):
            continue
        why = re.sub(r":\d+\b", "", why)
        if row["left"] in why or all(f"{t}," in why or f"{t} expect" in why for t in tests):
            return True
    return False


def test_a_handler_left_out_for_its_tests_is_named_by_its_sites_line() -> None:
    summary = ("- fs/eventpoll.c: ep_eventpoll_ioctl() left as it is: tools/testing/selftests/net/a.c:316,"
               " tools/testing/selftests/net/b.c:9 expect EINVAL from it.\n"
               "- fs/x.c: x_ioctl() left out: a check answers first\n")
    row = {"file": "fs/eventpoll.c", "handler": "ep_eventpoll_ioctl",
           "left": "tools/testing/selftests/net/a.c, tools/testing/selftests/net/b.c expect EINVAL"}
    assert named_in_summary(row, summary)
    assert not named_in_summary(dict(row, left="tools/testing/selftests/net/c.c expects EINVAL"), summary)
    other = dict(row, file="fs/other.c", handler="other_ioctl")
    assert not named_in_summary(other, summary)
    # a helper's site in a header: its bullet names the header and the helper
    assert named_in_summary(dict(other, functions="other_ioctl,ep_eventpoll_ioctl"), summary)
    assert named_in_summary({"file": "fs/x.c", "handler": "x_ioctl", "left": "a check answers first"}, summary)


def test_readme_shows_the_committed_patch() -> None:
    """README.rst quotes the floppy patch of the default output, its mail
    header and message up to the `---` line, byte for byte (regenerating
    must update it)."""
    readme = (Path(__file__).resolve().parents[3] / "README.rst").read_text()
    section = readme.split("What a maintainer receives\n", 1)[1].split("\nWhat changed between the trees\n", 1)[0]
    patch = next(README_OUTPUT.glob("block-layer/*-floppy-Return-ENOTTY-for-unknown-ioctl-commands.patch"))
    text = patch.read_text().split("\n---\n", 1)[0]
    quoted = "\n".join(("    " + line) if line else "" for line in text.splitlines())
    assert "::\n\n" + quoted + "\n\n" in section
