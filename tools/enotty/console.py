"""What a run tells its user on stderr: warnings and the scan's account.

stdout carries a command's product only (the report TSV); everything a
person reads while a run goes on comes through here.
"""
from __future__ import annotations

import sys

from .find import scan
from .progress import Progress
from .requests import ScanRequest


def warn(message: str) -> None:
    print(f"enotty: {message}", file=sys.stderr, flush=True)


def scan_listener() -> scan.Listener:
    """What a scan tells its user on stderr: its progress while spatch
    runs, its warnings, and at the end what it scanned (scanned())."""
    return scan.Listener(lambda files, work: Progress(files, work), warn, scanned)


def scanned(req: ScanRequest, result: scan.ScanResult) -> None:
    """Say what was scanned and what failed."""
    if req.across_files:
        warn(f"phase 1: {sum(len(rows.splitlines()) for rows in result.facts.values())} targets across"
             f" files in {len(result.facts)} files ({result.facts_seconds:.1f} s)")
    warn(f"{result.candidates} of {result.c_files} .c files name an errno in an ioctl handler's code"
         f" ({result.unreached} more hold handlers that name none; {result.prefilter_seconds:.1f} s);"
         f" {result.cached} from the cache,"
         f" {result.spatch_runs} scanned; {len(result.sites)} sites in"
         f" {len({s.file for s in result.sites})} files; {result.seconds:.1f} s")
    if req.verbose and result.cached:
        # What an edit made the scan redo: the file, and those whose phase-1 rows it changed.
        for rel in result.scanned:
            warn(f"  scanned again: {rel}")
    if result.partial:
        warn(f"{len(result.partial)} files parsed in part; the code spatch skipped names no"
             f" ioctl member or errno, so no site is lost"
             + (":" if req.verbose else " (--verbose lists them)"))
        if req.verbose:
            for partial in result.partial:
                warn(f"  {partial.file}: {partial.reason}")
    if result.failed:
        warn(f"{len(result.failed)} files not fully scanned (sites in them may be missing):")
        for failure in result.failed:
            warn(f"  {failure.file}: {failure.status}: {failure.reason}")
