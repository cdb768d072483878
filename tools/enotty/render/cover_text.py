"""The cover letter's sentences about what a series changes, from typed facts.

Drivers are named as kbuild names them: the module each changed file is
built into (the handler model's Handler.module, kconfig.module_name), never
a piece of a path or of a subject prefix.  Each errno is named as the
series changes it: a driver that answered -ENOSYS is not told why -EINVAL
is wrong.  Sentences are built for one driver, two, or many, and for one
handler or several.  The semantic patch's sentence says how many of the
series' exits it reports (render.rule_reach), not what it would catch.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import AbstractSet, Iterable, Mapping

from ..find.sites import Site
from ..judge import handlers
from . import messages
from .companions import RULE_PATH


@dataclass(frozen=True)
class Driver:
    """One module a series changes: its handlers' old and new answers."""
    name: str
    handlers: int                 # distinct handlers (entries user space calls) changed
    froms: tuple[str, ...]        # errnos answered before, sorted (EINVAL, ENOSYS)
    tos: tuple[str, ...]          # errnos answered after (ENOIOCTLCMD, ENOTTY)
    # handlers of the module the series leaves as they are, (name, why)
    # (handlers.kept_in_modules: userfaultfd_ioctl(), rust_binder's Rust one)
    kept: tuple[tuple[str, str], ...] = ()
    # its changes are guards in functions that already answer the other
    # unknown commands -ENOIOCTLCMD (luo: a number outside the table)
    partial: bool = False
    # the handlers' function names, in the order the sites first name them
    names: tuple[str, ...] = ()

    @property
    def answering(self) -> tuple[tuple[str, ...], bool]:
        return self.froms, self.partial


# Why each old answer is wrong, said once per errno the series changes.
WHY = {
    "EINVAL": ("-EINVAL tells user space that the command exists and an argument is wrong,"
               " so a program cannot tell a missing feature from a bad call."),
    "ENOSYS": ("-ENOSYS means that a system call does not exist (checkpatch: \"ENOSYS means"
               " 'invalid syscall nr' and nothing else\")."),
}
# any other old answer (-EBADRQC, -EOPNOTSUPP)
WHY_OTHER = ("ioctl(2) documents ENOTTY for a request that does not apply to the file"
             " descriptor; a program that checks errno for it does not recognise {errno}.")
CORE = ("Where the core tries another handler next, the handler returns -ENOIOCTLCMD,"
        " which the core turns into ENOTTY when nothing else knows the command.")


def drivers(sites: Iterable[Site], module_of: Mapping[str, str],
            kept: Mapping[str, Iterable[tuple[str, str]]] | None = None,
            partial_files: AbstractSet[str] = frozenset()) -> list[Driver]:
    """The modules of sites in the order they first appear; a file the
    handler model does not name goes by its file name; kept: module ->
    the (name, why) of its handlers the series leaves; partial_files: the
    files whose every change is such a guard."""
    kept = kept or {}
    order: dict[str, list[Site]] = {}
    for s in sites:
        order.setdefault(module_of.get(s.file) or _stem(s.file), []).append(s)
    return [Driver(name, len({(s.file, handlers.handler_of(s)) for s in mine}),
                   tuple(sorted({s.from_ for s in mine})), tuple(sorted({s.to for s in mine})),
                   tuple(kept.get(name, ())), all(s.file in partial_files for s in mine),
                   # every entry (sunrpc's cache_ioctl() has cache_ioctl_procfs() and _pipefs())
                   tuple(dict.fromkeys(n for s in mine for n in messages.entries(s))))
            for name, mine in order.items()]


def _stem(path: str) -> str:
    return path.rsplit("/", 1)[-1].rsplit(".", 1)[0]


def join(words: list[str], conj: str = "and") -> str:
    """'a', 'a and b', 'a, b and c'."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {conj} " + words[-1]


def errnos(names: Iterable[str], conj: str = "or") -> str:
    return join([f"-{n}" for n in names], conj)


def _groups(found: list[Driver], attr: str) -> list[tuple[tuple[str, ...], list[Driver]]]:
    """Drivers by their old (attr='froms') or new answers, the largest group first."""
    out: dict[tuple[str, ...], list[Driver]] = {}
    for d in found:
        out.setdefault(getattr(d, attr), []).append(d)
    return sorted(out.items(), key=lambda kv: -len(kv[1]))


def _several(group: list[Driver]) -> bool:
    return len(group) > 1 or group[0].handlers > 1


def old_answers(found: list[Driver]) -> str:
    """'The ioctl handlers of A and B answer a command they do not know
    with -EINVAL, and that of C with -ENOSYS.'; 'some commands' where
    every change is a guard whose function answers the rest already."""
    ((first, partial), lead), *rest = _groups(found, "answering")
    many = _several(lead)
    which = "some commands" if partial else "a command"
    # one module's few handlers are named: "the handlers of xe" would
    # claim all of xe's, where the series changes its two stream files
    named = len(found) == 1 and 1 < len(found[0].names) <= 3
    subject = (f"{join([f'{n}()' for n in found[0].names])} of {found[0].name}" if named else
               f"The ioctl handler{'s' if many else ''} of {join([d.name for d in lead])}")
    text = (f"{subject} {'answer' if many else 'answers'} {which} {'they do' if many else 'it does'}"
            f" not know with {errnos(first)}")
    others = [f"{'those' if _several(group) else 'that'} of {join([d.name for d in group])}"
              f"{' (for some commands)' if part else ''} with {errnos(froms)}"
              for (froms, part), group in rest]
    if others:
        text += (", and " if len(others) == 1 else ", ") + join(others)
    return text + "."


def new_answers(found: list[Driver]) -> str:
    """'This series makes them return -ENOTTY' or, where drivers get
    different answers, 'This series makes A and B return -ENOTTY and C
    -ENOIOCTLCMD', then the document that asks for it."""
    groups = _groups(found, "tos")
    left = [name for d in found for name, _why in d.kept]
    if len(groups) == 1 and left:
        # mm: userfaultfd_ioctl() stays; android: rust_binder's Rust handler
        text = f"This series makes all of them but {join(left)} return {errnos(groups[0][0])}"
    elif len(groups) == 1:
        them = "them" if len(found) > 1 or found[0].handlers > 1 else "it"
        text = f"This series makes {them} return {errnos(groups[0][0])}"
    else:
        parts = [f"{join([d.name for d in group])}{' return' if i == 0 else ''} {errnos(tos)}"
                 for i, (tos, group) in enumerate(groups)]
        text = "This series makes " + join(parts)
        if left:
            text += f" (all their handlers but {join(left)})"
    return text + f", as {messages.DOC} asks."


def why(found: list[Driver]) -> list[str]:
    """One sentence per old answer the series changes, then the core's
    part where a handler now returns -ENOIOCTLCMD."""
    froms = sorted({f for d in found for f in d.froms}, key=lambda e: (e not in WHY, e))
    out = [WHY[e] for e in froms if e in WHY]
    others = [f"-{e}" for e in froms if e not in WHY]
    if others:   # one sentence for them all, not one each (media: -ENOTSUPP and -EOPNOTSUPP)
        out.append(WHY_OTHER.format(errno=" or ".join(others)))
    if any("ENOIOCTLCMD" in d.tos for d in found):
        out.append(CORE)
    return out


def kept_sentences(found: list[Driver]) -> list[str]:
    """Why each handler of the series' modules that it leaves keeps its answer."""
    return [f"{why}." for d in found for _name, why in d.kept]


def opening(found: list[Driver]) -> str:
    """The cover letter's first paragraph: the old answers, the new ones
    (and the handlers of those modules that keep theirs), why, and where
    the patches say more."""
    return " ".join([old_answers(found), new_answers(found), *kept_sentences(found), *why(found),
                     "Each patch says which callers see the change."])


def rule_sentence(reported: int, total: int) -> str:
    """What the semantic patch sent upstream reports of this series' exits
    (total: the exits the series changes, reported: those it reports);
    '' without exits.  "Found with Coccinelle" only where it reports them
    all (a reviewer: it contradicted "reports none of the 4 exits")."""
    if total <= 0:
        return ""
    if total == 1:
        count = "reports the one exit" if reported else "does not report the one exit"
    elif reported == 0:
        count = f"reports none of the {total} exits"
    elif reported == total:
        count = "reports both exits" if total == 2 else f"reports all {total} exits"
    else:
        count = f"reports {reported} of the {total} exits"
    found = "The handlers were found with Coccinelle. " if reported == total else ""
    return (f"{found}The semantic patch sent separately as {RULE_PATH}"
            f" {count} this series changes, run on the files before the change.")
