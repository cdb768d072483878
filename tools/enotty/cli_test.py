import dataclasses
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from . import cli
from .errors import UsageError

REPO = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).resolve().parent / "testdata" / "tree"
KERNEL = Path(__file__).resolve().parent / "testdata" / "series" / "kernel"
PYTHON = "/usr/bin/python3"

needs_spatch = pytest.mark.skipif(shutil.which("spatch") is None, reason="coccinelle not installed")

# What the project's rules (cocci/*.cocci) find in the fixture tree.
FIXTURE_TSV = (
    "file\tline\tfunction\tinterface\tfrom\tto\trule\n"
    "drivers/foo/bar.c\t21\tbar_ioctl\tfile_operations.unlocked_ioctl\tEINVAL\tENOTTY\tioctl_default_return\n"
    "drivers/foo/foo.c\t12\tfoo_ioctl\tfile_operations.unlocked_ioctl\tEINVAL\tENOTTY\tioctl_default_return\n"
    "drivers/foo/partial.c\t17\tpart_ioctl\tfile_operations.unlocked_ioctl\tEINVAL\tENOTTY\tioctl_default_return\n"
)


def enotty(*args: str, env: dict | None = None, cache: Path) -> subprocess.CompletedProcess:
    full_env = dict(os.environ, PYTHONPATH=str(REPO / "tools"), ENOTTY_CACHE=str(cache))
    full_env.update(env or {})
    return subprocess.run([PYTHON, "-m", "enotty", *args], capture_output=True, text=True,
                          env=full_env, timeout=300)


@needs_spatch
def test_make_report_on_the_fixture_tree(tmp_path):
    env = dict(os.environ, ENOTTY_CACHE=str(tmp_path / "cache"))
    res = subprocess.run(["make", "--no-print-directory", "-C", str(REPO), "report", f"KDIR={FIXTURE}"],
                         capture_output=True, text=True, env=env, timeout=300)
    assert res.returncode == 0, res.stderr
    assert res.stdout == FIXTURE_TSV
    err = res.stderr.splitlines()
    assert "enotty: 0/5 files, 0 sites, 0:00 elapsed" in err                 # progress
    assert any(line.startswith("enotty: 5 of 6 .c files name an errno in an ioctl handler's code (0 more") for line in err)
    assert err[-2:] == [
        "enotty: 1 files not fully scanned (sites in them may be missing):",
        "enotty:   drivers/foo/broken.c: parse-error: 10 lines not parsed from line 10, naming EINVAL, ioctl",
    ]
    assert any(line.startswith("enotty: 1 files parsed in part;") and "--verbose" in line for line in err)


@needs_spatch
def test_report_subdir_and_warm_cache(tmp_path):
    first = enotty("report", "--kdir", str(FIXTURE), "--subdir", "drivers/foo", "--jobs", "1",
                   cache=tmp_path)
    assert first.returncode == 0, first.stderr
    assert first.stdout == FIXTURE_TSV
    again = enotty("report", "--kdir", str(FIXTURE), "--subdir", "drivers/foo", "--verbose",
                   cache=tmp_path)
    assert again.stdout == FIXTURE_TSV
    assert "enotty:   drivers/foo/partial.c: 5 lines not parsed from line 8\n" in again.stderr
    assert "5 from the cache, 0 scanned" in again.stderr
    assert "0/5 files" not in again.stderr          # no spatch run, no progress meter


@needs_spatch
def test_report_on_a_plain_folder_of_c_files(tmp_path):
    module = tmp_path / "module"
    module.mkdir()
    shutil.copy(FIXTURE / "drivers/foo/foo.c", module / "main.c")
    res = enotty("report", "--kdir", str(module), cache=tmp_path / "cache")
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[1:] == [
        "main.c\t12\tfoo_ioctl\tfile_operations.unlocked_ioctl\tEINVAL\tENOTTY\tioctl_default_return"]


def one_line_error(res: subprocess.CompletedProcess, text: str) -> None:
    assert res.returncode == 2
    assert res.stdout == ""
    assert len(res.stderr.splitlines()) == 1, res.stderr
    assert res.stderr.startswith("enotty: ") and text in res.stderr


def test_missing_kdir(tmp_path):
    one_line_error(enotty("report", "--kdir", str(tmp_path / "nope"), cache=tmp_path),
                   "is not a directory")


def test_kdir_without_c_files(tmp_path):
    (tmp_path / "README").write_text("no code here\n")
    one_line_error(enotty("report", "--kdir", str(tmp_path), cache=tmp_path / "cache"),
                   "holds no C files")


def test_missing_subdir(tmp_path):
    one_line_error(enotty("report", "--kdir", str(FIXTURE), "--subdir", "nope", cache=tmp_path),
                   "M=nope is not a directory")


def test_subdir_outside_kdir(tmp_path):
    one_line_error(enotty("report", "--kdir", str(FIXTURE), "--subdir", "..", cache=tmp_path),
                   "--subdir .. is outside")


def test_no_spatch_on_path(tmp_path):
    one_line_error(enotty("report", "--kdir", str(FIXTURE), env={"PATH": str(tmp_path)},
                          cache=tmp_path), "spatch not found on PATH")


@pytest.mark.parametrize("args, text", [
    ([], "required: COMMAND"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
    (["report", "--jobs", "0"], "--jobs: must be 1 or more"),
    (["report", "--timeout", "x"], "--timeout: not a number"),
    (["coccicheck", "--modes", "patch,chain"], "modes are patch,report,context,org, got 'patch,chain'"),
    (["coccicheck", "--kdir", str(FIXTURE)], "not a kernel tree"),
])
def test_bad_arguments(tmp_path, args, text):
    one_line_error(enotty(*args, cache=tmp_path), text)


def test_adding_a_command_is_one_parser_entry():
    parser = cli.build_parser()
    args = parser.parse_args(["report", "--kdir", "k", "--subdir", "s", "--jobs", "3", "--no-cache"])
    assert (args.run, args.kdir, args.subdir, args.jobs, args.timeout, args.no_cache) == (
        cli.cmd_report, "k", "s", 3, 120, True)


def test_arguments_become_one_typed_request(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)     # OUT=o is checked where it would be written
    args = cli.build_parser().parse_args([
        "patches", "--kdir", str(KERNEL), "--jobs", "3", "--out", "o", "--no-build",
        "--cleanups", "--signoff", "Jane Doe <jane@example.org>"])
    req = cli.patches_request(args)
    assert req.scan.tree.root == KERNEL.resolve() and req.scan.tree.kdir == str(KERNEL)
    assert (req.scan.jobs, req.scan.timeout, req.scan.tree.use_cache) == (3, 120, True)
    assert (req.build, req.cleanups, str(req.identity)) == (False, True, "Jane Doe <jane@example.org>")
    assert req.out == Path("o").absolute() and req.audit_from is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(req, "build", True)
    # a folder of C files is split by path, so only one of its folders: refused as the request is made
    plain = cli.build_parser().parse_args(["patches", "--kdir", str(FIXTURE), "--out", "o",
                                          "--signoff", "Jane Doe <jane@example.org>"])
    with pytest.raises(UsageError, match="is not a kernel tree.*--subdir"):
        cli.patches_request(plain)
    assert not (tmp_path / "o").exists()
    # Phase 1 (targets across files) runs unless --no-facts (FACTS=0) says not.
    assert req.scan.across_files is True
    no_facts = cli.build_parser().parse_args(["report", "--kdir", str(FIXTURE), "--no-facts"])
    assert cli.scan_request(no_facts).across_files is False
    bench = cli.build_parser().parse_args(["bench", "--kdir", str(FIXTURE), "--no-facts"])
    assert bench.no_facts is True
    modes = cli.build_parser().parse_args(["coccicheck", "--modes", "org, report", "--timeout", "9"])
    assert (modes.modes, modes.timeout, modes.run) == (("org", "report"), 9.0, cli.cmd_coccicheck)


def test_out_naming_a_file_is_refused_and_the_file_kept(tmp_path):
    victim = tmp_path / "notes.txt"
    victim.write_text("mine\n")
    one_line_error(enotty("patches", "--kdir", str(KERNEL), "--out", str(victim), "--signoff",
                          "A <a@example.org>", cache=tmp_path / "c"), "exists and is not a folder")
    assert victim.read_text() == "mine\n"
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_out_naming_a_folder_of_the_user_is_refused(tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "thesis.tex").write_text("x")
    one_line_error(enotty("patches", "--kdir", str(KERNEL), "--out", str(tmp_path / "mine"),
                          "--signoff", "A <a@example.org>", cache=tmp_path / "c"),
                   "this tool did not write")
    assert [p.name for p in (tmp_path / "mine").iterdir()] == ["thesis.tex"]


def test_out_that_cannot_be_written_is_one_line(tmp_path):
    one_line_error(enotty("patches", "--kdir", str(KERNEL), "--out", "/proc/enotty-x",
                          "--signoff", "A <a@example.org>", cache=tmp_path), "cannot be written")


def test_a_failing_command_is_one_line_with_its_stderr(capsys, monkeypatch):
    def boom(req, listener):
        raise subprocess.CalledProcessError(2, ["make", "-C", "/b", "allmodconfig"],
                                            stderr="line one\n\nmake: *** [Makefile] Error 2\n")
    monkeypatch.setattr(cli.scan, "scan", boom)
    monkeypatch.setattr(cli.scan, "spatch_binary", lambda: "spatch")
    assert cli.main(["report", "--kdir", str(FIXTURE)]) == 1
    err = capsys.readouterr().err
    assert err == "enotty: make -C /b ... failed (exit 2): line one | make: *** [Makefile] Error 2\n"


def test_an_unexpected_error_is_one_line(capsys, monkeypatch):
    monkeypatch.setattr(cli.scan, "scan", lambda req, listener: {}["missing"])
    monkeypatch.setattr(cli.scan, "spatch_binary", lambda: "spatch")
    monkeypatch.delenv("ENOTTY_DEBUG", raising=False)
    assert cli.main(["report", "--kdir", str(FIXTURE)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("enotty: internal error: KeyError")


@needs_spatch
def test_report_runs_phase_1_and_an_edit_rescans_the_files_whose_facts_changed(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(Path(__file__).resolve().parent / "testdata" / "across_files", tree)
    site = ("drivers/foo/common.c\t12\tfoo_common_ioctl\tfile_operations.unlocked_ioctl\tEINVAL\tENOTTY"
            "\tioctl_default_return")
    first = enotty("report", "--kdir", str(tree), "--jobs", "1", cache=tmp_path / "cache")
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines()[1:] == [site]
    assert "enotty: phase 1: 1 targets across files in 1 files (" in first.stderr
    assert "(1 more hold handlers that name none; " in first.stderr      # bar.c
    assert "0 from the cache, 2 scanned" in first.stderr
    # Without fops.c's binding, common.c has no rows and binds nothing: it
    # is no candidate.  Putting the binding back gives common.c its rows
    # again: only fops.c (edited) is scanned again; common.c, with the
    # same content and rows as in the first run, comes from the cache,
    # whose key holds the rows.
    fops = tree / "drivers/foo/fops.c"
    original = fops.read_text()
    fops.write_text(original.replace("\t.unlocked_ioctl\t= foo_ioctl,\n", ""))
    unbound = enotty("report", "--kdir", str(tree), cache=tmp_path / "cache")
    assert unbound.stdout.splitlines()[1:] == []
    fops.write_text(original + "\n")
    again = enotty("report", "--kdir", str(tree), "--verbose", cache=tmp_path / "cache")
    assert again.stdout.splitlines()[1:] == [site]
    assert "1 from the cache, 1 scanned" in again.stderr
    assert [line for line in again.stderr.splitlines() if "scanned again" in line] == [
        "enotty:   scanned again: drivers/foo/fops.c"]
    fops.write_text(original)
    no_facts = enotty("report", "--kdir", str(tree), "--no-facts", cache=tmp_path / "cache")
    assert no_facts.stdout.splitlines()[1:] == [] and "phase 1" not in no_facts.stderr


def test_cleanups_are_opt_in(tmp_path):
    """Changes user space cannot see stay out of the series unless asked for
    (CLEANUP=1): reviewers ask why, and upstream keeps such -ENOIOCTLCMD."""
    args = cli.build_parser().parse_args(["patches", "--kdir", str(KERNEL), "--out", str(tmp_path / "o"),
                                          "--signoff", "J <j@example.org>"])
    assert cli.patches_request(args).cleanups is False


def test_a_new_debian_version_is_said_in_one_line_and_written_beside(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Unstable moved on (7.2.14): make patches says so once and writes
    linux-7.2.14 beside the committed linux-7.2.13; 6.12's folder is not
    the newest tree's output, and KVER=6.12 or a KDIR says nothing."""
    from .kernel import tree as ktree
    from .requests import KernelTree
    out = tmp_path / "generated-patches"
    for name in ("linux-6.12.118", "linux-7.2.13"):
        (out / name).mkdir(parents=True)
    kernel = KernelTree(root=tmp_path, version="7.2.14", is_kernel=True, kver="newest")
    assert kernel.default_out.name == "linux-7.2.14"

    class Here(KernelTree):
        @property
        def default_out(self) -> Path:
            return out / f"linux-{self.version}"

    cli.say_new_version(Here(root=tmp_path, version="7.2.14", is_kernel=True, kver="newest"))
    err = capsys.readouterr().err
    assert err == ("enotty: Debian now serves Linux 7.2.14; the committed output is linux-7.2.13:"
                   " writing linux-7.2.14 beside it\n")
    for quiet in (Here(root=tmp_path, version="7.2.13", is_kernel=True, kver="newest"),
                  Here(root=tmp_path, version="6.12.119", is_kernel=True, kver="6.12"),
                  Here(root=tmp_path, version="7.3.1", is_kernel=True, kdir=str(tmp_path))):
        cli.say_new_version(quiet)
    assert capsys.readouterr().err == ""
    assert ktree.KVERS == ("newest", "6.12")
