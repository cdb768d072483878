"""Run the rules over a tree: the one module that runs spatch.

Pipeline: a byte-level prefilter picks the C files the rules could match;
each candidate is looked up in a per-file cache; the rest go to spatch in
batches (one file group per file, so nothing matches across files), all
rules in one pass with `-D patch -D tsv`, a few spatch processes in
parallel.  stdout gives the ENOTTY-SITE lines and the unified diffs; stderr
says which file spatch was handling and what went wrong with it (parse
errors, timeouts, exceptions).  Nothing is ever written into the tree.
"""
from __future__ import annotations

import concurrent.futures
import dataclasses
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Mapping, Protocol, Sequence

from .. import cache
from . import csource, facts as phase1, interfaces, rules
from ..kernel import tree
from ..errors import UsageError
from ..requests import ScanRequest
from . import ctext
from .sites import ADDS, RESTRUCTURES, Site, is_site_line, parse_site_line, sort_sites

# Bump when the cached record or the spatch options change meaning.
CACHE_FORMAT = "enotty-scan-6"

# The rule file's own `// Options:` (rules.spatch_options(), what
# coccicheck passes too) come first:
#   --no-includes: the rules match an ops table and its handler in one .c
#     file and need no types from headers.  Reading local headers made 12
#     ivtv files 1.5x slower for the same sites, and would make a file's
#     result depend on other files, which the per-file cache (keyed on the
#     file's own content) could not see.
#   --noadd-typedef-root: keep a typedef spatch guesses inside a function
#     local to it.  `struct x *p __free(kfree) = NULL;` makes spatch guess
#     that kfree is a type; made global, every later `kfree(p->q);` fails
#     to parse (sound/core/timer.c, compress_offload.c).
# Then what only this driver needs:
#   -D patch -D tsv: the diff and the ENOTTY-SITE lines in one run.
#   --parse-error-msg --verbose-parsing: report each unparsed region with
#     its first line on stderr, so no file's problems are dropped silently.
#   --no-scanner: with --file-groups spatch otherwise runs `cd FILE; git
#     grep` per group and reports files it rules out only as "0 files
#     match", unnamed; without it each such file gets a "Skipping: FILE".
#   --macro-file-builtins (standard.h and KERNEL_MACROS): macros spatch's
#     standard.h lacks, used from the first parsing pass on.  Given with
#     --macro-file they only join the on-demand expansion of the third pass,
#     next to the file's own #defines, and too late for some files (see
#     KERNEL_MACROS).
#   no --in-place / --out-place: spatch only prints the diff.
DRIVER_OPTIONS = ("-D", "patch", "-D", "tsv", "--no-scanner", "--parse-error-msg",
                  "--verbose-parsing")


# The Python of the rule's @script blocks: Debian's, named.  Without
# --python, spatch's start-up looks python3 up on PATH and runs it and ldd
# on it to find its library: a pyenv or venv python3 first on PATH would
# run the rule's Python instead (and through a pyenv shim it cost 0.7 s of
# a 1.3 s spatch start here).  Not in the cache key: the sites are the same.
PYTHON_OPTIONS = ("--python", "/usr/bin/python3")


def spatch_options() -> tuple[str, ...]:
    """Every option of a scan's spatch run but the files and the timeout."""
    return (*rules.spatch_options(), *DRIVER_OPTIONS)


# Added to spatch's standard.h and given with --macro-file-builtins: kernel
# macros that standard.h lacks, each of which left ioctl files of 6.12
# partly unparsed (tools/enotty/find/scan_test.py has a fixture per macro).
# spatch expands the builtins from its first pass on; the macros of
# --macro-file only in the third pass, on demand around the error, and with
# them the file's own #defines: in sound/core/rawmidi.c the third pass
# expanded the file's `rmidi_warn(.., fmt, args...)` into `, ##args` before
# a cast and failed where the first pass, knowing scoped_guard, parses.
#   scoped_guard() and friends: statement macros that take a body, like a
#     for_each iterator (sound/core/control.c: 12 regions, the drm ones 6
#     ioctl files of drm drivers); 7.2's scoped_with_kernel_creds()
#     (drivers/block/nbd.c), scoped_with_creds() and the
#     scoped_user_*_access*() blocks (net/socket.c) too;
#   scoped_cond_guard(): its second argument is a statement
#     (`return -ERESTARTSYS`), which an iterator's arguments cannot be, so
#     it is an `if` (7.2's drivers/ptp/ptp_chardev.c, 5 functions);
#   for_each_vma_range(): also the while of a do-while (fs/userfaultfd.c);
#   for_each_possible_cpu(): an iterator whose body starts with `*`
#     (`*per_cpu_ptr(p, cpu) = -1;`) is otherwise read as a declaration
#     (arch/arm64/kvm/mmu.c);
#   __free(): `u32 *p __free(kfree) = ..` declarations; an attribute, not
#     nothing (defined empty, fs/pidfs.c and sound/core/seq/seq_compat.c
#     failed) (drivers/gpu/drm/amd/amdgpu/amdgpu_debugfs.c);
#   __ETHTOOL_DECLARE_LINK_MODE_MASK(): an array declarator with an
#     initializer (drivers/net/phy/phylink.c, drivers/net/usb/lan78xx.c);
#   darray_str(): a declarator of bcachefs (fs/bcachefs/chardev.c);
#   COMPAT_SYSCALL_DEFINE3/6(): as standard.h has SYSCALL_DEFINE3/6
#     (fs/ioctl.c, fs/eventpoll.c);
#   UVERBS_HANDLER(): the name of an RDMA method handler, pasted from the
#     file's UVERBS_MODULE_NAME (`static int UVERBS_HANDLER(ID)(..)`, 7
#     files of drivers/infiniband); the name is shorter than the kernel's,
#     which no rule needs;
#   DEF_SCSI_QCMD(): a function definition without a semicolon
#     (drivers/scsi/3w-xxxx.c, pmcraid.c);
#   BPF_CALL_1/2/3(): BPF helpers, `u64 name(t1 a1, ..)` (kernel/bpf/bpf_lsm.c);
#   DEB(): debugging code of SCSI drivers, empty as without their DEBUG
#     (drivers/scsi/st.c: `if ( DEB( debugging || ) !STp->inited)`); it
#     replaces standard.h's DEB, a statement, which that is not.
KERNEL_MACROS = """\
#define scoped_guard(_name, args...) YACFE_ITERATOR
#define scoped_cond_guard(_name, _fail, args...) if (1)
#define scoped_with_creds(cred) YACFE_ITERATOR
#define scoped_with_kernel_creds() YACFE_ITERATOR
#define scoped_user_read_access(usrc, elbl) YACFE_ITERATOR
#define scoped_user_read_access_size(usrc, size, elbl) YACFE_ITERATOR
#define scoped_user_write_access(udst, elbl) YACFE_ITERATOR
#define scoped_user_write_access_size(udst, size, elbl) YACFE_ITERATOR
#define scoped_user_rw_access(uptr, elbl) YACFE_ITERATOR
#define scoped_user_rw_access_size(uptr, size, elbl) YACFE_ITERATOR
#define drm_exec_until_all_locked(exec) YACFE_ITERATOR
#define with_intel_runtime_pm(rpm, wf) YACFE_ITERATOR
#define for_each_vma_range(__vmi, __vma, __end) while ((__vma = vma_find(&(__vmi), (__end))) != NULL)
#define for_each_possible_cpu(cpu) YACFE_ITERATOR
#define __free(_name) __maybe_unused
#define __ETHTOOL_DECLARE_LINK_MODE_MASK(name) unsigned long name[__ETHTOOL_LINK_MODE_MASK_NBITS]
#define darray_str(name) darray_char_p name
#define COMPAT_SYSCALL_DEFINE3(name, t1, a1, t2, a2, t3, a3) \\
    long compat_sys_##name(t1 a1, t2 a2, t3 a3)
#define COMPAT_SYSCALL_DEFINE6(name, t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6) \\
    long compat_sys_##name(t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6)
#define UVERBS_HANDLER(id) uverbs_handler_##id
#define DEF_SCSI_QCMD(func_name) \\
    int func_name(struct Scsi_Host *shost, struct scsi_cmnd *cmd) { return func_name##_lck(cmd); }
#define BPF_CALL_1(name, t1, a1) u64 name(t1 a1)
#define BPF_CALL_2(name, t1, a1, t2, a2) u64 name(t1 a1, t2 a2)
#define BPF_CALL_3(name, t1, a1, t2, a2, t3, a3) u64 name(t1 a1, t2 a2, t3 a3)
#define DEB(a)
"""

# Every rule rewrites one of these tokens (the answers of interfaces.tsv's
# also_from column included, and ioctl_subhandler_miss's -ENODEV; none adds
# a default label), so a file without them has no site.
ERRNO_TOKENS = (b"EINVAL", b"ENOSYS", b"ENOIOCTLCMD", b"ENOTSUPP", b"EOPNOTSUPP", b"EFAULT", b"ENODEV")

DEFAULT_TIMEOUT = 120
# partial: spatch skipped some code, but none that names an ioctl member or
# an errno, so no site can hide there; parse-error: a site may hide there.
OK, PARTIAL, PARSE_ERROR, TIMEOUT, ERROR = "ok", "partial", "parse-error", "timeout", "error"


class ScanError(Exception):
    """spatch itself failed (broken semantic patch, crash before any file)."""


# ---------------------------------------------------------------- prefilter

def ioctl_tokens() -> tuple[bytes, ...]:
    """`ioctl` plus every ioctl member of the interface table.

    The rules need the ops table and the handler in the same file, so a
    file that names none of these members cannot match.  "ioctl" already
    covers every member whose name contains it.
    """
    return interfaces.member_tokens()


def binding_pattern(tokens: Sequence[bytes]) -> re.Pattern[bytes]:
    """`.F =` or `->F =` (not `==`) where F contains one of tokens: a
    static initializer, a run-time assignment or an embedded ops member."""
    alt = b"|".join(re.escape(t) for t in tokens)
    return re.compile(rb"(?:\.|->)\s*\w*(?:" + alt + rb")\w*\s*=(?!=)")


@dataclass(frozen=True)
class Candidate:
    rel: str        # path relative to the tree root, as given to spatch
    size: int
    sha256: str
    facts: str = ""   # the phase-1 rows of this file (-D enotty_facts), part of its cache key


@dataclass
class Prefilter:
    candidates: list[Candidate]
    c_files: int          # .c files under the scope
    seconds: float
    unreadable: list[tuple[str, str]] = field(default_factory=list)   # (rel, error)
    unreached: int = 0    # hold a handler (bound, or a phase-1 row) and an errno, not in its code


# Bump when csource.handlers_name() changes meaning (its source is in the key too).
REACH_FORMAT = "enotty-reach-1"


class _Reach:
    """csource.handlers_name() of files, kept by each file's content (and
    its phase-1 functions) in a JsonCache: a warm scan parses no file.
    The files the cache does not answer are read by `jobs` processes
    (in the main thread; in another, by this one)."""

    def __init__(self, binds: re.Pattern[bytes], errnos: Sequence[bytes], folder: Path | None,
                 use_cache: bool = True) -> None:
        self.binds = binds
        self.words = re.compile(rb"\b(?:" + b"|".join(re.escape(t) for t in errnos) + rb")\b")
        self.store = cache.JsonCache(folder) if folder is not None else None
        self.use_cache = use_cache
        self.salt = cache.key(REACH_FORMAT, csource.code_digest(), binds.pattern.decode("latin-1"),
                              self.words.pattern.decode("latin-1"))

    def answer(self, files: list[tuple[Candidate, bytes]], jobs: int) -> list[bool]:
        """For each (candidate, its content): does an errno stand in a handler's code?"""
        named = [sorted({row.split("\t")[1] for row in c.facts.splitlines() if "\t" in row}) for c, _ in files]
        keys = [cache.key(self.salt, c.sha256, *names) for (c, _), names in zip(files, named)]
        found: list[bool | None] = [None] * len(files)
        if self.store is not None and self.use_cache:
            found = [None if (hit := self.store.get(k)) is None else bool(hit) for k in keys]
        todo = [i for i, hit in enumerate(found) if hit is None]
        work = [(files[i][1], self.binds, self.words, named[i]) for i in todo]
        # Processes only from the main thread, where make patches scans before
        # any other thread starts; the verify stage's rescan runs in a worker
        # thread beside the builds, and a fork there would copy locks that
        # other threads hold.
        if jobs > 1 and len(work) > 32 and threading.current_thread() is threading.main_thread():
            with concurrent.futures.ProcessPoolExecutor(max_workers=jobs) as pool:
                answers = list(pool.map(_handlers_name, work, chunksize=16))
        else:
            answers = [_handlers_name(w) for w in work]
        for i, answer in zip(todo, answers):
            found[i] = answer
            if self.store is not None:
                self.store.put(keys[i], answer)
        return [bool(a) for a in found]


def _header_helpers(facts: Mapping[str, str]) -> dict[str, re.Pattern[bytes]]:
    """header -> a pattern of the calls of its helpers that phase 1 found."""
    found: dict[str, set[str]] = {}
    for rel, rows in facts.items():
        if rel.endswith(".h"):
            found[rel] = {row.split("\t")[1] for row in rows.splitlines() if row.count("\t") >= 1}
    return {rel: re.compile(rb"\b(?:" + "|".join(sorted(names)).encode() + rb")\s*\(")
            for rel, names in found.items() if names}


def _header_candidate(root: Path, rel: str, rows: str, errnos: Sequence[bytes],
                      unreadable: list[tuple[str, str]]) -> list[tuple[Candidate, bytes]]:
    """The header as a candidate when it names an errno token; none when
    it is not in this tree (the fixpoint's rescan holds the patched files
    only, with every row of the scan)."""
    if not (Path(root) / rel).is_file():
        return []
    try:
        data = (Path(root) / rel).read_bytes()
    except OSError as err:
        unreadable.append((rel, err.strerror or str(err)))
        return []
    if not any(t in data for t in errnos):
        return []
    return [(Candidate(rel=rel, size=len(data), sha256=hashlib.sha256(data).hexdigest(), facts=rows), data)]


def _handlers_name(job: tuple[bytes, re.Pattern[bytes], re.Pattern[bytes], list[str]]) -> bool:
    return csource.handlers_name(*job)


def _c_files(scope: Path, skip: frozenset[str] = frozenset()) -> Iterable[str]:
    """Every *.c under scope; .git and the `skip` folders left out,
    symlinked folders not followed."""
    stack = [str(scope)]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.name != ".git" and entry.path not in skip:
                    stack.append(entry.path)
            elif entry.name.endswith(".c") and entry.is_file():
                yield entry.path


def prefilter(root: Path, scope: Path, ioctl: Sequence[bytes] | None = None,
              errnos: Sequence[bytes] = ERRNO_TOKENS,
              facts: Mapping[str, str] | None = None,
              reach_cache: Path | None = None, use_cache: bool = True, jobs: int = 1) -> Prefilter:
    """The .c files under scope that bind an ioctl member (`.F =` or `->F =`,
    F naming an ioctl token) and name an errno token, and those with
    phase-1 rows (facts: file -> rows) that name an errno token: a helper
    found across files is bound elsewhere.  The rules find a file's
    handlers through such a binding in the same file or through its rows,
    so a file that only calls an ioctl function or says "ioctl" in a
    comment has no site (in 6.12, 1682 files name the token, 988 bind it).
    Of the files that pass, only those where an errno token stands in a
    handler's code, or in a function that a handler names (at any depth;
    csource.handlers_name(), kept in reach_cache, computed by `jobs`
    processes): the rules change nothing else.  In 6.12 that is 634 of
    1028 files, and 29 of their 50 MB.

    Headers take part only through phase-1 rows: a helper in a header that
    a handler of a .c file hands the command to (7.2's tun_vnet_ioctl() in
    drivers/net/tun_vnet.h), when the header lies under scope or a .c file
    of the scope names the helper; the header is one candidate, so its
    helper changes once for all its callers.  Otherwise headers are left
    out: in 6.12 one header (libata.h) sets an ioctl member, to a handler
    defined in a .c file.  So is a kernel tree's
    tools/ (userspace: selftests, perf, libbpf), unless scope is inside it:
    74 candidates in 6.12 without a kernel ioctl handler, and 16 of the 53
    files spatch could not parse.
    """
    start = time.monotonic()
    ioctl = tuple(ioctl) if ioctl is not None else ioctl_tokens()
    binds = binding_pattern(ioctl)
    skip: frozenset[str] = frozenset()
    if tree.is_kernel_tree(Path(root)) and Path(scope).resolve() == Path(root).resolve():
        skip = frozenset({os.path.join(str(scope), "tools")})   # as _c_files spells it
    passed: list[tuple[Candidate, bytes]] = []
    unreadable = []
    total = 0
    helpers = _header_helpers(facts or {})
    called: set[str] = set()           # the headers whose helper a .c file of the scope names
    for path in _c_files(scope, skip):
        total += 1
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as err:
            unreadable.append((os.path.relpath(path, root), err.strerror or str(err)))
            continue
        rel = os.path.relpath(path, root)
        called.update(h for h, names in helpers.items() if h not in called and names.search(data))
        rows = (facts or {}).get(rel, "")
        # the substring tests first: the pattern is slow where it fails
        if any(t in data for t in errnos) and (rows or any(t in data for t in ioctl) and binds.search(data)):
            passed.append((Candidate(rel=rel, size=len(data), sha256=hashlib.sha256(data).hexdigest(),
                                     facts=rows), data))
    for rel in sorted(helpers):
        inside = not os.path.relpath(os.path.join(root, rel), scope).startswith("..")
        if inside or rel in called:
            passed += _header_candidate(root, rel, (facts or {})[rel], errnos, unreadable)
    reached = _Reach(binds, errnos, reach_cache, use_cache).answer(passed, jobs)
    candidates = [c for (c, _), yes in zip(passed, reached) if yes]
    unreached = len(passed) - len(candidates)
    candidates.sort(key=lambda c: c.rel)
    return Prefilter(candidates, total, time.monotonic() - start, sorted(unreadable), unreached)


# ---------------------------------------------------------------- results

@dataclass
class FileResult:
    file: str                 # relative to the root
    status: str               # ok | partial | parse-error | timeout | error
    reason: str = ""
    sites: list[Site] = field(default_factory=list)
    hunks: str = ""           # the diff's body, from the first @@ on
    cached: bool = False

    @property
    def diff(self) -> str:
        if not self.hunks:
            return ""
        return f"--- a/{self.file}\n+++ b/{self.file}\n{self.hunks}"


@dataclass(frozen=True)
class Failure:
    """A file the scan could not fully read (failed.tsv's row: write/publish.py)."""
    file: str
    status: str               # parse-error | timeout | error
    reason: str


@dataclass
class ScanResult:
    root: Path
    scope: Path
    sites: list[Site]                 # sorted, files relative to root
    diffs: dict[str, str]             # file -> unified diff (a/ b/ headers)
    failed: list[Failure]             # sorted by file: sites may be missing
    partial: list[Failure]            # parsed in part; no site can hide in the rest
    c_files: int                      # .c files under the scope
    candidates: int                   # passed the prefilter
    unreached: int                    # hold a handler (bound, or a phase-1 row), none names an errno
    spatch_runs: int                  # files spatch handled in this run
    cached: int                       # files answered by the cache
    prefilter_seconds: float
    seconds: float                    # whole scan, phase 1 included
    warnings: list[str] = field(default_factory=list)
    facts: dict[str, str] = field(default_factory=dict)   # file -> its phase-1 rows, as given to spatch
    facts_seconds: float = 0.0        # phase 1 (tree-wide discovery), when the scan ran it
    scanned: list[str] = field(default_factory=list)     # the files spatch handled in this run

    def patch(self) -> str:
        """Every diff, in file order: applies with `patch -p1` or `git apply`
        from the root.  Encode with errors="surrogateescape" (see decode())."""
        return "".join(self.diffs[f] for f in sorted(self.diffs))


# ---------------------------------------------------------------- spatch output

_HUNK = re.compile(r"^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")


@dataclass
class _Stdout:
    sites: dict[str, list[Site]] = field(default_factory=dict)
    hunks: dict[str, str] = field(default_factory=dict)
    noise: list[str] = field(default_factory=list)


def decode(data: bytes) -> str:
    """spatch output as text; bytes that are not UTF-8 survive as surrogates
    (write diffs back with errors="surrogateescape" to get them back)."""
    return data.decode("utf-8", "surrogateescape")


def parse_stdout(text: str) -> _Stdout:
    """Site lines and per-file diffs from spatch's stdout.

    Hunks are read by their line counts, so a removed line that happens to
    start with `-- ` cannot be taken for a new file header.
    """
    out = _Stdout()
    # Only "\n" ends a line: str.splitlines() would also split at the form
    # feeds some kernel sources hold (sound/isa/wavefront/wavefront_synth.c).
    lines = [line + "\n" for line in text.split("\n")]
    if lines[-1] == "\n":
        lines.pop()
    i = 0

    def take_site(line: str) -> None:
        try:
            site = parse_site_line(line)
        except ValueError as err:
            out.noise.append(str(err))
            return
        out.sites.setdefault(site.file, []).append(site)

    while i < len(lines):
        line = lines[i]
        if is_site_line(line):
            take_site(line)
            i += 1
        elif line.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ "):
            path = line[4:].rstrip("\n").split("\t")[0]
            i += 2
            body: list[str] = []
            while i < len(lines) and (m := _HUNK.match(lines[i])):
                old = int(m.group(1)) if m.group(1) is not None else 1
                new = int(m.group(2)) if m.group(2) is not None else 1
                body.append(lines[i])
                i += 1
                while i < len(lines) and (old > 0 or new > 0 or lines[i].startswith("\\")):
                    hunk_line = lines[i]
                    if is_site_line(hunk_line):
                        take_site(hunk_line)     # a whole line printed mid-diff
                        i += 1
                        continue
                    kind = hunk_line[:1]
                    if kind in (" ", "\n"):
                        old, new = old - 1, new - 1
                    elif kind == "-":
                        old -= 1
                    elif kind == "+":
                        new -= 1
                    elif kind != "\\":
                        break
                    body.append(hunk_line if hunk_line.endswith("\n") else hunk_line + "\n")
                    i += 1
                if old > 0 or new > 0:
                    out.noise.append(f"{path}: diff hunk cut short")
            out.hunks[path] = out.hunks.get(path, "") + "".join(indent_added_labels(body))
        else:
            if line.strip():
                out.noise.append(line.rstrip("\n"))
            i += 1
    return out


@dataclass
class _Outcome:
    skipped: bool = False     # spatch's own token check ruled it out
    exception: str = ""
    bad_lines: int = 0
    first_bad: int = 0
    bad_tokens: set[str] = field(default_factory=set)   # of those asked for, in unparsed lines
    bad_at: set[int] = field(default_factory=set)       # first lines of the errors counted


_BAD_AT = re.compile(r'^ =\s?File "(.*)", line (\d+), column')


def parse_stderr(text: str, tokens: Sequence[str] = ()) -> tuple[dict[str, _Outcome], list[str]]:
    """What spatch said about each file, in the order it handled them.

    tokens: words to look for in the code of the lines spatch could not
    parse, not in their comments and literals (an unparsed region of
    drivers/scsi/pmcraid.c named ioctl only in a comment), and not in
    lines of a #define (the line that opens it, a line ending in a
    backslash when spatch says it recovered at the end of a #define, the
    lines backslashes continue it into, and such lines again when the next
    report repeats them): the rules never match inside
    a macro body, so no site can hide there (ioctl tables built by macros
    in drivers/gpu/drm/drm_ioctl.c, v4l2-ioctl.c, iommufd/main.c).
    """
    outcomes: dict[str, _Outcome] = {}
    order: list[str] = []
    current: _Outcome | None = None
    counting = False   # inside an error report about a region not yet counted
    continued = False  # the last unparsed line was a #define line ending in a backslash
    in_macro = False   # spatch's last error recovery stopped at the end of a #define
    macro_lines: set[str] = set()   # lines of this file found in a #define
    in_comment = False  # the last unparsed line ended inside a /* comment

    def start(path: str, skipped: bool) -> _Outcome:
        outcome = outcomes.setdefault(path, _Outcome())
        outcome.skipped = skipped
        order.append(path)
        return outcome

    for line in text.splitlines():
        if line.startswith("HANDLING: "):
            current, counting = start(line[len("HANDLING: "):].strip(), False), False
            macro_lines = set()
        elif line.startswith("Skipping: "):
            current, counting = start(line[len("Skipping: "):].strip(), True), False
        elif line.startswith("EXN: ") and " in " in line:
            exn, path = line[len("EXN: "):].rsplit(" in ", 1)
            outcomes.setdefault(path.strip(), _Outcome()).exception = exn.strip()
        elif line.startswith("ERROR-RECOV: "):
            in_macro = "end of #define" in line
        elif current is None:
            continue
        elif m := _BAD_AT.match(line):
            # In patch mode spatch parses a file again after matching, and
            # then its own output (a /tmp path): count each region once.
            at = int(m.group(2))
            counting = m.group(1) == order[-1] and at not in current.bad_at
            continued = in_comment = False
            if counting:
                current.bad_at.add(at)
                current.first_bad = min(current.bad_at)
        elif not counting:
            continue
        elif line.startswith("badcount: "):
            current.bad_lines += int(line.split()[1])
        elif line.startswith(("bad:", "BAD:")):
            code = line.split(" ", 1)[1] if " " in line else ""
            # A region may start with the last line of the #define before
            # (drivers/gpu/drm/amd/amdkfd/kfd_chardev.c).
            in_define = (continued or code.lstrip().startswith("#define") or code in macro_lines
                         or (in_macro and code.rstrip().endswith("\\")))
            if in_define and code.strip():
                macro_lines.add(code)
            continued = in_define and code.rstrip().endswith("\\")
            words, in_comment = ctext.code_only(code, in_comment)
            if not in_define:
                current.bad_tokens.update(t for t in tokens if t in words)
    return outcomes, order


def _file_result(rel: str, outcome: _Outcome | None, stdout: _Stdout, timeout: int) -> FileResult:
    sites = stdout.sites.get(rel, [])
    hunks = stdout.hunks.get(rel, "")
    if outcome is None:
        return FileResult(rel, ERROR, "spatch did not report on this file")
    if "Timeout" in outcome.exception:
        # spatch prints no diff for a file it gave up on; drop its partial
        # site lines too, so the report and the patches agree.
        return FileResult(rel, TIMEOUT, f"spatch timeout after {timeout} s")
    if outcome.exception:
        return FileResult(rel, ERROR, f"spatch exception {outcome.exception}")
    if outcome.bad_lines:
        where = f" from line {outcome.first_bad}" if outcome.first_bad else ""
        reason = f"{outcome.bad_lines} lines not parsed{where}"
        if not outcome.bad_tokens:
            return FileResult(rel, PARTIAL, reason, sites, hunks)
        reason += ", naming " + ", ".join(sorted(outcome.bad_tokens))
        return FileResult(rel, PARSE_ERROR, reason, sites, hunks)
    return FileResult(rel, OK, "", sites, hunks)


def indent_added_labels(body: list[str]) -> list[str]:
    """spatch prints a label it adds (ioctl_switch_add_default's
    `default:`) in column 0; kernel style, and checkpatch, put it at the
    indentation of its switch, which the closing brace after it has."""
    out = indent_added_branches(body)
    for i, line in enumerate(out):
        if re.fullmatch(r"\+default:\n?", line):
            brace = next((b for b in out[i + 1:] if re.fullmatch(r" [ \t]*\}\n?", b)), None)
            if brace is not None:
                out[i] = "+" + brace[1:len(brace) - len(brace[1:].lstrip())] + line[1:]
    return out


def indent_added_branches(body: list[str]) -> list[str]:
    """spatch indents a statement it adds under an if or a case label it
    adds by the indentation step it reads in the file (ppdev's four spaces
    under a tab); kernel style, and checkpatch, want one tab more than the
    head."""
    out = list(body)
    for i in range(1, len(out)):
        head = re.fullmatch(r"\+([ \t]*)(?:if \(.*\)|case .*:)\n?", out[i - 1])
        if head and out[i].startswith("+") and not re.match(r"\+[ \t]*case ", out[i]):
            out[i] = "+" + head.group(1) + "\t" + out[i][1:].lstrip(" \t")
    return out


def removed_lines(hunks: str) -> set[int]:
    """Line numbers, in the unmodified file, of the lines a diff removes."""
    removed: set[int] = set()
    old = 0
    for line in hunks.split("\n"):
        if m := re.match(r"^@@ -(\d+)", line):
            old = int(m.group(1))
        elif line.startswith("-"):
            removed.add(old)
            old += 1
        elif line.startswith(" ") or line == "":
            old += 1
    return removed


def hunk_ranges(hunks: str) -> list[range]:
    """The old-file line range of each hunk of a diff."""
    out = []
    for line in hunks.split("\n"):
        if m := _HUNK_START.match(line):
            start = int(m.group(1))
            out.append(range(start, start + max(int(m.group(2) or 1), 1)))
    return out


def adding_hunks(hunks: str) -> list[int]:
    """The old-file start line of each hunk that adds lines and removes
    none (what ioctl_switch_add_default and ioctl_default_add_assign
    change)."""
    out: list[int] = []
    start, adds, removes = 0, False, False
    for line in hunks.split("\n") + ["@@ -0 "]:
        if m := _HUNK_START.match(line):
            if adds and not removes:
                out.append(start)
            start, adds, removes = int(m.group(1)), False, False
        else:
            adds |= line.startswith("+")
            removes |= line.startswith("-")
    return out


_HUNK_START = re.compile(r"^@@ -(\d+)(?:,(\d+))? ")


def disagreement(result: FileResult) -> str:
    """Where a file's diff and its sites disagree ("" when they agree).

    Each site is one changed line, so the report and the patches can only
    agree when the lines the diff removes are the site lines.  A site of a
    shape that rewrites its statement (sites.RESTRUCTURES) lies in a hunk
    instead, and the lines that hunk removes are its own.
    """
    changed = removed_lines(result.hunks)
    named = {s.line for s in result.sites if s.rule not in RESTRUCTURES}
    rewritten = [s.line for s in result.sites if s.rule in RESTRUCTURES and s.rule not in ADDS]
    whole = [r for r in hunk_ranges(result.hunks) if any(line in r for line in rewritten)]
    changed -= {n for r in whole for n in r}
    problems = []
    uncovered = sorted(line for line in rewritten if not any(line in r for r in whole))
    added = adding_hunks(result.hunks)
    for s in result.sites:
        if s.rule in ADDS and not any(start > s.line for start in added):
            problems.append(f"nothing added after site line {s.line}")
    if uncovered:
        problems.append("site line(s) " + ", ".join(map(str, uncovered)) + " in no hunk")
    if changed - named:
        problems.append("the diff changes line(s) " + ", ".join(map(str, sorted(changed - named)))
                        + " that no site names")
    if named - changed:
        problems.append("site line(s) " + ", ".join(map(str, sorted(named - changed)))
                        + " not changed by the diff")
    return f"{result.file}: " + "; ".join(problems) if problems else ""


# ---------------------------------------------------------------- cache

class ScanCache:
    """One JSON file per (file content, rules, spatch) under cache_dir()/scan."""

    def __init__(self, folder: Path, salt: str) -> None:
        self.folder = folder
        self.salt = salt
        self.store = cache.JsonCache(folder)

    def _key(self, candidate: Candidate) -> str:
        digest = hashlib.sha256(f"{self.salt}\0{candidate.sha256}".encode())
        if candidate.facts:
            # Only a file with rows changes its key: the rows decide its targets.
            digest.update(b"\0" + candidate.facts.encode())
        return digest.hexdigest()

    def get(self, candidate: Candidate, timeout: int) -> FileResult | None:
        record = self.store.get(self._key(candidate))
        if record is None:
            return None
        try:
            status = record["status"]
            if status == TIMEOUT and record["timeout"] < timeout:
                return None   # it may finish with the longer timeout
            sites = [Site(candidate.rel, line, function, interface, from_, to, rule)
                     for line, function, interface, from_, to, rule in record["sites"]]
            return FileResult(candidate.rel, status, record["reason"], sites,
                              record["hunks"], cached=True)
        except (KeyError, TypeError, ValueError):
            return None

    def put(self, candidate: Candidate, result: FileResult, timeout: int) -> None:
        if result.status == ERROR:
            return   # crashes may be transient (memory, a killed run): retry next time
        record = {
            "status": result.status, "reason": result.reason, "timeout": timeout,
            "sites": [[s.line, s.function, s.interface, s.from_, s.to, s.rule]
                      for s in result.sites],
            "hunks": result.hunks,
        }
        if not self.store.put(self._key(candidate), record):
            raise OSError(f"cannot write the scan cache under {self.folder}")


# ---------------------------------------------------------------- running spatch

_version_lock = threading.Lock()
_versions: dict[str, str] = {}


def spatch_binary() -> str:
    path = shutil.which("spatch")
    if not path:
        raise UsageError("spatch not found on PATH: apt-get install coccinelle")
    return path


def spatch_version(binary: str) -> str:
    with _version_lock:
        if binary not in _versions:
            res = subprocess.run([binary, "--version"], capture_output=True, text=True, check=False)
            _versions[binary] = (res.stdout.splitlines() or ["unknown"])[0].strip()
        return _versions[binary]


_STANDARD_H = re.compile(r"--macro-file-builtins\s+<file>\s+\(default=([^)]+)\)")


def builtin_macros(binary: str) -> str:
    """spatch's own standard.h followed by KERNEL_MACROS, for
    --macro-file-builtins (which replaces standard.h)."""
    home = os.environ.get("COCCINELLE_HOME")
    if home:
        path = Path(home) / "standard.h"
    else:
        res = subprocess.run([binary, "--longhelp"], capture_output=True, text=True, check=False)
        m = _STANDARD_H.search(res.stdout + res.stderr)
        path = Path(m.group(1).strip()) if m else Path()
    try:
        standard = path.read_text(errors="replace")
    except OSError as err:
        raise UsageError(f"cannot read spatch's standard.h ({path}): {err}") from None
    return standard + "\n" + KERNEL_MACROS


class _Runner:
    """Runs spatch batches; tracks the live processes so ^C can end them."""

    def __init__(self, binary: str, root: Path, smpl_path: Path, workdir: Path, timeout: int,
                 tokens: Sequence[str]) -> None:
        self.binary = binary
        self.tokens = tokens
        self.root = root
        self.smpl_path = smpl_path
        self.workdir = workdir
        self.timeout = timeout
        self.stop = threading.Event()
        self._lock = threading.Lock()
        self._procs: set[subprocess.Popen] = set()
        self._serial = 0

    def kill_all(self) -> None:
        self.stop.set()
        with self._lock:
            for proc in self._procs:
                if proc.poll() is None:
                    proc.kill()

    def _spatch(self, rels: list[str]) -> tuple[int, str, str]:
        with self._lock:
            self._serial += 1
            serial = self._serial
        groups = self.workdir / f"groups-{serial}"
        # One group per file: each file is matched on its own.
        groups.write_text("\n\n".join(rels) + "\n")
        tmpdir = self.workdir / f"tmp-{serial}"
        tmpdir.mkdir()
        cmd = [self.binary, *PYTHON_OPTIONS, "--sp-file", str(self.smpl_path), *spatch_options(),
               "--macro-file-builtins", str(self.workdir / "macros.h"),
               "--timeout", str(self.timeout), "--file-groups", str(groups)]
        facts = self.workdir / "facts.tsv"
        if facts.exists():
            cmd += ["-D", f"enotty_facts={facts}"]
        # spatch's own scratch files (cocci-output-*) go to our temp folder;
        # unbuffered Python keeps site lines whole between spatch's writes.
        env = dict(os.environ, TMPDIR=str(tmpdir), PYTHONUNBUFFERED="1")
        # Bytes, not text mode: text mode would turn a CRLF file's "\r\n"
        # into "\n" and the diff would no longer apply.
        with self._lock:
            # Checked and started under the lock kill_all() takes, so no
            # spatch can start after ^C without being killed.
            if self.stop.is_set():
                shutil.rmtree(tmpdir, ignore_errors=True)
                raise KeyboardInterrupt
            proc = subprocess.Popen(cmd, cwd=self.root, env=env, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            self._procs.add(proc)
        killed = ""
        try:
            # spatch enforces the per-file timeout; this bounds a hung process.
            out, err = proc.communicate(timeout=self.timeout * len(rels) + 60)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            killed = f"\nenotty: spatch killed after {self.timeout * len(rels) + 60} s\n"
        finally:
            with self._lock:
                self._procs.discard(proc)
            shutil.rmtree(tmpdir, ignore_errors=True)
            groups.unlink(missing_ok=True)
        if self.stop.is_set():
            raise KeyboardInterrupt
        return proc.returncode, decode(out), decode(err) + killed

    def run(self, rels: list[str], rerun: bool = False) -> tuple[list[FileResult], list[str]]:
        """Results for these files, in order, and warnings (stray output).

        rerun: a file run alone after its batch crashed; its crash is its
        own failure, not a sign of a broken semantic patch.
        """
        rc, out, err = self._spatch(rels)
        outcomes, order = parse_stderr(err, self.tokens)
        noise: list[str] = []
        if rc != 0 and not order and not rerun:
            tail = " | ".join(err.strip().splitlines()[-3:])
            raise ScanError(f"spatch exited with status {rc} before any file: {tail}")
        stdout = parse_stdout(out)
        results: list[FileResult] = []
        for rel in rels:
            outcome = outcomes.get(rel)
            # After a crash even a finished file's diff may have been lost in
            # spatch's unflushed stdout buffer: only a skipped file is sure.
            if rc != 0 and (outcome is None or not outcome.skipped):
                if len(rels) == 1:
                    tail = " | ".join(err.strip().splitlines()[-2:])
                    results.append(FileResult(rel, ERROR, f"spatch exited with status {rc}: {tail}"))
                else:
                    # A crash mid-batch: run each such file on its own.
                    alone, alone_noise = self.run([rel], rerun=True)
                    results.extend(alone)
                    noise.extend(alone_noise)
                continue
            results.append(_file_result(rel, outcome, stdout, self.timeout))
        claimed = set(rels)
        stray = stdout.noise + [f"site for a file not in the batch: {f}"
                                for f in stdout.sites if f not in claimed]
        noise.extend(f"unexpected spatch output: {line}" for line in stray)
        return results, noise


def _batches(candidates: list[Candidate], jobs: int) -> list[list[Candidate]]:
    """Largest files first (the long ones start early); batches small enough
    that every worker gets several, large enough to amortise spatch start-up."""
    ordered = sorted(candidates, key=lambda c: (-c.size, c.rel))
    size = max(1, min(48, -(-len(ordered) // (jobs * 2))))   # ceil
    return [ordered[i:i + size] for i in range(0, len(ordered), size)]


def discover(root: Path, jobs: int, folder: Path | None = None) -> dict[str, str]:
    """Phase 1 over the whole tree: file -> its rows (facts.tsv_text) of
    the targets the per-file rules cannot see on their own.  The whole
    tree even when only a folder is scanned: the ops table of a handler
    in that folder may be anywhere."""
    found = phase1.extra_targets(root, sorted(tree.c_files(root)), jobs, folder)
    return {rel: phase1.tsv_text(targets) for rel, targets in found.items()}


def facts_tsv(facts: Mapping[str, str]) -> str:
    """discover()'s rows as one -D enotty_facts file: the scan hands each
    spatch the rows of its files; a coccicheck run gets them all (the rule
    looks a file's rows up by its path)."""
    return "".join(facts[rel] for rel in sorted(facts))


def _workdir(folder: Path, smpl: str, macros: str, todo: list[Candidate]) -> Path:
    """What every spatch of one scan reads: the rules, the macros and the
    files' phase-1 rows; the rules' path."""
    smpl_path = folder / "rules.cocci"
    smpl_path.write_text(smpl)
    (folder / "macros.h").write_text(macros)
    rows = "".join(c.facts for c in todo)
    if rows:
        (folder / "facts.tsv").write_text(rows)
    return smpl_path


def _run_batches(runner: _Runner, todo: list[Candidate], jobs: int, cache: ScanCache,
                 results: dict[str, FileResult], warnings: list[str], listener: Listener) -> None:
    """spatch over the files the cache could not answer, `jobs` batches at a
    time; each result stored in results and in the cache, stray output in
    warnings."""
    meter = listener.progress(len(todo), sum(c.size for c in todo)) if listener.progress else None
    timeout, warn = runner.timeout, listener.warn
    by_rel = {c.rel: c for c in todo}
    cache_broken = False
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
    try:
        futures = {pool.submit(runner.run, [c.rel for c in batch]): batch
                   for batch in _batches(todo, jobs)}
        for future in concurrent.futures.as_completed(futures):
            batch_results, noise = future.result()
            for result in batch_results:
                results[result.file] = result
                if not cache_broken:
                    try:
                        cache.put(by_rel[result.file], result, timeout)
                    except OSError as err:
                        # A read-only or full cache costs speed, not results.
                        cache_broken = True
                        noise.append(f"cache not written: {err}")
            for line in noise:
                warnings.append(line)
                if warn:
                    if meter:
                        meter.finish()   # the warning gets a line of its own
                    warn(line)
            if meter:
                meter.advance(len(batch_results), sum(c.size for c in futures[future]),
                              sum(len(r.sites) for r in batch_results))
    except BaseException:
        runner.kill_all()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    finally:
        if meter:
            meter.finish()
    pool.shutdown(wait=True)


@dataclass(frozen=True)
class Rules:
    """A semantic patch and the digest its cached results are kept under."""
    text: str
    digest: str

    @staticmethod
    def project() -> Rules:
        """The project's rule file."""
        return Rules(rules.rule_file().read_text(), rules.rules_digest())


class Meter(Protocol):
    """What the scan tells of its spatch runs (enotty.progress.Progress
    draws it on stderr): files, bytes and sites done; finish() before a
    warning gets a line of its own, and at the end."""

    def advance(self, files: int, work: float, sites: int) -> None: ...

    def finish(self) -> None: ...


@dataclass(frozen=True)
class Listener:
    """Who hears of a scan as it runs: progress(files, bytes) makes a
    Meter, warn(line) says one line, done(request, result) hears how it
    ended; None for silence."""
    progress: Callable[[int, int], Meter] | None = None
    warn: Callable[[str], None] | None = None
    done: Callable[[ScanRequest, ScanResult], None] | None = None


def _prefilter_memo(caches: Path, tree_key: str, scope: Path, ioctl: Sequence[bytes],
                    facts: Mapping[str, str] | None) -> cache.StageMemo:
    """Where prefilter()'s answer for an unchanging tree is kept: the
    code, the tree, the scope, the tokens and the phase-1 rows key it."""
    rows = "".join(f"{k}\0{v}\0" for k, v in sorted((facts or {}).items()))
    return cache.StageMemo(caches / "memo", cache.key(
        "prefilter", cache.code_digest(), tree_key, str(scope), *(t.decode() for t in ioctl),
        cache.digest(rows.encode())))


def scan(req: ScanRequest, smpl: Rules | None = None, facts: Mapping[str, str] | None = None,
         listener: Listener = Listener()) -> ScanResult:
    """Scan the .c files of the request's scope with the rules (the
    project's when smpl is None).

    facts: phase 1 (enotty.find.facts), file -> its rows
    `file<TAB>function<TAB>interface<TAB>cmd_arg`, as facts.tsv_text()
    gives them: the rules treat those functions as targets too
    (-D enotty_facts=FILE), and each file's rows join its cache key, so
    a changed file rescans itself and the files whose rows it changed.
    req.across_files: run phase 1 first (discover()) and use its rows as
    facts.  The tree says whether cached results answer (use_cache; fresh
    results are stored either way) and where they live (caches: scan/ and
    facts/ under it).  Raises UsageError (no spatch) and ScanError (spatch
    failed before handling any file).
    """
    start = time.monotonic()
    # os.path.realpath is Path.resolve(): the cache keys and the sites'
    # paths are relative to the real folders, whatever links lead there
    root, scope = Path(os.path.realpath(req.tree.root)), Path(os.path.realpath(req.scope))
    caches = req.tree.caches or tree.cache_dir()
    binary = spatch_binary()
    facts_seconds = 0.0
    jobs, timeout, warn = max(1, req.jobs), req.timeout, listener.warn
    if req.across_files:
        facts = discover(root, jobs, caches / "facts")
        facts_seconds = time.monotonic() - start
    smpl = smpl or Rules.project()
    macros = builtin_macros(binary)
    salt = "\0".join([CACHE_FORMAT, spatch_version(binary), smpl.digest,
                      hashlib.sha256(smpl.text.encode()).hexdigest(),
                      " ".join(spatch_options()), macros])
    cache = ScanCache(caches / "scan", salt)

    ioctl = ioctl_tokens()

    def prefiltered() -> Prefilter:
        return prefilter(root, scope, ioctl, facts=facts, reach_cache=caches / "reach",
                         use_cache=req.tree.use_cache, jobs=jobs)

    if req.tree.memo_ok:
        # reading 33,000 files costs 7 s of a warm rerun's 30
        started = time.monotonic()
        found = _prefilter_memo(caches, req.tree.cache_key, scope, ioctl, facts).get_or_make(prefiltered)
        found = dataclasses.replace(found, seconds=time.monotonic() - started)
    else:
        found = prefiltered()
    results = {c.rel: hit for c in found.candidates
               if req.tree.use_cache and (hit := cache.get(c, timeout)) is not None}
    todo = [c for c in found.candidates if c.rel not in results]
    warnings: list[str] = []
    if todo:
        with tempfile.TemporaryDirectory(prefix="enotty-scan-") as workdir:
            runner = _Runner(binary, root, _workdir(Path(workdir), smpl.text, macros, todo), Path(workdir), timeout,
                             [t.decode() for t in (*ioctl, *ERRNO_TOKENS)])
            _run_batches(runner, todo, jobs, cache, results, warnings, listener)

    ordered = [results[c.rel] for c in found.candidates]
    ordered += [FileResult(rel, ERROR, f"cannot read: {why}") for rel, why in found.unreadable]
    ordered.sort(key=lambda r: r.file)
    for result in ordered:
        if result.status in (OK, PARTIAL, PARSE_ERROR) and (problem := disagreement(result)):
            warnings.append(problem)
            if warn:
                warn(problem)
    scanned = ScanResult(
        root=root, scope=scope,
        sites=sort_sites(s for r in ordered for s in r.sites),
        diffs={r.file: r.diff for r in ordered if r.hunks},
        failed=[Failure(r.file, r.status, r.reason) for r in ordered if r.status not in (OK, PARTIAL)],
        partial=[Failure(r.file, r.status, r.reason) for r in ordered if r.status == PARTIAL],
        c_files=found.c_files, candidates=len(found.candidates), unreached=found.unreached,
        spatch_runs=len(todo),
        cached=sum(1 for r in ordered if r.cached),
        prefilter_seconds=found.seconds, seconds=time.monotonic() - start,
        warnings=warnings, facts=dict(facts or {}), facts_seconds=facts_seconds,
        scanned=sorted(c.rel for c in todo),
    )
    if listener.done:
        listener.done(req, scanned)
    return scanned


def rescan(files: Mapping[str, bytes], facts: Mapping[str, str], jobs: int,
           timeout: int) -> tuple[list[Site], list[Failure]]:
    """The rules again over a few files (rel -> content: the patched files
    of the verify stage's fixpoint), laid out like the tree in a temporary
    folder, with the whole scan's phase-1 rows: phase 1 over these files
    alone would not see the ops tables and callers elsewhere.  No cache of
    its own: the scan's per-file cache (file content, rules, spatch version
    and options) answers a file it has seen."""
    with tempfile.TemporaryDirectory(prefix="enotty-fixpoint-") as tmp:
        base = Path(tmp)
        for rel, data in files.items():
            dest = base / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
        res = scan(ScanRequest(tree.at(base), jobs=jobs, timeout=timeout, across_files=False), facts=facts)
    return res.sites, res.failed
