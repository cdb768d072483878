"""Split the scan result into series (one per maintainer tree and list) of
patches (one per driver), cleanups last.

Series: the subsystem is the most specific MAINTAINERS section covering the
file that names a tree (T:), climbing to a broader section while that one
names the same tree (a driver section living in the media tree belongs to the
media series).  A section of single files (F: lines naming files only, no
folder) is a driver even when it names a tree of its own: it joins the
broader covering section that has a tree and shares its list (the scarlett2
mixer driver's development tree feeds the ALSA tree through
linux-sound@vger.kernel.org).  THE REST only when nothing else covers the file.
Subsystems with the same trees are one series; so are the subsections of a
list whose maintainers apply everything sent to it and require a tree tag in
the subject (netdev: ATM and ISDN have no tree of their own and go through
net-next, `[PATCH net-next]`, Documentation/process/maintainer-netdev.rst),
one series per driver section there (atm, isdn, tun, mctp each to its own
maintainers and the list).
A series is named after the broadest section title among its subsystems
(WATCHDOG DEVICE DRIVERS -> watchdog-device-drivers).  One exception: every
file under drivers/media/, drivers/staging/media/ and include/media/ is in
the series `media` (the V4L2 slice the QEMU test applies).

Patches: one per driver, where a driver is
- the most specific section, when that section is finer than the series
  (USB VIDEO CLASS inside media, TOSHIBA ACPI EXTRAS DRIVER inside
  X86 PLATFORM DRIVERS): all its files in one patch;
- otherwise, below the folder of the series' pattern: the file's own folder is
  the driver (drivers/media/pci/cx18/, drivers/media/v4l2-core/) when it has
  no subfolders; a folder with subfolders is a folder of drivers
  (drivers/video/fbdev/), where, as directly in the pattern's folder, each
  file is its own driver together with files of the same stem
  (drivers/watchdog/softdog.c).  Under a file or one-level pattern
  (fs/*) each file is its own driver.

Documentation: a patch whose C file has an entry in enotty.partition.doc_updates
(a user-space error list that states the old answer) carries that
documentation hunk too, so that the series never leaves the two apart.

Cleanups: a site that only turns a leaf -ENOIOCTLCMD into -ENOTTY
(is_cleanup) changes nothing user space sees: vfs_ioctl() and the compat
ioctl syscall already answer ENOTTY for it.  Such changes leave their
driver patches for one patch at the end of their series (behavioural
changes first, so the cleanup can be dropped on its own), or stay out
entirely with cleanups=False.  A file with both kinds is split by hunk.

Without MAINTAINERS (a plain folder of C files, or a tree without one) the
series is the file's first two path components and the patch unit is the
folder or file as above.  Series are not cut at ~15 patches: a maintainer can
take a longer mechanical series, and cutting would make the split depend on
the tree's size; SUMMARY.md shows the counts.
"""
from __future__ import annotations

import dataclasses
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Mapping

from . import doc_updates
from .maintainers import Maintainers, Match, Section, slugify
from ..find.sites import VALID_FIRST, Site

MEDIA_SERIES = "media"
MEDIA_DIRS = ("drivers/media/", "drivers/staging/media/", "include/media/")


@dataclass(frozen=True)
class FileChange:
    """One file's part of the scan result."""
    path: str              # relative to the tree root
    diff: str              # unified diff with a/ b/ prefixes
    sites: tuple[Site, ...]
    # what else the diff edits, in the commit message's words (comment_updates)
    notes: tuple[str, ...] = ()
    # source_facts: the guards it converts in a function that answers other
    # unknown commands -ENOTTY already, and the uapi headers' own ENOTTY line
    guards: tuple[str, ...] = ()
    cites: tuple[str, ...] = ()
    # source_facts: the calls that read the argument after such a guard and
    # before the function tells a known command from an unknown one
    # (luo_ioctl()'s get_user()): their -EFAULT comes first
    guard_reads: tuple[str, ...] = ()
    # source_facts: (program, command, function, errno) of the programs that test a
    # command the converted functions handle themselves (QEMU's TUNSETVNETLE)
    unaffected: tuple[tuple[str, str, str, str], ...] = ()


@dataclass
class PatchPlan:
    key: str               # the driver's identity inside its series
    driver: str            # short name for the subject (softdog, uvc)
    section: str           # most specific MAINTAINERS section ('' without one)
    files: list[FileChange] = field(default_factory=list)
    cleanup: bool = False  # the series' closing patch of leaf cleanups
    # documentation hunks that go with the change (enotty.partition.doc_updates):
    # in the diff, not in paths (prefix, build and rules see C files)
    docs: list[FileChange] = field(default_factory=list)

    @property
    def sites(self) -> list[Site]:
        return [s for f in self.files for s in f.sites]

    @property
    def diff(self) -> str:
        return "".join(f.diff for f in self.files + self.docs)

    @property
    def paths(self) -> list[str]:
        return [f.path for f in self.files]

    @property
    def folder(self) -> str:
        """The deepest folder holding every file of the patch."""
        return posixpath.commonpath([posixpath.dirname(p) or "." for p in self.paths])


@dataclass
class SeriesPlan:
    name: str              # folder name and mailout name
    subsystem: str         # MAINTAINERS section title, or the path it stands for
    patches: list[PatchPlan] = field(default_factory=list)
    tree_tag: str = ""     # what goes after PATCH in the subject: net-next
    lists: tuple[str, ...] = ()    # the subsystem's mailing lists (L:)
    trees: tuple[str, ...] = ()    # the subsystem's trees (T:)

    @property
    def subject_prefix(self) -> str:
        """git format-patch --subject-prefix: PATCH, or PATCH net-next."""
        return f"PATCH {self.tree_tag}" if self.tree_tag else "PATCH"

    @property
    def behavioural(self) -> list[PatchPlan]:
        """The patches that change what user space sees (all but the cleanup)."""
        return [p for p in self.patches if not p.cleanup]

    @property
    def sites(self) -> list[Site]:
        return [s for p in self.patches for s in p.sites]


def each_converting_file(plans: list[SeriesPlan], revise: Callable[[FileChange], FileChange]) -> list[SeriesPlan]:
    """plans with the files of each converting patch passed through
    revise; the cleanup patches change no handler's answer and stay."""
    for plan in plans:
        for patch in plan.patches:
            if not patch.cleanup:
                patch.files = [revise(change) for change in patch.files]
    return plans


# A list whose maintainers apply the patches of every section that lists it
# and has no tree of its own (or theirs), the tree tag they require in the
# subject (Documentation/process/maintainer-netdev.rst: "[PATCH net-next]"
# for anything that is not a fix for the current release) and what their
# trees' T: lines contain.  A section with another tree (BPF: bpf-next)
# keeps its own series.
TREE_TAG_LISTS = {"netdev@vger.kernel.org": "net-next"}
LIST_TREES = {"netdev@vger.kernel.org": "/netdev/"}
# Lists that say nothing about who applies a patch.
GENERIC_LISTS = ("linux-kernel@vger.kernel.org",)
CLEANUP_RULES = ("ioctl_leaf_enoioctlcmd",)


def is_media(path: str) -> bool:
    return path.startswith(MEDIA_DIRS)


def is_cleanup(site: Site) -> bool:
    """A leaf -ENOIOCTLCMD -> -ENOTTY change: nothing on the way to user
    space treats the old value as "try another handler", so user space saw
    ENOTTY before and after."""
    return site.rule in CLEANUP_RULES or (site.from_ == "ENOIOCTLCMD" and site.to == "ENOTTY")


def _stem(path: str) -> str:
    return posixpath.splitext(posixpath.basename(path))[0]


def _tree_of(sec: Section) -> str:
    trees = sec.values("T")
    return trees[0] if trees else ""


def lists_of(sec: Section) -> tuple[str, ...]:
    """The section's mailing lists, addresses only, generic ones left out."""
    out = []
    for value in sec.values("L"):
        address = value.split()[0] if value.split() else ""
        if address and address.lower() not in GENERIC_LISTS:
            out.append(address.lower())
    return tuple(out)


def _single_files(sec: Section) -> bool:
    """F: lines that name files only (a driver), no folder or wildcard."""
    return bool(sec.files) and all(not p.recursive and not any(c in p.raw for c in "*?[")
                                   for p in sec.files)


def subsystem_section(found: list[Match]) -> Match:
    """The match that stands for the subsystem (see module doc)."""
    real = [m for m in found if m.depth >= 0] or found
    chosen = next((m for m in real if _tree_of(m.section)), real[0])
    tree = _tree_of(chosen.section)
    if tree:
        for m in real[real.index(chosen) + 1:]:
            if _tree_of(m.section) == tree:
                chosen = m
    if _single_files(chosen.section):
        # a driver with a development tree: it goes through the broader
        # section's tree where that section shares its list
        mine = set(lists_of(chosen.section))
        for m in real[real.index(chosen) + 1:]:
            if m.depth < chosen.depth and _tree_of(m.section) and mine & set(lists_of(m.section)):
                return m
    return chosen


def tree_tag(lists: tuple[str, ...], trees: tuple[str, ...] = ()) -> str:
    """The subject tag the series' list requires ('' for none); not where
    the series has a tree other than that list's."""
    for address in lists:
        if address not in TREE_TAG_LISTS:
            continue
        if not trees or any(LIST_TREES[address] in t for t in trees):
            return TREE_TAG_LISTS[address]
        # a section of that list with trees of its own names its -next
        # tree the same way (NETWORKING [IPSEC]: "[PATCH ipsec-next]")
        for t in trees:
            m = re.search(r"/([\w.]+-next)(?:\.git)?/?(?:\s|$)", t)
            if m:
                return m.group(1)
    return ""


def _series_key(sec: Section) -> tuple[str, ...]:
    """Subsystems with equal keys are one series (see module doc)."""
    trees = tuple(sorted(sec.values("T")))
    for address in lists_of(sec):
        if address in TREE_TAG_LISTS and (not trees or any(LIST_TREES[address] in t for t in trees)):
            return ("list", address)
    return ("tree",) + trees if trees else ("section", sec.title)


def _unit_below(path: str, base: str, has_subfolders: Callable[[str], bool]) -> tuple[str, str]:
    """(key, driver) for a file under folder `base`: its own folder when that
    is deeper than base and holds no further folders (cx18/, v4l2-core/),
    else the file itself with files of the same stem (watchdog/softdog.c,
    and fbdev/sh_mobile_lcdcfb.c: fbdev/ is a folder of drivers)."""
    folder = posixpath.dirname(path)
    if folder and folder != base and (not base or folder.startswith(base + "/")) \
            and not has_subfolders(folder):
        return folder, posixpath.basename(folder)
    stem = _stem(path)
    return posixpath.join(folder, stem), stem


def subfolder_probe(root: Path | None) -> Callable[[str], bool]:
    """has_subfolders(folder) on the tree; False everywhere without a tree."""
    cache: dict[str, bool] = {}

    def has_subfolders(folder: str) -> bool:
        if root is None:
            return False
        if folder not in cache:
            try:
                cache[folder] = any(e.is_dir() for e in (root / folder).iterdir())
            except OSError:
                cache[folder] = False
        return cache[folder]
    return has_subfolders


def _path_series(path: str) -> tuple[str, str]:
    """(series name, subsystem) without MAINTAINERS: first two folders."""
    folders = posixpath.dirname(path).split("/")[:2]
    base = "/".join(f for f in folders if f)
    return (slugify(base) if base else "top"), base or "."


# ------------------------------------------------------------ hunks

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$")


@dataclass
class _Hunk:
    old_start: int
    old_len: int
    new_len: int
    tail: str              # the text after the second @@
    body: list[str]

    @property
    def delta(self) -> int:
        return self.new_len - self.old_len

    def header(self, old_start: int, new_start: int) -> str:
        return f"@@ -{old_start},{self.old_len} +{new_start},{self.new_len} @@{self.tail}\n"


def _parse_hunks(diff: str) -> tuple[list[str], list[_Hunk]]:
    head: list[str] = []
    hunks: list[_Hunk] = []
    for line in diff.splitlines(True):
        m = _HUNK.match(line.rstrip("\n"))
        if m:
            old_len = int(m.group(2)) if m.group(2) is not None else 1
            new_len = int(m.group(4)) if m.group(4) is not None else 1
            hunks.append(_Hunk(int(m.group(1)), old_len, new_len, m.group(5), []))
        elif hunks:
            hunks[-1].body.append(line)
        else:
            head.append(line)
    return head, hunks


def split_hunks(diff: str, lines: set[int]) -> tuple[str, str]:
    """One file's diff as (first, then): `first` holds the hunks whose old
    range covers none of `lines`, `then` the others, rebased to apply after
    `first`.  Either is '' when it has no hunk."""
    head, hunks = _parse_hunks(diff)
    first = [h for h in hunks if not any(h.old_start <= n < h.old_start + max(h.old_len, 1) for n in lines)]
    then = [h for h in hunks if h not in first]

    def render(chosen: list[_Hunk], applied_before: list[_Hunk]) -> str:
        if not chosen:
            return ""
        out = list(head)
        own = 0
        for h in chosen:
            shift = sum(x.delta for x in applied_before if x.old_start < h.old_start)
            old_start = h.old_start + shift
            out.append(h.header(old_start, old_start + own))
            out.extend(h.body)
            own += h.delta
        return "".join(out)
    return render(first, []), render(then, first)


def split_lines(diff: str, lines: set[int]) -> tuple[str, str] | None:
    """split_hunks for a diff with a hunk that changes both one of `lines`
    and another line (sis_main.c: the #ifdef twin's -ENOIOCTLCMD and the
    #else twin's -EINVAL, two lines apart): `first` changes the other lines
    only, `then` the `lines` after it.  Only when every change of the diff
    replaces one line by one line; None otherwise, or when no hunk mixes."""
    head, hunks = _parse_hunks(diff)
    first: list[_Hunk] = []
    then: list[_Hunk] = []
    mixed = False
    for h in hunks:
        f_body: list[str] = []
        t_body: list[str] = []
        n, i, kinds = h.old_start, 0, set()
        while i < len(h.body):
            line = h.body[i]
            if line.startswith("-"):
                if not (i + 1 < len(h.body) and h.body[i + 1].startswith("+")) or (
                        i + 2 < len(h.body) and h.body[i + 2].startswith("+")):
                    return None
                new = h.body[i + 1]
                if n in lines:
                    kinds.add("then")
                    f_body.append(" " + line[1:])
                    t_body += [line, new]
                else:
                    kinds.add("first")
                    f_body += [line, new]
                    t_body.append(" " + new[1:])
                n, i = n + 1, i + 2
                continue
            if line.startswith("+"):
                return None
            f_body.append(line)
            t_body.append(line)
            n += line.startswith(" ")
            i += 1
        mixed = mixed or len(kinds) == 2
        if "first" in kinds:
            first.append(_Hunk(h.old_start, h.old_len, h.new_len, h.tail, f_body))
        if "then" in kinds:
            then.append(_Hunk(h.old_start, h.old_len, h.new_len, h.tail, t_body))
    if not mixed:
        return None

    def render(chosen: list[_Hunk]) -> str:
        return "".join(head + [x for h in chosen for x in [h.header(h.old_start, h.old_start), *h.body]]) \
            if chosen else ""
    return render(first), render(then)


def _split_change(change: FileChange) -> tuple[FileChange | None, FileChange | None]:
    """(behavioural part, cleanup part) of one file's change."""
    keep = tuple(s for s in change.sites if not is_cleanup(s))
    tidy = tuple(s for s in change.sites if is_cleanup(s))
    if not tidy:
        return change, None
    if not keep:
        return None, change
    by_line = split_lines(change.diff, {s.line for s in tidy})
    first, then = by_line or split_hunks(change.diff, {s.line for s in tidy})
    return (FileChange(change.path, first, keep) if first else None,
            FileChange(change.path, then, tidy) if then else None)


# ------------------------------------------------------------ the plan

def plan(changes: list[FileChange], maint: Maintainers | None,
         root: Path | None = None, cleanups: bool = True) -> list[SeriesPlan]:
    """Group the changed files into series and patches, deterministically.
    root: the tree, to tell a driver folder from a folder of drivers;
    cleanups: False leaves the leaf -ENOIOCTLCMD -> -ENOTTY changes out
    (see cleanup_changes for what was left out)."""
    has_subfolders = subfolder_probe(root)
    series: dict[tuple[str, ...], SeriesPlan] = {}
    homes: dict[tuple[str, ...], list[tuple[int, str, Section | None]]] = {}
    patches: dict[tuple[tuple[str, ...], str], PatchPlan] = {}
    tidy: dict[tuple[str, ...], list[FileChange]] = {}
    for whole in sorted(changes, key=lambda c: c.path):
        change, cleanup = _split_change(whole)
        found = maint.matches(whole.path) if maint else []
        sub_sec: Section | None = None
        if found:
            best = found[0]
            sub = subsystem_section(found)
            sub_sec = sub.section
            name, subsystem, depth = sub.section.slug, sub.section.title, sub.depth
            key_s = _series_key(sub.section)
            if key_s[0] == "list":
                # netdev applies each driver's patches after its own
                # maintainers' review: one series per driver section, so
                # no mail goes to maintainers of the other drivers
                real = [m for m in found if m.depth >= 0] or found
                own = next((m.section for m in real if m.section.maintained), sub.section)
                key_s = key_s + (own.title,)
            if best.section is not sub.section:
                pat = best.pattern
                whole_folder = pat is not None and (pat.recursive or pat.raw.endswith("/*"))
                if pat is not None and whole_folder:
                    driver = posixpath.basename(pat.directory) or best.section.slug
                else:
                    driver = _stem(whole.path)
                key, section = "section:" + best.section.title, best.section.title
            elif best.pattern is not None and best.pattern.recursive:
                key, driver = _unit_below(whole.path, best.pattern.directory, has_subfolders)
                section = best.section.title
            else:
                # a file or one-level glob pattern (fs/*): each file is a driver
                key, driver = _unit_below(whole.path, posixpath.dirname(whole.path), has_subfolders)
                section = best.section.title
        else:
            name, subsystem = _path_series(whole.path)
            depth, key_s = 0, ("path", name)
            key, driver = _unit_below(whole.path, subsystem if subsystem != "." else "", has_subfolders)
            section = ""
        if is_media(whole.path):
            name, subsystem = MEDIA_SERIES, "MEDIA INPUT INFRASTRUCTURE (V4L/DVB)" if maint else "media"
            depth, key_s = -1, ("media",)
        ser = series.setdefault(key_s, SeriesPlan(name, subsystem))
        homes.setdefault(key_s, []).append((depth, name, sub_sec))
        if cleanup is not None and cleanups:
            tidy.setdefault(key_s, []).append(cleanup)
        if change is None:
            continue
        patch = patches.get((key_s, key))
        if patch is None:
            patch = patches[(key_s, key)] = PatchPlan(key, driver, section)
            ser.patches.append(patch)
        patch.files.append(change)
    documented: set[str] = set()
    for key_s, ser in series.items():
        _name_series(ser, homes[key_s])
        if key_s[0] == "list" and len(key_s) == 3 and ser.name != MEDIA_SERIES:
            ser.name, ser.subsystem = slugify(key_s[2]), key_s[2]
        ser.patches.sort(key=lambda p: p.paths[0])
        for patch in ser.patches:
            for edit, diff in doc_updates.doc_changes(root, patch.paths):
                if edit.doc not in documented:
                    documented.add(edit.doc)
                    patch.docs.append(FileChange(edit.doc, diff, ()))
        if tidy.get(key_s):
            # section: the series' subsystem, which names the cleanup's scope
            ser.patches.append(PatchPlan("cleanup", "cleanup", ser.subsystem, tidy[key_s], cleanup=True))
    kept = [s for s in series.values() if s.patches]
    _unique_names(kept)
    return sorted(kept, key=lambda s: s.name)


def _name_series(ser: SeriesPlan, homes: list[tuple[int, str, Section | None]]) -> None:
    """Name, subsystem, lists, trees and tag after the broadest subsystem of
    the series (the media series keeps its fixed name)."""
    counts: dict[str, int] = {}
    for _, name, _sec in homes:
        counts[name] = counts.get(name, 0) + 1
    depth, name, sec = min(homes, key=lambda h: (h[0], -counts[h[1]], h[1]))
    if ser.name != MEDIA_SERIES:
        ser.name = name
        ser.subsystem = sec.title if sec is not None else ser.subsystem
    lists: list[str] = []
    for _, _, other in sorted(homes, key=lambda h: (h[0], h[1])):
        for address in lists_of(other) if other is not None else ():
            if address not in lists:
                lists.append(address)
    ser.lists = tuple(lists)
    ser.trees = tuple(sec.values("T")) if sec is not None else ()
    ser.tree_tag = tree_tag(ser.lists, ser.trees) if ser.name != MEDIA_SERIES else ""


def _unique_names(plans: list[SeriesPlan]) -> None:
    """Two series of one name (a tree split over same-titled sections)
    get -2, -3 in path order."""
    seen: dict[str, int] = {}
    for ser in sorted(plans, key=lambda s: (s.name, s.patches[0].paths[0])):
        seen[ser.name] = seen.get(ser.name, 0) + 1
        if seen[ser.name] > 1:
            ser.name = f"{ser.name}-{seen[ser.name]}"


def kept_changes(diffs: Mapping[str, str], labelled: Iterable[Site],
                 left_out: Mapping[Site, str]) -> list[FileChange]:
    """Each file's diff without the hunks of the sites left out."""
    by_file: dict[str, list[Site]] = {}
    for site in labelled:
        by_file.setdefault(site.file, []).append(site)
    changes = []
    for path in sorted(diffs):
        keep = tuple(s for s in by_file.get(path, ()) if s not in left_out)
        diff = diffs[path]
        dropped = {s.line for s in by_file.get(path, ()) if s in left_out}
        # the function ioctl_valid_first adds goes before its handler, in a
        # hunk of its own: it goes with its site
        dropped |= {h.old_start for s in by_file.get(path, ()) if s in left_out and s.rule == VALID_FIRST
                    for h in _parse_hunks(diff)[1]
                    if f"+static bool {s.function}_valid(" in "".join(h.body)}
        if dropped:
            diff = split_hunks(diff, dropped)[0] if keep else ""
        if diff:
            changes.append(FileChange(path, diff, keep))
    return changes


def cleanup_changes(changes: list[FileChange]) -> list[FileChange]:
    """The leaf cleanup part of each change (what cleanups=False leaves out)."""
    return [c for c in (_split_change(ch)[1] for ch in changes) if c is not None]


def label_sites(plans: list[SeriesPlan]) -> list[Site]:
    """Every site with its subsystem and series filled in, for sites.tsv."""
    out = []
    for ser in plans:
        for patch in ser.patches:
            for site in patch.sites:
                out.append(dataclasses.replace(site, subsystem=ser.subsystem, series=ser.name))
    return out
