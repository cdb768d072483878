import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from enotty import cli

REPO = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).resolve().parent / "testdata" / "tree"
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
    assert any(line.startswith("enotty: 5 of 6 .c files may hold ioctl handlers") for line in err)
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
])
def test_bad_arguments(tmp_path, args, text):
    one_line_error(enotty(*args, cache=tmp_path), text)


def test_adding_a_command_is_one_parser_entry():
    parser = cli.build_parser()
    args = parser.parse_args(["report", "--kdir", "k", "--subdir", "s", "--jobs", "3", "--no-cache"])
    assert (args.run, args.kdir, args.subdir, args.jobs, args.timeout, args.no_cache) == (
        cli.cmd_report, "k", "s", 3, 120, True)


def test_interrupt_exits_130_and_ends_spatch(tmp_path):
    """^C while spatch runs: exit status 130, no TSV, no spatch left behind."""
    pidfile = tmp_path / "spatch.pid"
    fake = tmp_path / "bin" / "spatch"
    fake.parent.mkdir()
    fake.write_text(f"""#!{sys.executable}
import os, sys, time
if "--version" in sys.argv:
    print("spatch version 0.0 (fake)")
    sys.exit(0)
open({str(pidfile)!r} + ".tmp", "w").write(str(os.getpid()))
os.rename({str(pidfile)!r} + ".tmp", {str(pidfile)!r})
time.sleep(120)
""")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    env = dict(os.environ, PYTHONPATH=str(REPO / "tools"), ENOTTY_CACHE=str(tmp_path / "cache"),
               PATH=f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    proc = subprocess.Popen([PYTHON, "-m", "enotty", "report", "--kdir", str(FIXTURE), "--jobs", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 60
    while not pidfile.exists():
        assert time.monotonic() < deadline and proc.poll() is None, proc.stderr.read()
        time.sleep(0.05)
    spatch_pid = int(pidfile.read_text())
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert out == ""
    assert err.splitlines()[-1] == "enotty: interrupted"
    time.sleep(0.2)
    with pytest.raises(ProcessLookupError):
        os.kill(spatch_pid, 0)
