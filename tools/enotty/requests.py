"""Typed requests: what the command line asks for, parsed once.

The command line (enotty.cli) is the only module that sees argparse; it
turns the arguments into these frozen objects (kunit.py's way), and every
lower layer takes them.  A KernelTree is resolved once, so no stage finds
the tree again.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from .errors import UsageError

DEFAULT_TIMEOUT = 120   # seconds of spatch per file


def default_jobs() -> int:
    """Parallel workers: the CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class Script:
    """A perl script of a kernel's scripts/ folder."""
    path: Path
    own: bool    # the tree's own (run against it); False: the default tree's copy, run with --no-tree


@dataclass(frozen=True)
class KernelTree:
    """A tree to read: Debian's default source or the user's KDIR."""
    root: Path              # absolute; only ever read
    version: str            # VERSION.PATCHLEVEL.SUBLEVEL, or "unknown"
    is_kernel: bool         # MAINTAINERS and a top Makefile
    kdir: str | None = None  # as the user gave it (None: a Debian tree)
    kver: str | None = None  # the Debian tree KVER named ("newest", "6.12"); None for a KDIR
    # Whether results stored for this tree (scan, checkpatch, get_maintainer,
    # builds, series) may answer; False recomputes them (and stores them again).
    use_cache: bool = True
    caches: Path | None = None   # where those results live (None: enotty.kernel.tree.cache_dir())
    # The scripts the checks run on this tree's patches (enotty.kernel.tree.script).
    checkpatch: Script | None = None
    get_maintainer: Script | None = None

    def scope(self, subdir: str | None) -> Path:
        """The folder subdir of this tree (the whole tree for None)."""
        return self.root / subdir if subdir else self.root

    @property
    def cache_key(self) -> str:
        """The tree in a cache key: its path and version.  A KDIR is only
        read, and a release tree (the default one above all) does not
        change under one path and version; this key does not see a KDIR
        that its owner edits between two runs (remove the cache folder
        after such an edit)."""
        return f"{self.root.resolve()}\0{self.version}"

    @property
    def memo_ok(self) -> bool:
        """Whether a whole stage's result over this tree may be kept
        (cache.StageMemo): a Debian source this tool unpacked (kver set),
        which nobody edits, and cached results allowed.  A KDIR is not: its
        files' contents key their results instead."""
        return self.kver is not None and self.use_cache

    @property
    def default_out(self) -> Path:
        """generated-patches/linux-VERSION/ of this repository."""
        return Path(__file__).resolve().parents[2] / "generated-patches" / f"linux-{self.version}"


@dataclass(frozen=True)
class InTree:
    """A request about a tree or one folder of it."""
    tree: KernelTree
    subdir: str | None = None           # relative to tree.root

    @property
    def scope(self) -> Path:
        return self.tree.scope(self.subdir)


@dataclass(frozen=True)
class ScanRequest(InTree):
    jobs: int = 1
    timeout: int = DEFAULT_TIMEOUT
    verbose: bool = False
    across_files: bool = True           # phase 1: targets whose ops table or caller is in another file


_MAILBOX = re.compile(r"^\s*(.*?)\s*<([^<>@\s]+@[^<>\s]+)>\s*$")


@dataclass(frozen=True)
class Identity:
    """Who the patches are from, and who signs them off."""
    name: str
    email: str

    def __str__(self) -> str:
        return f"{self.name} <{self.email}>"

    @classmethod
    def parse(cls, text: str) -> Identity:
        """'Name <mail>' as an Identity; ValueError otherwise."""
        m = _MAILBOX.match(text)
        if not m or not m.group(1):
            raise ValueError(f"not 'Name <mail>': {text!r}")
        return cls(m.group(1), m.group(2))


@dataclass(frozen=True)
class PatchesRequest:
    scan: ScanRequest
    out: Path                  # absolute; a folder or nothing yet (enotty.cli checks it may be replaced)
    identity: Identity
    build: bool = True         # the x86_64 allmodconfig object build
    cleanups: bool = False     # leaf -ENOIOCTLCMD -> -ENOTTY patches (CLEANUP=1)
    audit_from: Path | None = None   # an output folder whose audit.tsv the messages cite

    def __post_init__(self) -> None:
        # Series follow MAINTAINERS; a folder of C files has none, so only
        # one of its folders can be split (by path).
        if not self.scan.subdir and not self.scan.tree.is_kernel:
            raise UsageError(f"KDIR {self.scan.tree.root} is not a kernel tree (no MAINTAINERS or Makefile);"
                             " name a folder with --subdir (M=) to group series by path")


@dataclass(frozen=True)
class BenchRequest(InTree):
    jobs: int = 2
    across_files: bool = True           # time phase 1 with the scan, as make report runs it
    coccicheck: bool = True
    coccicheck_timeout: float | None = None


COCCICHECK_MODES = ("patch", "report", "context", "org")   # the modes coccicheck drives


@dataclass(frozen=True)
class CoccicheckRequest(InTree):
    """The rule file alone under make coccicheck, in each of modes."""
    modes: tuple[str, ...] = COCCICHECK_MODES
    jobs: int = 2
    timeout: float | None = None        # seconds per mode; None: no limit
    facts: bool = False                 # hand it phase 1's rows (-D enotty_facts in SPFLAGS)


@dataclass(frozen=True)
class MailoutRequest:
    out: Path                  # the generated-patches/linux-VERSION/ folder
    series: str | None
    send: bool = False
    sender: Identity | None = None   # SIGNOFF= to send as; None: git config


@dataclass(frozen=True)
class VerifyGeneratedRequest:
    tree: KernelTree | None    # None: the tree the output's run.json names
    committed: Path


@dataclass(frozen=True)
class CompareRequest:
    """`make compare`: what changed between an older and a newer output."""
    old: Path | None = None         # an output folder (None: generated-patches/linux-6.12.*)
    new: Path | None = None         # (None: the newest other generated-patches/linux-*)
    new_kdir: Path | None = None    # the newer output's tree (None: from its run.json or the cache)
    old_kdir: Path | None = None    # the older output's tree, to tell a move from a namesake (optional)
    tsv: bool = False               # a machine-readable table instead of markdown


QEMU_TEST_SERIES = ("media", "none")   # the committed media series, or the pristine tree
QEMU_TEST_MUTANTS = ("einval",)        # selftests/qemu/mutant-NAME.patch


@dataclass(frozen=True)
class QemuTestRequest:
    """`make qemu-test`: the vivid selftests booted in QEMU."""
    tree: KernelTree
    series: str = "media"               # QEMU_TEST_SERIES
    series_dir: Path | None = None      # the series' patches (default: generated-patches/)
    mutant: str | None = None           # QEMU_TEST_MUTANTS
    timeout: int = 600                  # seconds before the guest counts as hung
    kvm: bool = False


@dataclass(frozen=True)
class AuditRequest:
    """`make audit`: one audit kernel booted pristine and with the series."""
    tree: KernelTree
    series: str = "all"                 # all, or one series folder's name
    patches: Path | None = None         # the version folder holding the series
    out: Path | None = None             # where audit.tsv and AUDIT.md go (default: patches)
    mutants: tuple[str, ...] = ()       # selftests/audit/mutant-NAME.patch, also applied
    logs: Path | None = None            # build and console logs (default: <cache>/audit/logs)
    timeout: int = 600                  # seconds per boot, besides the kselftests' own
    probe_timeout: int = 240            # seconds for each probe binary in the guest
    jobs: int = 1
    probe_bin: Path | None = None       # prebuilt ioctl_probe and ioctl_probe_32 (development)
