"""`enotty bench`: our scan, cold and warm, against the kernel's coccicheck.

Three timings over the same tree (or --subdir of it):
- cold: enotty's scan (prefilter, one spatch pass per file, -j2) with an
  empty per-file cache in a temporary folder;
- warm: the same scan again, answered by that cache;
- coccicheck: `make coccicheck MODE=patch J=2 COCCI=<all rules as one
  file>` (M=SUBDIR when given), run in a hard-link copy of the tree so the
  tree is not even read by make's own bookkeeping; patch mode prints the diff
  and writes nothing.
The table gives wall time, files spatch parsed (for coccicheck: the .c files
it was pointed at, since it parses every one that passes its token filter
and says nothing about it) and the time relative to the cold scan.
"""
from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from . import rules, scan, tree, verify

JOBS = 2


@dataclass(frozen=True)
class Row:
    name: str
    seconds: float
    files: str
    note: str = ""


def coccicheck_command(copy: Path, cocci: Path, subdir: str | None) -> list[str]:
    cmd = ["make", "-C", str(copy), "coccicheck", "MODE=patch", f"J={JOBS}", f"COCCI={cocci}"]
    if subdir:
        cmd.append(f"M={subdir}")
    return cmd


def table(rows: list[Row]) -> str:
    base = rows[0].seconds or 1e-9
    lines = [f"{'run':<12} {'wall s':>9} {'files parsed':>13} {'x cold':>8}  note"]
    for r in rows:
        lines.append(f"{r.name:<12} {r.seconds:>9.1f} {r.files:>13} {r.seconds / base:>8.2f}  {r.note}")
    return "\n".join(lines)


def run_limited(cmd: list[str], timeout: float | None) -> tuple[int | None, str]:
    """Run cmd in its own process group; (exit status, stdout), or (None,
    stdout so far) when it ran out of time: then the whole group (make and
    its spatch workers) is killed."""
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL, text=True,
                                env=verify.kbuild_env(), start_new_session=True)
        code: int | None = None
        try:
            code = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
        finally:
            if proc.returncode is None:     # timed out, or ^C: stop make and spatch
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        out.seek(0)
        return code, out.read()


def run(kdir: str | None, subdir: str | None, skip_coccicheck: bool = False,
        coccicheck_timeout: float | None = None) -> list[Row]:
    root = tree.resolve(kdir, subdir)
    scope = root / subdir if subdir else root
    rows = []
    with tempfile.TemporaryDirectory(prefix="enotty-bench-", dir=tree.cache_dir()) as tmp_s:
        tmp = Path(tmp_s)
        for name in ("cold", "warm"):
            t0 = time.monotonic()
            res = scan.scan(root, scope, jobs=JOBS, cache_folder=tmp / "scan-cache")
            rows.append(Row(name, time.monotonic() - t0, str(res.spatch_runs),
                            f"{res.candidates}/{res.c_files} .c files past the prefilter,"
                            f" {res.cached} cached, {len(res.sites)} sites"))
            print(f"enotty: bench {name}: {rows[-1].seconds:.1f} s", file=sys.stderr)
        if not skip_coccicheck:
            if not (root / "scripts" / "coccicheck").is_file():
                rows.append(Row("coccicheck", 0.0, "-", "no scripts/coccicheck in this tree"))
                return rows
            cocci = tmp / "enotty.cocci"
            cocci.write_text(rules.combined_smpl())
            copy = tmp / "tree"
            subprocess.run(["cp", "-al", str(root), str(copy)], check=True)
            t0 = time.monotonic()
            code, out = run_limited(coccicheck_command(copy, cocci, subdir), coccicheck_timeout)
            seconds = time.monotonic() - t0
            c_files = sum(1 for _ in scope.rglob("*.c"))
            if code is None:
                note = f"stopped after {coccicheck_timeout:.0f} s: the time is a lower bound"
            else:
                note = f"exit {code}, diff for {out.count(chr(10) + '+++ ')} files"
            rows.append(Row("coccicheck", seconds, f"<={c_files}", note))
            shutil.rmtree(copy, ignore_errors=True)
    return rows


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-coccicheck", action="store_true",
                        help="time only our scan (coccicheck over the whole tree takes long)")
    parser.add_argument("--coccicheck-timeout", type=float, metavar="S",
                        help="stop coccicheck after S seconds and report that as a lower bound")


def command(args: argparse.Namespace) -> int:
    rows = run(args.kdir, args.subdir, getattr(args, "no_coccicheck", False),
               getattr(args, "coccicheck_timeout", None))
    print(table(rows))
    return 0
