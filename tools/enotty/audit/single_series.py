"""For the audit's end-to-end tests: one series of the committed output in
a version folder of its own, and `python3 -m enotty audit` run on it.

With one series the kernel is configured for that series' drivers alone
(tinyconfig, the base fragment and its files), which a fresh machine
builds in minutes, not the audit kernel of every series.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def version_folder(series: str, parent: Path) -> Path:
    """parent/linux-<version>/ holding the committed 6.12 series, sites.tsv
    and handlers.tsv (make check boots Debian 12's tree, whose version does
    not move; the audit explains a left-out handler's answer by the latter)."""
    version = next((REPO / "generated-patches").glob(f"linux-6.12.*/{series}")).parent
    folder = parent / version.name
    shutil.copytree(version / series, folder / series)
    for name in ("sites.tsv", "handlers.tsv"):
        shutil.copyfile(version / name, folder / name)
    return folder


def audit(series: str, out: Path, patches: Path, *extra: str) -> subprocess.CompletedProcess:
    """The audit of that series alone, its files written into out."""
    env = dict(os.environ, PYTHONPATH=str(REPO / "tools"))
    return subprocess.run([sys.executable, "-m", "enotty", "audit", "--kver", "6.12", "--series", series,
                           "--patches", str(patches), "--out", str(out), *extra],
                          capture_output=True, text=True, env=env, check=False)
