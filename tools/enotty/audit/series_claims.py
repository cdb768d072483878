"""The committed series of one kernel version and what they claim per file."""
from __future__ import annotations

import csv
import io
from pathlib import Path

from ..errors import UsageError
from ..kernel.worktree import series_patches, touched_files
from .compare import Claim


def discover(root: Path) -> dict[str, list[Path]]:
    """series name -> its patch files, for every folder of root holding any."""
    if not root.is_dir():
        raise UsageError(f"{root} does not exist (run `make patches` first)")
    out = {}
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        if any(folder.glob("[0-9][0-9][0-9][0-9]-*.patch")):
            try:
                out[folder.name] = series_patches(folder)
            except UsageError:
                continue
    if not out:
        raise UsageError(f"{root} holds no series (folders with NNNN-*.patch files)")
    return out


def select(root: Path, name: str) -> dict[str, list[Path]]:
    """SERIES=all or one series; a bad name or an empty folder is an error."""
    if name == "all":
        return discover(root)
    folder = root / name
    if "/" in name or name in (".", ".."):
        raise UsageError(f"SERIES={name}: a series is a folder name under {root}")
    if not folder.is_dir():
        count = len(discover(root)) if root.is_dir() else 0
        raise UsageError(f"unknown series {name!r}: no folder {folder} "
                         f"({count} series there; SERIES=all takes every one)")
    return {name: series_patches(folder)}


def read_sites(root: Path) -> dict[str, list[dict[str, str]]]:
    """file -> its sites.tsv records (function, from, to, ...); {} without one."""
    path = root / "sites.tsv"
    if not path.is_file():
        return {}
    out: dict[str, list[dict[str, str]]] = {}
    for rec in csv.DictReader(io.StringIO(path.read_text()), delimiter="\t"):
        out.setdefault(rec["file"], []).append(rec)
    return out


def unapplied(root: Path, claims: dict[str, Claim]) -> dict[str, str]:
    """source -> the series that converts it, for the files of sites.tsv a
    series of the output converts but this run does not apply (`make audit
    SERIES=...`): their answers are unchanged on purpose."""
    out = {}
    for source, recs in read_sites(root).items():
        series = next((r["series"] for r in recs if r.get("series", "-") != "-"), None)
        if series and source not in claims:
            out[source] = series
    return out


def is_leaf_cleanup(rec: dict[str, str]) -> bool:
    """-ENOIOCTLCMD -> -ENOTTY: the VFS already turned the first into the
    second, so the patch claims no user-visible change."""
    return rec.get("from") == "ENOIOCTLCMD" and rec.get("to") == "ENOTTY"


def claims_visible(rec: dict[str, str]) -> bool:
    """Whether the patch says user space sees this site change: the effect
    column `visible` where sites.tsv has it (invisible: a leaf cleanup;
    unreachable: no unknown command gets there), else the leaf rule."""
    visible = rec.get("visible")
    if visible:
        return visible not in ("invisible", "unreachable")
    return not is_leaf_cleanup(rec)


def claims(root: Path, series: dict[str, list[Path]]) -> dict[str, Claim]:
    """source -> what its patch claims, for the C files the series touch."""
    sites = read_sites(root)
    out: dict[str, Claim] = {}
    for name, patches in series.items():
        for patch in patches:
            rel = f"{name}/{patch.name}"
            for source in touched_files(patch.read_text(errors="replace")):
                # user-space code the series carries (the media kselftest)
                # is no handler: nothing to reach in the guest
                if not source.endswith(".c") or source.startswith("tools/"):
                    continue
                # the sites this series converts: a handler the judge left
                # out (its series is '-') keeps its answer in the same file
                recs = [r for r in sites.get(source, []) if r.get("series") != "-"]
                visible = any(claims_visible(r) for r in recs) if recs else True
                entries = [e for r in recs if r.get("entry", "-") != "-" for e in r["entry"].split(",")]
                claim = Claim(source=source, patch=rel, series=name,
                              functions=tuple(dict.fromkeys([r["function"] for r in recs] + entries)),
                              visible=visible,
                              old=tuple(sorted({r["from"] for r in recs if claims_visible(r)})),
                              conditional=any(r.get("reach") in ("partly", "no-operation")
                                              for r in recs if claims_visible(r)))
                # A file two patches touch: the claim of a visible change wins.
                if source not in out or (visible and not out[source].visible):
                    out[source] = claim
    return out
