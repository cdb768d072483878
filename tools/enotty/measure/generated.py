"""`enotty verify-generated`: the committed output equals a fresh run.

Reads how the committed generated-patches/linux-VERSION/ was made (its
run.json, written by `make patches`), reruns `patches` the same way into a
temporary folder and compares the two folders file by file.  Exit 0 when
equal; 1 with a summary of the differences otherwise.
"""
from __future__ import annotations

import dataclasses
import difflib
import filecmp
import json
import re
import sys
import tempfile
from pathlib import Path

from .. import patches
from ..write import publish
from ..kernel import tree
from ..errors import UsageError
from ..requests import DEFAULT_TIMEOUT, Identity, PatchesRequest, ScanRequest, VerifyGeneratedRequest, default_jobs

def recorded_request(committed: Path, kernel: "tree.KernelTree | None" = None) -> PatchesRequest:
    """The request the committed output was made with, from its run.json.

    kernel: the tree to use instead of the recorded KDIR (the user's KDIR=).
    """
    record_path = committed / publish.RUN_RECORD
    if not record_path.is_file():
        raise UsageError(f"{committed} holds no {publish.RUN_RECORD}: nothing to verify (run make patches)")
    try:
        record = json.loads(record_path.read_text())
        identity = Identity.parse(record["identity"])
        kdir, subdir, version = record["kdir"], record["subdir"], record["version"]
        build, cleanups = bool(record["build"]), bool(record.get("cleanups", False))
        across_files = bool(record.get("facts", True))
    except (ValueError, KeyError, TypeError) as err:
        raise UsageError(f"{record_path}: not a run record ({err})")
    # A Debian tree by the recorded version: the cached one, or the one apt
    # fetches while Debian still serves that version.
    kernel = kernel or (tree.load(kdir, subdir) if kdir
                        else tree.load(str(tree.for_version(version)), subdir, kver=None))
    if not kdir:
        kernel = dataclasses.replace(kernel, kdir=None, kver=record.get("kver")
                                     or ("6.12" if version.startswith("6.12.") else "newest"))
    scan = ScanRequest(tree=kernel, subdir=subdir, jobs=default_jobs(), timeout=DEFAULT_TIMEOUT,
                       across_files=across_files)
    return PatchesRequest(scan=scan, out=committed, identity=identity,
                          build=build, cleanups=cleanups)


def committed_outputs() -> list[Path]:
    """generated-patches/linux-*/ folders that hold a run record, the oldest
    kernel version first (the tests that check the committed output run
    once for each)."""
    root = Path(__file__).resolve().parents[3] / "generated-patches"
    found = [p for p in root.glob("linux-*") if (p / publish.RUN_RECORD).is_file()]
    return sorted(found, key=lambda p: tuple(int(n) for n in re.findall(r"\d+", p.name)))


def differences(a: Path, b: Path) -> list[str]:
    """Files that differ between two folders, with the first changed lines."""
    out: list[str] = []

    def walk(cmp: filecmp.dircmp, rel: str) -> None:
        for name in sorted(cmp.left_only):
            out.append(f"only in committed: {rel}{name}")
        for name in sorted(cmp.right_only):
            out.append(f"only in fresh run: {rel}{name}")
        for name in sorted(cmp.diff_files + cmp.funny_files):
            left = (Path(cmp.left) / name).read_text(errors="replace").splitlines()
            right = (Path(cmp.right) / name).read_text(errors="replace").splitlines()
            delta = [ln for ln in difflib.unified_diff(left, right, lineterm="", n=0)
                     if ln[:1] in "+-" and not ln.startswith(("+++", "---"))]
            out.append(f"differs: {rel}{name}: " + " | ".join(delta[:2])[:200])
        for name, sub in sorted(cmp.subdirs.items()):
            walk(sub, f"{rel}{name}/")

    walk(filecmp.dircmp(str(a), str(b), ignore=[]), "")
    return out


def verify_generated(req: VerifyGeneratedRequest) -> int:
    rerun = recorded_request(req.committed, req.tree)
    with tempfile.TemporaryDirectory(prefix="enotty-verify-", dir=tree.cache_dir()) as tmp:
        fresh = Path(tmp) / "out"
        patches.command(dataclasses.replace(rerun, out=fresh, audit_from=req.committed))
        diffs = differences(req.committed, fresh)
    if diffs:
        print(f"enotty: {req.committed} differs from a fresh run ({len(diffs)} files):", file=sys.stderr)
        for line in diffs[:40]:
            print(f"  {line}", file=sys.stderr)
        return 1
    print(f"enotty: {req.committed} equals a fresh run", file=sys.stderr)
    return 0
