"""Split the scan result into series (one per subsystem) of patches (one per driver).

Series: the subsystem is the most specific MAINTAINERS section covering the
file that names a tree (T:), climbing to a broader section while that one
names the same tree (a driver section living in the media tree belongs to the
media series).  THE REST only when nothing else covers the file.  The series
is named after the section title (WATCHDOG DEVICE DRIVERS ->
watchdog-device-drivers).  One exception: every file under drivers/media/,
drivers/staging/media/ and include/media/ is in the series `media` (the V4L2
slice the QEMU test applies).

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

Without MAINTAINERS (a plain folder of C files, or a tree without one) the
series is the file's first two path components and the patch unit is the
folder or file as above.  Series are not cut at ~15 patches: a maintainer can
take a longer mechanical series, and cutting would make the split depend on
the tree's size; SUMMARY.md shows the counts.
"""
from __future__ import annotations

import dataclasses
import posixpath
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .maintainers import Maintainers, Match, Section, slugify
from .sites import Site

MEDIA_SERIES = "media"
MEDIA_DIRS = ("drivers/media/", "drivers/staging/media/", "include/media/")


@dataclass(frozen=True)
class FileChange:
    """One file's part of the scan result."""
    path: str              # relative to the tree root
    diff: str              # unified diff with a/ b/ prefixes
    sites: tuple[Site, ...]


@dataclass
class PatchPlan:
    key: str               # the driver's identity inside its series
    driver: str            # short name for the subject (softdog, uvc)
    section: str           # most specific MAINTAINERS section ('' without one)
    files: list[FileChange] = field(default_factory=list)

    @property
    def sites(self) -> list[Site]:
        return [s for f in self.files for s in f.sites]

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

    @property
    def sites(self) -> list[Site]:
        return [s for p in self.patches for s in p.sites]


def is_media(path: str) -> bool:
    return path.startswith(MEDIA_DIRS)


def _stem(path: str) -> str:
    return posixpath.splitext(posixpath.basename(path))[0]


def _tree_of(sec: Section) -> str:
    trees = sec.values("T")
    return trees[0] if trees else ""


def subsystem_section(found: list[Match]) -> Match:
    """The match that stands for the subsystem (see module doc)."""
    real = [m for m in found if m.depth >= 0] or found
    chosen = next((m for m in real if _tree_of(m.section)), real[0])
    tree = _tree_of(chosen.section)
    if tree:
        for m in real[real.index(chosen) + 1:]:
            if _tree_of(m.section) == tree:
                chosen = m
    return chosen


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


def plan(changes: list[FileChange], maint: Maintainers | None,
         root: Path | None = None) -> list[SeriesPlan]:
    """Group the changed files into series and patches, deterministically.
    root: the tree, to tell a driver folder from a folder of drivers."""
    has_subfolders = subfolder_probe(root)
    series: dict[str, SeriesPlan] = {}
    patches: dict[tuple[str, str], PatchPlan] = {}
    for change in sorted(changes, key=lambda c: c.path):
        found = maint.matches(change.path) if maint else []
        if found:
            best = found[0]
            sub = subsystem_section(found)
            name, subsystem = sub.section.slug, sub.section.title
            if best.section is not sub.section:
                pat = best.pattern
                whole_folder = pat is not None and (pat.recursive or pat.raw.endswith("/*"))
                if pat is not None and whole_folder:
                    driver = posixpath.basename(pat.directory) or best.section.slug
                else:
                    driver = _stem(change.path)
                key, section = "section:" + best.section.title, best.section.title
            elif best.pattern is not None and best.pattern.recursive:
                key, driver = _unit_below(change.path, best.pattern.directory, has_subfolders)
                section = best.section.title
            else:
                # a file or one-level glob pattern (fs/*): each file is a driver
                key, driver = _unit_below(change.path, posixpath.dirname(change.path), has_subfolders)
                section = best.section.title
        else:
            name, subsystem = _path_series(change.path)
            key, driver = _unit_below(change.path, subsystem if subsystem != "." else "", has_subfolders)
            section = ""
        if is_media(change.path):
            name, subsystem = MEDIA_SERIES, "MEDIA INPUT INFRASTRUCTURE (V4L/DVB)" if maint else "media"
        ser = series.setdefault(name, SeriesPlan(name, subsystem))
        patch = patches.get((name, key))
        if patch is None:
            patch = patches[(name, key)] = PatchPlan(key, driver, section)
            ser.patches.append(patch)
        patch.files.append(change)
    for ser in series.values():
        ser.patches.sort(key=lambda p: p.paths[0])
    return [series[n] for n in sorted(series)]


def label_sites(plans: list[SeriesPlan]) -> list[Site]:
    """Every site with its subsystem and series filled in, for sites.tsv."""
    out = []
    for ser in plans:
        for patch in ser.patches:
            for site in patch.sites:
                out.append(dataclasses.replace(site, subsystem=ser.subsystem, series=ser.name))
    return out
