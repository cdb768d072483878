"""How many of a series' sites the semantic patch sent upstream reports.

A cover letter says what the rule offered to scripts/coccinelle/ would
catch in its own series, as a count ("reports 3 of the 4 exits this
series changes"), not a promise.  The count is measured: spatch runs the
upstream rule (companions.UPSTREAM_RULE) in MODE=report, with the options
of its `// Options:` line, on the series' files as they are before the
change, and a site counts when a report names its file and line.

Each file's report lines are kept by content (the rule's text, the file's
bytes, spatch's version), so a rerun runs spatch only on what changed.
measure.upstream_rule reads its reach over a whole output from the same
runs (report_lines).
"""
from __future__ import annotations

import os
import re
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Iterable

from .. import cache
from ..find import scan
from ..find.sites import Site
from ..kernel import tree
from ..requests import default_jobs
from . import companions

CACHE_FORMAT = "rule-reach-1"
# spatch's per-file limit, as make coccicheck's default runs have none and
# the scan allows 120 seconds.
TIMEOUT = 120


def reported(root: Path, sites: Iterable[Site], rule: Path | None = None, use_cache: bool = True) -> int:
    """How many of sites (each file and line once) the rule reports when
    run on their pristine files under root."""
    wanted = {(s.file, s.line) for s in sites}
    found = report_lines(root, sorted({f for f, _ in wanted}), rule or companions.UPSTREAM_RULE, use_cache)
    return sum(1 for f, line in wanted if line in found.get(f, ()))


def report_lines(root: Path, files: list[str], rule: Path, use_cache: bool = True) -> dict[str, set[int]]:
    """file -> the lines the rule's report names in it."""
    text = rule.read_text()
    binary = scan.spatch_binary()
    store = cache.JsonCache(tree.cache_dir() / "rule-reach")
    keys = {rel: cache.key(CACHE_FORMAT, scan.spatch_version(binary), text, rel,
                           cache.digest((root / rel).read_bytes()))
            for rel in files if (root / rel).is_file()}
    out: dict[str, set[int]] = {}
    missing = []
    for rel, k in keys.items():
        hit = store.get(k) if use_cache else None
        if isinstance(hit, list):
            out[rel] = set(hit)
        else:
            missing.append(rel)
    # one spatch a file, as many at once as the machine has cores: on a
    # fresh machine these runs are a fifth of make patches
    opts = options(text)
    with ThreadPoolExecutor(max_workers=default_jobs()) as pool:
        runs = dict(zip(missing, pool.map(lambda rel: _run(binary, root, rel, rule, opts), missing)))
    for rel, lines in runs.items():
        out[rel] = lines or set()
        if lines is not None:           # a run that failed (a timeout) is not kept
            store.put(keys[rel], sorted(lines))
    return out


def options(text: str) -> list[str]:
    """The rule's `// Options:` line, as make coccicheck passes it."""
    m = re.search(r"^// Options:(.*)$", text, re.M)
    return m.group(1).split() if m else []


def _run(binary: str, root: Path, rel: str, rule: Path, opts: list[str]) -> set[int] | None:
    """The lines spatch reports in one file in MODE=report (one file a run,
    as make coccicheck runs it: spatch's --timeout covers all the files of
    a run), or None when the run fails; its scratch files go to a folder of
    our own, never into the tree."""
    with tempfile.TemporaryDirectory(prefix="enotty-rule-reach-") as tmp:
        cmd = [binary, *scan.PYTHON_OPTIONS, "--sp-file", str(rule), "-D", "report", "--very-quiet",
               "--timeout", str(TIMEOUT),
               *opts, str(root / rel)]
        res = subprocess.run(cmd, cwd=tmp, env=dict(os.environ, TMPDIR=tmp), capture_output=True,
                             text=True, errors="replace", check=False)
    if res.returncode != 0:
        return None
    return parse_report(res.stdout, root).get(rel, set())


def parse_report(text: str, root: Path) -> dict[str, set[int]]:
    """file (relative to root) -> lines, from report lines `PATH:LINE:COL-COL: ...`."""
    out: dict[str, set[int]] = {}
    prefix = str(root).rstrip("/") + "/"
    for m in re.finditer(r"^(\S+?):(\d+):\d+-\d+: ", text, re.M):
        path = m.group(1)
        rel = path[len(prefix):] if path.startswith(prefix) else path
        out.setdefault(rel, set()).add(int(m.group(2)))
    return out
