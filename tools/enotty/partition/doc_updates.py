"""Documentation that states an answer a series changes, updated in the same patch.

A subsystem's user-space documentation may list the errors its ioctls
return.  When a patch makes a handler answer ENOTTY where it answered
EINVAL, a maintainer asks for that list to change in the same patch.  No
semantic patch can write prose, so the edits are a committed table, kept
apart from the Coccinelle rules: for each, the C file whose patch carries
it, the documentation file, the exact text it replaces (which must occur
once, or the edit is left out: another kernel's text is not guessed at),
the new text, and the sentence the commit message says about it.

enotty.partition.split adds an edit's hunk to the patch of its C file (doc_changes);
enotty.render.messages says the sentence (notes).  A .rst hunk is no C file:
the build and the rules' second run skip it, checkpatch reads it.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class DocEdit:
    source: str       # the C file whose patch carries the edit
    doc: str          # the documentation file, relative to the tree
    old: str          # the text replaced; must occur exactly once
    new: str          # its replacement
    says: str         # the commit message's sentence about the edit


# gpiolib-cdev.c: gpio_ioctl(), linehandle_ioctl(), lineevent_ioctl() and
# linereq_ioctl() answer ENOTTY for a command of another kind of GPIO file
# descriptor, and gpio_ioctl() for the v1 commands when
# CONFIG_GPIO_CDEV_V1 is off; the common error list had no ENOTTY.
GPIO_ERRORS = DocEdit(
    source="drivers/gpio/gpiolib-cdev.c",
    doc="Documentation/userspace-api/gpio/error-codes.rst",
    old=("    -  -  ``ENOMEM``\n"
         "\n"
         "       -  There's not enough memory to handle the desired operation.\n"
         "\n"),
    new=("    -  -  ``ENOMEM``\n"
         "\n"
         "       -  There's not enough memory to handle the desired operation.\n"
         "\n"
         "    -  -  ``ENOTTY``\n"
         "\n"
         "       -  The ioctl is not supported by the file descriptor, e.g. a line\n"
         "          request ioctl on a chip file descriptor, or an ioctl of the v1\n"
         "          API when it is not built in (``CONFIG_GPIO_CDEV_V1``).\n"
         "\n"),
    says=("Documentation/userspace-api/gpio/error-codes.rst, the list of common GPIO "
          "error codes, gets ENOTTY: an ioctl the file descriptor does not support."),
)

EDITS: tuple[DocEdit, ...] = (GPIO_ERRORS,)


def unified_diff(path: str, before: str, after: str) -> str:
    """A git-style diff of one file (a/ b/ headers, three lines of context)."""
    lines = difflib.unified_diff(before.splitlines(True), after.splitlines(True),
                                 f"a/{path}", f"b/{path}", n=3)
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                   for line in lines)


def applied(root: Path, edit: DocEdit) -> str:
    """The edit's diff against root's documentation file; '' when the file
    is missing or holds the old text other than exactly once."""
    path = root / edit.doc
    if not path.is_file():
        return ""
    text = path.read_text()
    if text.count(edit.old) != 1:
        return ""
    return unified_diff(edit.doc, text, text.replace(edit.old, edit.new))


def doc_changes(root: Path | None, sources: list[str],
                edits: tuple[DocEdit, ...] = EDITS) -> list[tuple[DocEdit, str]]:
    """(edit, diff) for the edits whose C file is among sources and whose old
    text root's documentation holds; none without a tree."""
    if root is None:
        return []
    out = []
    for edit in edits:
        if edit.source in sources:
            diff = applied(root, edit)
            if diff:
                out.append((edit, diff))
    return out


def notes(docs: list[str], edits: tuple[DocEdit, ...] = EDITS) -> list[str]:
    """The commit message's sentences for the documentation files a patch changes."""
    return [e.says for e in edits if e.doc in docs]
