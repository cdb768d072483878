"""`enotty patches`: scan, split, verify and write mail-ready series into OUT.

command() is the pipeline, one stage a line, each given what it reads of
the tree and the request (the tree's root where a path is all it needs;
the tree object where it runs the tree's scripts or builds it) and
returning a frozen result for the next; each stage's
code lives in its subpackage (the module in brackets), so that the request
enters each stage once, on its way down:
scan the tree (find/scan.py; console.py tells its progress) -> analyse: effects, sites left
out, handlers (judge/analysis.py) -> group: series per subsystem, a patch
per driver, subject prefixes (partition/grouping.py) -> compose: every
commit message and the companion patches, once; each series applied in
order in a scratch git repository and formatted in memory, every mail
addressed by get_maintainer.pl (render/drafts.py) -> check: checkpatch,
the build and the fixpoint, then the accepted patches formatted with
their cover letters and the companions checked (verify/checks.py) -> write: those results serialised, OUT written
atomically (write/publish.py).

A patch that fails to apply, to build or checkpatch is not part of its
series: it is numbered out, written to OUT/rejected/SERIES/ with its first
numbering, and its reason is in SUMMARY.md; the mailout never sees it.
A fixpoint miss (the rules still match after the patch) is reported only:
the patch is still right, just not complete.
"""
from __future__ import annotations

import contextlib
import signal
import sys
import time
from typing import Iterator

from . import console
from .find import scan
from .judge import analysis
from .partition import grouping
from .render import drafts
from .verify import checks, crossbuild
from .write import publish
from .requests import PatchesRequest


# ---------------------------------------------------------------- the pipeline

def command(req: PatchesRequest) -> int:
    """Scan, analyse, split, compose, verify and write the series of one
    request into req.out: one stage after the other, each given what it
    reads of the tree and the request and handing the next one a typed
    result."""
    started = time.monotonic()
    kernel = req.scan.tree
    with _sigterm_as_interrupt():
        scanned = scan.scan(req.scan, listener=console.scan_listener())
        if req.build:
            crossbuild.EarlyPrepare(kernel)     # beside the next stages; build() waits for it
        analysed = analysis.analyse_tree(kernel, scanned)
        grouped = grouping.group(kernel.root, analysed, cleanups=req.cleanups)
        composed = drafts.compose(kernel, req.identity, grouped, audit_from=req.audit_from)
        checked = checks.check(kernel, req, composed)
        written = publish.write(req, checked)
    print(f"enotty: wrote {req.out}: {written.counts()}; {time.monotonic() - started:.0f} s", file=sys.stderr)
    return 0


@contextlib.contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """kill(1) must clean up like ^C: spatch and make children ended,
    scratch folders removed, OUT left as it was."""
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
