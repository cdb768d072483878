"""Progress of a long run on stderr: files done/total, sites, elapsed, ETA.

On a terminal one line is redrawn in place; otherwise (make, CI logs) a
plain line is printed every `interval` seconds so logs stay short.
"""
from __future__ import annotations

import sys
import time
from typing import Callable, TextIO


def _clock(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


class Progress:
    def __init__(self, total: int, total_work: float, stream: TextIO | None = None,
                 interval: float = 5.0, now: Callable[[], float] = time.monotonic) -> None:
        """total: files; total_work: what the ETA is computed on (bytes)."""
        self.total = total
        self.total_work = total_work
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty()
        self.interval = 0.2 if self.tty else interval
        self.now = now
        self.start = now()
        self.last = self.start
        self.done = 0
        self.work = 0.0
        self.sites = 0
        self._drawn = False
        self._emit()   # say at once that the long part has started

    def line(self) -> str:
        elapsed = self.now() - self.start
        text = f"enotty: {self.done}/{self.total} files, {self.sites} sites, {_clock(elapsed)} elapsed"
        if 0 < self.work < self.total_work:
            eta = elapsed * (self.total_work - self.work) / self.work
            text += f", ETA {_clock(eta)}"
        return text

    def advance(self, files: int, work: float, sites: int) -> None:
        self.done += files
        self.work += work
        self.sites += sites
        now = self.now()
        if now - self.last >= self.interval:
            self.last = now
            self._emit()

    def _emit(self) -> None:
        if self.tty:
            self.stream.write("\r\033[K" + self.line())
            self._drawn = True
        else:
            self.stream.write(self.line() + "\n")
        self.stream.flush()

    def finish(self) -> None:
        """Leave the terminal on a fresh line; print nothing else."""
        if self._drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self._drawn = False
