"""The QEMU runner's work tree: enotty.kernel.worktree under the runner's old names.

The work tree is a hard-link copy of the user's tree (cache/qemu/tree) that
gets the patch set of a run (pristine, media series, mutant) by content;
enotty.kernel.worktree does all of it.  These names stay for the runner until it
calls enotty.kernel.worktree.WorkTree directly.
"""
from __future__ import annotations

from pathlib import Path

from enotty.kernel.worktree import (WorkTree, patched_contents, replace_file, series_patches,
                                    touched_files)

__all__ = ["apply_patch_set", "ensure_work_tree", "replace_file", "series_patches",
           "touched_files", "wanted_contents"]


def ensure_work_tree(source: Path, work: Path) -> bool:
    """Hard-link copy of source at work; True when it was (re)created."""
    return WorkTree(source, work).ensure()


def wanted_contents(source: Path, files: list[str], patches: list[Path]) -> dict[str, bytes | None]:
    """Content of each file after applying patches to source (None: absent)."""
    got = patched_contents(source, patches, files)
    return {rel: got[rel] for rel in files}


def apply_patch_set(source: Path, work: Path, patches: list[Path], state: Path) -> list[str]:
    """Make work == source + patches by content; the files rewritten.

    state: the manifest, listing the paths that may differ from source.
    """
    return WorkTree(source, work, manifest_path=state).apply(patches)
