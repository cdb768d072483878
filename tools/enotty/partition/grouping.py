"""The partition stage: the analysed changes as series, one per subsystem
(MAINTAINERS sections, maintainers.py), a patch per driver (split.py)
with the comments that state a converted handler's old answer updated
(comment_updates.py) and what the source around each site says
(source_facts.py),
each patch with its subject prefix and the commit the series apply to
(prefixes.py: read once from the tree's git history)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import comment_updates, kept_answers, prefixes, source_facts, split
from ..judge import handlers
from .maintainers import Maintainers
from ..judge.analysis import Analysed


@dataclass(frozen=True)
class Grouped:
    """The changes as series: one per subsystem, a patch per driver."""
    analysed: Analysed
    plans: tuple[split.SeriesPlan, ...]
    left_cleanups: tuple[split.FileChange, ...]   # leaf cleanups CLEANUP=1 would add
    has_maintainers: bool                          # split by MAINTAINERS, not by path
    prefixes: tuple[tuple[str, ...], ...] = ()     # per plan, per patch: `watchdog: softdog:`
    base: str | None = None                        # the commit the series apply to (a clean git checkout)


def group(root: Path, analysed: Analysed, cleanups: bool = False) -> Grouped:
    """The kept changes of the tree at root as series (its MAINTAINERS
    sections, else its paths), a patch per driver, with subject prefixes;
    leaf cleanups in them only with cleanups."""
    maint = Maintainers.load(root)
    # each file's diff without the hunks of the sites left out
    changes = split.kept_changes(analysed.scanned.diffs, analysed.labelled, analysed.left_out)
    plans = split.plan(changes, maint, root, cleanups=cleanups)
    # the known commands a program reads the old answer for keep it
    plans = kept_answers.revise(root, plans, handlers.kept_answers(analysed.model))
    # a comment that states a converted handler's old answer changes with it
    plans = comment_updates.revise(root, plans)
    plans = source_facts.annotate(root, plans)
    left_cleanups = [] if cleanups else split.cleanup_changes(changes)
    git = prefixes.is_git_checkout(root)
    names = tuple(tuple(prefixes.distinct_prefixes(
        [prefixes.patch_prefix(root, pp.paths, pp.section, git=git) for pp in plan.patches],
        [pp.driver for pp in plan.patches])) for plan in plans)
    return Grouped(analysed, tuple(plans), tuple(left_cleanups), maint is not None, names,
                   prefixes.base_commit(root))
