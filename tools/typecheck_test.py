"""The Python of the project type-checks with Debian's mypy (mypy.ini)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# Every folder of Python the project runs; mypy.ini says how imports resolve.
CHECKED = ("tools/enotty",)


def test_mypy_is_clean() -> None:
    mypy = shutil.which("mypy")
    assert mypy, "mypy is missing: apt-get install mypy (make check installs it)"
    folders = [f for f in CHECKED if (REPO / f).is_dir()]
    res = subprocess.run([mypy, *folders], cwd=REPO, capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stdout + res.stderr
