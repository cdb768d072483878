"""doc_updates: documentation hunks that travel with a patch."""
from __future__ import annotations

import subprocess
from pathlib import Path

from . import doc_updates, split
from ..find.sites import Site

EDIT = doc_updates.GPIO_ERRORS
# The 6.12 list around the place the edit changes (error-codes.rst)
DOC_TEXT = (".. flat-table:: Common GPIO error codes\n\n"
            "    -  -  ``ENODEV``\n\n"
            "       -  Device not found or was removed.\n\n"
            + EDIT.old +
            "    -  -  ``EPERM``\n\n"
            "       -  Permission denied.\n")


def tree_with_doc(root: Path, text: str = DOC_TEXT) -> Path:
    path = root / EDIT.doc
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return root


def test_the_diff_applies_and_gives_the_new_text(tmp_path: Path) -> None:
    root = tree_with_doc(tmp_path / "tree")
    diff = doc_updates.applied(root, EDIT)
    assert diff.startswith(f"--- a/{EDIT.doc}\n+++ b/{EDIT.doc}\n@@ ")
    assert "+    -  -  ``ENOTTY``\n" in diff and "\n-" not in diff.split("@@", 2)[2]
    subprocess.run(["git", "apply", "-"], cwd=root, input=diff, text=True, check=True)
    assert (root / EDIT.doc).read_text() == DOC_TEXT.replace(EDIT.old, EDIT.new)
    assert "ENOTTY" not in DOC_TEXT


def test_another_text_or_no_file_is_no_edit(tmp_path: Path) -> None:
    assert doc_updates.applied(tmp_path, EDIT) == ""
    changed = tree_with_doc(tmp_path / "other", DOC_TEXT.replace("desired operation", "operation"))
    assert doc_updates.applied(changed, EDIT) == ""
    twice = tree_with_doc(tmp_path / "twice", DOC_TEXT + EDIT.old)
    assert doc_updates.applied(twice, EDIT) == ""


def test_doc_changes_follow_the_patched_sources(tmp_path: Path) -> None:
    root = tree_with_doc(tmp_path)
    assert doc_updates.doc_changes(root, ["drivers/gpio/gpio-mockup.c"]) == []
    assert doc_updates.doc_changes(None, [EDIT.source]) == []
    ((edit, diff),) = doc_updates.doc_changes(root, [EDIT.source, "x.c"])
    assert edit is EDIT and diff
    assert doc_updates.notes([EDIT.doc]) == [EDIT.says]
    assert doc_updates.notes(["Documentation/other.rst"]) == []


def test_split_puts_the_doc_hunk_into_the_patch_of_its_source(tmp_path: Path) -> None:
    root = tree_with_doc(tmp_path)

    def change(path: str) -> split.FileChange:
        site = Site(path, 10, "f_ioctl", "file_operations.unlocked_ioctl", "EINVAL", "ENOTTY",
                    "ioctl_default_return")
        return split.FileChange(path, f"--- a/{path}\n+++ b/{path}\n@@ -10 +10 @@\n-a\n+b\n", (site,))

    (ser,) = split.plan([change(EDIT.source), change("drivers/gpio/other.c")], None, root)
    carrying = [p for p in ser.patches if p.docs]
    assert [p.paths for p in carrying] == [[EDIT.source]]
    patch = carrying[0]
    # the C files decide prefix, build and the rules' rerun; the diff has both
    assert EDIT.doc not in patch.paths
    assert patch.diff.index(f"+++ b/{EDIT.doc}") > patch.diff.index(f"+++ b/{EDIT.source}")
    # without a tree, no edit is guessed
    (bare,) = split.plan([change(EDIT.source)], None, None)
    assert all(not p.docs for p in bare.patches)


def test_every_edit_matches_the_unpacked_612_tree() -> None:
    import pytest
    from ..kernel import tree
    root = tree.cache_dir() / "src" / tree.PINNED_PACKAGE
    if not (root / "MAINTAINERS").is_file():
        pytest.skip("no unpacked linux-source-6.12")
    for edit in doc_updates.EDITS:
        assert (root / edit.source).is_file(), edit.source
        assert doc_updates.applied(root, edit), f"{edit.doc}: the old text is not there once"
