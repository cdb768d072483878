"""MAINTAINERS parsing and file-to-section matching, as get_maintainer.pl does it.

Pattern semantics follow scripts/get_maintainer.pl (read_maintainer_file,
file_match_pattern and the --pattern-depth bookkeeping):

- F:/X: patterns: `.` is literal, `*` is `.*`, `?` is `.`, `[..]` classes pass
  through; a pattern naming an existing directory gets a trailing slash.
- A pattern ending in `/` matches every file below it (recursively); any other
  pattern matches only files with the same number of `/` (one level).
- X: in a section excludes the file from that section whatever its F: say.
- N: is a regular expression searched in the path (depth 0).
- The depth of a match is the pattern's `/` count, plus one unless it ends in
  `/`; patterns starting with `*` (THE REST) have depth -1.

The most specific section is the one with the deepest match.  Where
get_maintainer keeps the depth of the *last* matching F: line of a section, we
keep the deepest one, which is what "most specific" means.  Ties go to the
section that has a maintainer and is not Orphan/Obsolete, then to the pattern
with the longer literal start, then to the longer pattern, then to the section with fewer F: lines (the narrower one:
STAGING - ATOMISP DRIVER rather than INTEL MID PLATFORM, which lists the same
folder among many), then to the first in file order.  K: keywords match patch text, not paths: get_maintainer.pl uses
them for recipients; they take no part in the split.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

TAG = re.compile(r"^([A-Z]):\s*(.*?)\s*$")
_META = re.compile(r"[.*?\[\]]")


@dataclass(frozen=True)
class Pattern:
    raw: str
    regex: re.Pattern[str]
    recursive: bool          # ends in '/': matches files at any depth below
    depth: int               # get_maintainer's pattern depth
    slashes: int             # '/' count of the converted pattern

    def matches(self, path: str) -> bool:
        if not self.regex.match(path):
            return False
        return self.recursive or path.count("/") == self.slashes

    @property
    def literal_length(self) -> int:
        """Characters before the first wildcard: drivers/block/xen* (14) is
        more specific than drivers/*/xen-*front.c (8)."""
        cut = _META.search(self.raw)
        return cut.start() if cut else len(self.raw)

    @property
    def directory(self) -> str:
        """The literal folder the pattern lives in ('' at the top)."""
        cut = _META.search(self.raw)
        literal = self.raw[:cut.start()] if cut else self.raw
        return literal[:literal.rfind("/")] if "/" in literal else ""


@dataclass
class Section:
    title: str
    index: int
    tags: dict[str, list[str]] = field(default_factory=dict)
    files: list[Pattern] = field(default_factory=list)
    excludes: list[Pattern] = field(default_factory=list)
    regexes: list[re.Pattern[str]] = field(default_factory=list)

    def values(self, tag: str) -> list[str]:
        return self.tags.get(tag, [])

    @property
    def status(self) -> str:
        return (self.values("S") or [""])[0]

    @property
    def maintained(self) -> bool:
        return bool(self.values("M")) and self.status.lower() not in ("orphan", "obsolete")

    @property
    def slug(self) -> str:
        return slugify(self.title)


@dataclass(frozen=True)
class Match:
    section: Section
    depth: int
    pattern: Pattern | None   # None for an N: match


def slugify(text: str) -> str:
    """watchdog-device-drivers from WATCHDOG DEVICE DRIVERS."""
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug or "unnamed"


def convert_pattern(raw: str, root: Path | None) -> Pattern:
    """get_maintainer.pl's glob-to-regex conversion of one F:/X: value."""
    value = raw.replace(".", r"\.").replace("*", ".*").replace("?", ".")
    if not value.endswith("/") and root is not None and (root / raw).is_dir():
        value += "/"
    recursive = value.endswith("/")
    slashes = value.count("/")
    depth = slashes + (0 if recursive else 1)
    if value.startswith(".*"):
        depth = -1
    try:
        regex = re.compile(value)
    except re.error:
        regex = re.compile(re.escape(raw))
    return Pattern(raw if not recursive or raw.endswith("/") else raw + "/", regex, recursive, depth, slashes)


def parse(text: str, root: Path | None = None) -> list[Section]:
    """Sections of a MAINTAINERS text; root makes `F: dir` (no slash) recursive."""
    sections: list[Section] = []
    for block in re.split(r"\n\s*\n", text):
        lines = [ln for ln in block.splitlines() if ln.strip()]
        if len(lines) < 2 or TAG.match(lines[0]):
            continue
        tagged = [TAG.match(ln) for ln in lines[1:]]
        if not all(tagged):
            continue
        sec = Section(title=lines[0].strip(), index=len(sections))
        for m in tagged:
            assert m is not None
            tag, value = m.group(1), m.group(2)
            sec.tags.setdefault(tag, []).append(value)
            if tag == "F":
                sec.files.append(convert_pattern(value, root))
            elif tag == "X":
                sec.excludes.append(convert_pattern(value, root))
            elif tag == "N":
                try:
                    sec.regexes.append(re.compile(value, re.X))
                except re.error:
                    pass
        sections.append(sec)
    return sections


def _literal_prefix(pattern: Pattern) -> tuple[str, ...]:
    """Up to two leading path components free of wildcards (for bucketing)."""
    raw = pattern.raw
    cut = _META.search(raw)
    literal = raw[:cut.start()] if cut else raw
    parts = literal.split("/")
    full = parts[:-1]  # the last piece may be a partial name
    return tuple(full[:2])


class Maintainers:
    """A parsed MAINTAINERS file with a fast most-specific-section lookup."""

    def __init__(self, sections: list[Section]):
        self.sections = sections
        self._buckets: dict[tuple[str, ...], list[tuple[Section, Pattern]]] = {}
        for sec in sections:
            for pat in sec.files:
                self._buckets.setdefault(_literal_prefix(pat), []).append((sec, pat))
        self._regex_sections = [s for s in sections if s.regexes]

    @classmethod
    def load(cls, root: Path) -> "Maintainers | None":
        path = root / "MAINTAINERS"
        if not path.is_file():
            return None
        return cls(parse(path.read_text(errors="replace"), root))

    def matches(self, path: str) -> list[Match]:
        """Every section that covers path, deepest first (ties: see module doc)."""
        parts = path.split("/")
        best: dict[int, Match] = {}
        for key in ((), tuple(parts[:1]), tuple(parts[:2])):
            if len(key) >= len(parts):
                continue
            for sec, pat in self._buckets.get(key, ()):
                if not pat.matches(path):
                    continue
                old = best.get(sec.index)
                if old is None or pat.depth > old.depth:
                    best[sec.index] = Match(sec, pat.depth, pat)
        for sec in self._regex_sections:
            if sec.index not in best and any(r.search(path) for r in sec.regexes):
                best[sec.index] = Match(sec, 0, None)
        found = [m for m in best.values()
                 if not any(x.matches(path) for x in m.section.excludes)]
        found.sort(key=lambda m: (-m.depth, not m.section.maintained,
                                  -m.pattern.literal_length if m.pattern else 0,
                                  -len(m.pattern.raw) if m.pattern else 0,
                                  len(m.section.files), m.section.index))
        return found

    def best(self, path: str) -> Match | None:
        found = self.matches(path)
        return found[0] if found else None


def perl_env() -> dict[str, str]:
    """Perl with a fixed hash order: get_maintainer.pl lists sections of equal
    depth in hash order, which Perl randomises per process; the output must be
    the same on every run."""
    return dict(os.environ, PERL_HASH_SEED="0", PERL_PERTURB_KEYS="0")
