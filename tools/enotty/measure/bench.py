"""`enotty bench`: our scan, cold and warm, against the kernel's coccicheck.

Three timings over the same tree (or its subdir), with the same rules and
the same spatch options:
- cold: enotty's scan as make report runs it (phase 1 over the whole
  tree, then the prefilter and one spatch pass per file, `jobs` workers)
  with empty caches (phase 1's and the per-file ones: the prefilter's
  handler test and the scan's) in a temporary folder; --no-facts leaves
  phase 1 out;
- warm: the same scan again, answered by those caches;
- phase 1 warm: the per-file caches empty again but phase 1's kept, as for
  a second folder after a first (with M=, the fair cold figure: phase 1
  reads the whole tree whatever the folder);
- coccicheck: `make coccicheck MODE=patch J=<jobs> COCCI=<the rule file>`
  (M=SUBDIR when given) in an enotty.kernel.worktree copy of the tree, so that
  make's bookkeeping writes nothing into the tree; patch mode prints the
  diff and writes nothing.  coccicheck reads the rule file's `// Options:`
  itself; SPFLAGS= hands it the rest of the scan's options (coccicheck_flags)
  and phase 1's facts of the cold run (-D enotty_facts, scan.facts_tsv), so
  spatch runs with the scan's options and inputs, plus the -I/--include
  options of kbuild that coccicheck always adds.  Its sites (-D tsv) are
  compared with the cold scan's.
The table gives wall time, files spatch parsed (for coccicheck: the .c files
it was pointed at, since it parses every one that passes its token filter
and says nothing about it) and the time relative to the cold scan.
"""
from __future__ import annotations

import shlex
import shutil
import sys
import tempfile
import time
import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from . import coccicheck
from ..find import rules, scan
from ..kernel import tree
from ..requests import BenchRequest, ScanRequest
from ..kernel.worktree import WorkTree


@dataclass(frozen=True)
class Row:
    name: str
    seconds: float
    files: str
    note: str = ""


def coccicheck_flags(scan_options: Sequence[str], file_options: Sequence[str],
                     macro_file: Path, timeout: int) -> list[str]:
    """SPFLAGS for coccicheck: the scan's options that coccicheck does not
    give spatch already (MODE=patch is `-D patch`; the rule file's
    `// Options:` it reads itself), the scan's Python, its builtin macro
    file (scan.builtin_macros()) and its per-file timeout."""
    rest = list(scan_options)
    for given in (["-D", "patch"], *([opt] for opt in file_options)):
        for i in range(len(rest) - len(given) + 1):
            if rest[i:i + len(given)] == given:
                del rest[i:i + len(given)]
                break
    return rest + [*scan.PYTHON_OPTIONS, "--macro-file-builtins", str(macro_file), "--timeout", str(timeout)]


def table(rows: list[Row]) -> str:
    base = rows[0].seconds or 1e-9
    lines = [f"{'run':<12} {'wall s':>9} {'files parsed':>13} {'x cold':>8}  note"]
    for r in rows:
        lines.append(f"{r.name:<12} {r.seconds:>9.1f} {r.files:>13} {r.seconds / base:>8.2f}  {r.note}")
    return "\n".join(lines)


def _coccicheck(req: BenchRequest, tmp: Path, cold: scan.ScanResult) -> Row:
    root, scope = req.tree.root, req.scope
    if not (root / "scripts" / "coccicheck").is_file():
        return Row("coccicheck", 0.0, "-", "no scripts/coccicheck in this tree")
    macros = tmp / "macros.h"
    macros.write_text(scan.builtin_macros(scan.spatch_binary()))
    spflags = coccicheck_flags(scan.spatch_options(), rules.spatch_options(), macros,
                               scan.DEFAULT_TIMEOUT)
    if cold.facts:
        (tmp / "facts.tsv").write_text(scan.facts_tsv(cold.facts))
        spflags += ["-D", f"enotty_facts={tmp / 'facts.tsv'}"]
    copy = WorkTree(root, tmp / "tree")
    copy.ensure()
    cmd = coccicheck.command(copy.path, rules.rule_file(), coccicheck.m_option(root, scope),
                             req.jobs, spflags)
    print(f"enotty: bench coccicheck: {shlex.join(cmd)}", file=sys.stderr)
    t0 = time.monotonic()
    code, out = coccicheck.run_limited(cmd, req.coccicheck_timeout)
    seconds = time.monotonic() - t0
    c_files = sum(1 for _ in scope.rglob("*.c"))
    if code is None:
        note = f"stopped after {req.coccicheck_timeout:.0f} s: the time is a lower bound"
    else:
        # -D tsv (from SPFLAGS) makes the rule print its sites as the scan's do
        found = coccicheck.tsv_positions(out, copy.path)
        expected = {(s.file, s.line) for s in cold.sites}
        same = "the scan's" if found == expected else \
            f"{len(expected - found)} of the scan's missing, {len(found - expected)} others"
        note = f"exit {code}, diff for {out.count(chr(10) + '+++ ')} files, {len(found)} sites ({same})"
    return Row("coccicheck", seconds, f"<={c_files}", note)


def run(req: BenchRequest) -> list[Row]:
    rows = []
    runs = []
    with tempfile.TemporaryDirectory(prefix="enotty-bench-", dir=tree.cache_dir()) as tmp_s:
        tmp = Path(tmp_s)
        # "phase 1 warm": the per-file caches empty, phase 1's kept, as when a
        # second folder is scanned after a first (phase 1 reads the whole
        # tree whatever the folder, and caches it by content).
        names = ("cold", "warm", "phase 1 warm") if req.across_files else ("cold", "warm")
        for name in names:
            t0 = time.monotonic()
            # caches of its own: the first run is cold, the second warm; the
            # third finds phase 1's (caches/facts) but not the per-file ones
            cold = dataclasses.replace(req.tree, caches=tmp / "caches")
            if name == "phase 1 warm":
                shutil.rmtree(tmp / "caches" / "scan")
                shutil.rmtree(tmp / "caches" / "reach", ignore_errors=True)   # none without candidates
            res = scan.scan(ScanRequest(cold, req.subdir, jobs=req.jobs, across_files=req.across_files))
            runs.append(res)
            phase1 = f"phase 1 {res.facts_seconds:.1f} s, " if req.across_files else "no phase 1, "
            rows.append(Row(name, time.monotonic() - t0, str(res.spatch_runs),
                            phase1 + f"{res.candidates}/{res.c_files} .c files past the prefilter,"
                            f" {res.cached} cached, {len(res.sites)} sites"))
            print(f"enotty: bench {name}: {rows[-1].seconds:.1f} s", file=sys.stderr)
        if req.coccicheck:
            rows.append(_coccicheck(req, tmp, runs[0]))
    return rows


def command(req: BenchRequest) -> int:
    """Time the scan cold and warm and coccicheck; print the table."""
    print(table(run(req)))
    return 0
