"""Subject prefixes the way each subsystem writes them.

A maintainer expects the prefix the subsystem's own commits use: `floppy:`,
`ALSA: hda:`, `s390/tape:`, `Input: serport -`, `crypto: ccp -`.  A path
cannot tell (`block: floppy:` and `char: random:` are what a path gives), so:

- when KDIR is a git checkout, its history decides: the dominant prefix of
  `git log --format=%s` for the touched file, else for its folder;
- otherwise (the Debian tarball has no history) prefixes.tsv beside this
  module, written from the subsystems' customary style, decides: the most
  specific row for the path (a path over a glob over a folder, then the
  longer literal start), else the file's folder name, which no maintainer
  would call wrong even where it is not their habit.

A patch of several files whose prefixes differ takes the one the
MAINTAINERS section names first (TUN/TAP: `tun:`), else the row of the
folder the files share (sound/firewire/: `ALSA: firewire:`), else the
prefixes' common start (`s390/cio:` + `s390/zcrypt:` -> `s390:`), else the
table's row for the section (`section:CHAR and MISC DRIVERS` -> `char/misc:`).
A series' cover letter takes series_prefix() of its patches' prefixes.
"""
from __future__ import annotations

import collections
import posixpath
import re
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

TABLE = Path(__file__).with_name("prefixes.tsv")

# Enough subjects for a habit; fewer and the folder's history decides.
MIN_SUBJECTS = 3
HISTORY_DEPTH = 200

_EXACT, _GLOB, _FOLDER, _SECTION = 2, 1, 0, -1
SECTION_KEY = "section:"


@dataclass(frozen=True)
class Row:
    """One table row: KEY (path, glob or folder/) and its PREFIX template."""
    key: str
    prefix: str

    @property
    def kind(self) -> int:
        if self.key.startswith(SECTION_KEY):
            return _SECTION
        if self.key.endswith("/"):
            return _FOLDER
        return _GLOB if any(c in self.key for c in "*?[") else _EXACT

    @property
    def literal(self) -> int:
        """Characters before the first wildcard."""
        m = re.search(r"[*?\[]", self.key)
        return m.start() if m else len(self.key)

    def matches(self, path: str) -> bool:
        kind = self.kind
        if kind == _EXACT:
            return path == self.key
        if kind == _FOLDER:
            return path.startswith(self.key)
        if kind == _SECTION:
            return False         # looked up by title only (section_prefix)
        return re.fullmatch(_glob_regex(self.key), path) is not None

    def render(self, path: str) -> str:
        stem = posixpath.splitext(posixpath.basename(path))[0]
        return self.prefix.replace("{stem}", stem)


@lru_cache(maxsize=None)
def _glob_regex(glob: str) -> str:
    out = []
    for ch in glob:
        out.append("[^/]*" if ch == "*" else "[^/]" if ch == "?" else re.escape(ch))
    return "".join(out)


def parse_table(text: str, origin: str = "prefixes.tsv") -> list[Row]:
    """Rows of a prefix table; ValueError names the bad line."""
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 2 or not parts[0] or not parts[1].strip():
            raise ValueError(f"{origin}:{number}: expected KEY<TAB>PREFIX, got {line!r}")
        prefix = parts[1].strip()
        if not (prefix.endswith(":") or prefix.endswith(" -")):
            raise ValueError(f"{origin}:{number}: a prefix ends in ':' or ' -', got {prefix!r}")
        rows.append(Row(parts[0].strip(), prefix))
    return rows


@lru_cache(maxsize=None)
def load_table(path: Path = TABLE) -> tuple[Row, ...]:
    return tuple(parse_table(path.read_text(), path.name))


def _best_row(path: str, rows: tuple[Row, ...] | list[Row], kinds=(_EXACT, _GLOB, _FOLDER)) -> Row | None:
    found = [r for r in rows if r.kind in kinds and r.matches(path)]
    if not found:
        return None
    return max(found, key=lambda r: (r.kind, r.literal, len(r.key)))


def folder_prefix(path: str) -> str:
    """The fallback: the file's folder name (its stem at the top)."""
    folder = posixpath.basename(posixpath.dirname(path))
    return (folder or posixpath.splitext(posixpath.basename(path))[0]) + ":"


def table_prefix(path: str, rows: tuple[Row, ...] | list[Row] | None = None) -> str:
    """The prefix of one file from the table, else its folder name.

    A folder row that only covers the file from higher up (drivers/media/
    for drivers/media/usb/uvc/uvc_v4l2.c) names the subsystem, not the
    driver: the file's own folder is added (`media: uvc:`), as the
    subsystem's patches name their driver."""
    row = _best_row(path, load_table() if rows is None else rows)
    if not row:
        return folder_prefix(path)
    prefix = row.render(path)
    folder = posixpath.dirname(path)
    if row.kind == _FOLDER and folder + "/" != row.key:
        driver = posixpath.basename(folder)
        prefix = f"{prefix[:-2]}/{driver} -" if prefix.endswith(" -") else f"{prefix} {driver}:"
    return prefix


# One subject's prefix: components without spaces, each ending in ': ',
# optionally followed by the Input/crypto style `driver - `.
_SUBJECT = re.compile(r"^((?:[^\s:]+: )+)(?:([^\s:]+) - )?")
_NOT_A_HABIT = ("revert", "merge", "treewide", "tree-wide", "all:")


def subject_prefix(subject: str) -> str | None:
    """`ALSA: hda:` of 'ALSA: hda: Fix ...', `Input: serport -` of
    'Input: serport - fix ...'; None for reverts, merges, treewide sweeps
    and subjects without one."""
    if subject.lower().startswith(_NOT_A_HABIT):
        return None
    m = _SUBJECT.match(subject)
    if not m:
        return None
    prefix = m.group(1).rstrip()
    return f"{prefix} {m.group(2)} -" if m.group(2) else prefix


def dominant_prefix(subjects: list[str], minimum: int = MIN_SUBJECTS) -> str | None:
    """The most common prefix of the subjects (newest first; a tie goes to
    the one used most recently); None with fewer than `minimum` prefixed."""
    found = [p for p in map(subject_prefix, subjects) if p]
    if len(found) < minimum:
        return None
    counts = collections.Counter(found)
    newest = {p: i for i, p in reversed(list(enumerate(found)))}
    return max(counts, key=lambda p: (counts[p], -newest[p]))


def is_git_checkout(root: Path) -> bool:
    """Whether root is the top of a git work tree (not a folder inside one)."""
    try:
        res = subprocess.run(["git", "-C", str(root), "rev-parse", "--show-toplevel"],
                             capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL)
    except OSError:
        return False
    return res.returncode == 0 and Path(res.stdout.strip()).resolve() == root.resolve()


def git_subjects(root: Path, paths: list[str], limit: int = HISTORY_DEPTH) -> list[str]:
    """Subjects of the last `limit` non-merge commits touching paths, newest first."""
    res = subprocess.run(["git", "-C", str(root), "log", f"-n{limit}", "--no-merges",
                          "--format=%s", "--", *paths],
                         capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL)
    return res.stdout.splitlines() if res.returncode == 0 else []


def history_prefix(root: Path, paths: list[str]) -> str | None:
    """The dominant prefix of the files' history, else of their folder's."""
    found = dominant_prefix(git_subjects(root, paths))
    if found:
        return found
    folder = _common_folder(paths)
    return dominant_prefix(git_subjects(root, [folder])) if folder else None


def _common_folder(paths: list[str]) -> str:
    return posixpath.commonpath([posixpath.dirname(p) or "." for p in paths]).strip(".")


_TOKENS = re.compile(r"(: |/| - )")


def common_start(prefixes: list[str]) -> str:
    """The shared leading components: `s390/cio:` + `s390/zcrypt:` -> `s390:`,
    `drm/i915/perf:` + `drm/i915:` -> `drm/i915:`, `crypto: ccp/dbc -` +
    `crypto: ccp/sev -` -> `crypto: ccp -`; '' when nothing is shared."""
    split = [_TOKENS.split(p.rstrip(":").rstrip(" -")) for p in prefixes]
    components = [tokens[::2] for tokens in split]
    shared = 0
    for column in zip(*components):
        if len(set(column)) != 1:
            break
        shared += 1
    if not shared:
        return ""
    start = "".join(split[0][:2 * shared - 1])
    # Input and crypto end on the driver with a dash: crypto: ccp -
    dashed = shared > 1 and all(p.endswith(" -") for p in prefixes)
    return start + (" -" if dashed else ":")


def _named_first(prefixes: list[str], section: str) -> str | None:
    """The prefix whose driver the section title names first (TUN/TAP -> tun:)."""
    title = section.lower()
    spots = []
    for prefix in prefixes:
        driver = _TOKENS.split(prefix.rstrip(":").rstrip(" -"))[-1].lower()
        m = re.search(r"(?<![a-z0-9])" + re.escape(driver) + r"(?![a-z0-9])", title) if driver else None
        if m:
            spots.append((m.start(), prefix))
    return min(spots)[1] if spots else None


def section_prefix(section: str, rows: tuple[Row, ...] | list[Row] | None = None) -> str | None:
    """The table's prefix for a whole MAINTAINERS section (`section:TITLE` row)."""
    for row in load_table() if rows is None else rows:
        if row.kind == _SECTION and row.key[len(SECTION_KEY):] == section:
            return row.prefix
    return None


def series_prefix(patch_prefixes: list[str], subsystem: str = "",
                  rows: tuple[Row, ...] | list[Row] | None = None) -> str:
    """The prefix of a series' cover letter: its patches' common start
    (`ALSA:`), else the table's row for the subsystem (CHAR and MISC
    DRIVERS: `char/misc:`), else their most common first component."""
    if not patch_prefixes:
        return section_prefix(subsystem, rows) or ""
    shared = common_start(patch_prefixes) if len(set(patch_prefixes)) > 1 else patch_prefixes[0]
    if shared:
        return shared
    row = section_prefix(subsystem, rows)
    if row:
        return row
    firsts = [_TOKENS.split(p.rstrip(":").rstrip(" -"))[0] + ":" for p in patch_prefixes]
    counts = collections.Counter(firsts)
    return max(counts, key=lambda f: (counts[f], -firsts.index(f)))


def distinct_prefixes(patch_prefixes: list[str], drivers: list[str]) -> list[str]:
    """Prefixes two patches of a series share get the patch's driver name
    (`mISDN:` -> `mISDN: socket:`, `crypto: ccp -` -> `crypto: ccp/dbc -`),
    so no two subjects of a series are equal."""
    out = []
    for prefix, driver in zip(patch_prefixes, drivers):
        if patch_prefixes.count(prefix) > 1 and driver:
            last = _TOKENS.split(prefix.rstrip(":").rstrip(" -"))[-1]
            if driver.lower() != last.lower():
                prefix = f"{prefix[:-2]}/{driver} -" if prefix.endswith(" -") else f"{prefix} {driver}:"
        out.append(prefix)
    return out


def _pair(paths: list[str], distinct: list[str], rows: tuple[Row, ...] | list[Row]) -> str:
    """Two drivers of one family, each with a row of its own, named both as
    ALSA and ASoC do (`ALSA: hdsp:` + `ALSA: hdspm:` -> `ALSA: hdsp, hdspm:`,
    not the folder's `ALSA: rme9652:`), when they sit in one folder; ''
    otherwise."""
    if len(distinct) != 2 or any(p.endswith(" -") for p in distinct):
        return ""
    if len({posixpath.dirname(path) for path in paths}) != 1:
        return ""       # drivers of several folders: the subsystem's tree-wide prefix
    if any(_best_row(path, rows, kinds=(_EXACT,)) is None for path in paths):
        return ""
    split = [_TOKENS.split(p.rstrip(":")) for p in distinct]
    if len(split[0]) != len(split[1]) or len(split[0]) < 3 or split[0][:-1] != split[1][:-1]:
        return ""
    if split[0][-2] != ": ":
        return ""       # RDMA/umad + RDMA/uverbs: the folder's RDMA/core: says it
    return "".join(split[0][:-1]) + f"{split[0][-1]}, {split[1][-1]}:"


def combine(paths: list[str], prefixes: list[str], section: str = "",
            rows: tuple[Row, ...] | list[Row] | None = None) -> str:
    """One prefix for a patch whose files have `prefixes` (see module doc)."""
    distinct = sorted(set(prefixes), key=prefixes.index)
    if len(distinct) == 1:
        return distinct[0]
    # TUN/TAP's tun.c, tap.c and tun_vnet.h: one folder, one driver family;
    # files of several folders (net/ipv4/ and net/ipv6/) take their folder's row
    named = _named_first(distinct, section) if len({posixpath.dirname(p) for p in paths}) == 1 else None
    if named:
        return named
    pair = _pair(paths, distinct, load_table() if rows is None else rows)
    if pair:
        return pair
    folder = _common_folder(paths)
    if folder:
        row = _best_row(folder + "/", load_table() if rows is None else rows, kinds=(_FOLDER,))
        if row:
            return row.render(folder)
    return common_start(distinct) or series_prefix(distinct, section, rows)


def patch_prefix(root: Path | None, paths: list[str], section: str = "",
                 git: bool | None = None, rows: tuple[Row, ...] | list[Row] | None = None) -> str:
    """The subject prefix for a patch touching paths (relative to root).

    root: the kernel tree (None: table only); section: the patch's most
    specific MAINTAINERS section title, for patches of several drivers;
    git: whether root is a git checkout (None: find out)."""
    use_git = root is not None and (is_git_checkout(root) if git is None else git)
    found = []
    for path in paths:
        habit = history_prefix(root, [path]) if use_git and root is not None else None
        found.append(habit or table_prefix(path, rows))
    return combine(paths, found, section, rows)


def base_commit(root: Path) -> str | None:
    """The commit a series made from root applies to: HEAD of a git checkout
    without local changes to tracked files; None otherwise (a tarball, or a
    tree whose files differ from every commit)."""
    if not is_git_checkout(root):
        return None
    head = subprocess.run(["git", "-C", str(root), "rev-parse", "--verify", "-q", "HEAD"],
                          capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL)
    dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL)
    if head.returncode != 0 or dirty.returncode != 0 or dirty.stdout.strip():
        return None
    return head.stdout.strip() or None
