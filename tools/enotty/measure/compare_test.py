"""compare: each class computed from two fixture outputs and a fixture tree,
the answer reader on small functions, the command line, and the committed
outputs when both are there."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from . import compare
from .. import cli
from ..errors import UsageError
from ..find import csource
from ..kernel import tree as kernel_tree

DATA = Path(__file__).resolve().parents[1] / "testdata" / "compare"
OLD, NEW, TREE = DATA / "old", DATA / "new", DATA / "tree"


def classified(old_root: Path | None = None) -> dict[str, tuple[str, str]]:
    changes = compare.classify(compare.read_output(OLD), compare.read_output(NEW), TREE, old_root)
    return {c.handler: (c.kind, c.now) for c in changes}


def test_every_handler_of_the_older_output_in_one_class_and_the_new_ones() -> None:
    assert classified() == {
        "gone_ioctl": ("removed", "-"),            # its file is gone; a header only declares it
        "stay_ioctl": ("removed", "-"),            # the file stays, a comment names it
        "moved_ioctl": ("moved", "include/linux/moved.h"),      # a static inline in a header now
        "kept_ioctl": ("moved", "drivers/new/moved_kept.c"),    # and the newer output converts it there
        "enotty_ioctl": ("converted upstream", "ENOTTY"),
        "sock_ioctl": ("converted upstream", "ENOIOCTLCMD"),
        "forward_ioctl": ("converted upstream", "ENOTTY"),     # through a static inline helper in a header
        "helper_ioctl": ("converted upstream", "ENOTTY"),       # read in helper_do_ioctl(), where its site was
        "keep_ioctl": ("still needed", "keep"),
        "left_ioctl": ("still needed", "left out"),
        "split_ioctl": ("still needed", "keep"),   # the newer output names its entry split_unlocked_ioctl()
        "fresh_ioctl": ("new", "new"),
    }


def test_details_say_why() -> None:
    changes = compare.classify(compare.read_output(OLD), compare.read_output(NEW), TREE)
    detail = {c.handler: c.detail for c in changes}
    assert detail["gone_ioctl"] == "the file is gone in 7.2.13"
    assert detail["stay_ioctl"] == "the function (the file stays) is gone in 7.2.13"
    assert detail["moved_ioctl"] == "defined in include/linux/moved.h; no site there, answers default: -ENOTTY"
    assert detail["forward_ioctl"] == ("forward_ioctl(): default: hands it to forward_common_ioctl()"
                                       " (drivers/conv/forward.h), whose default: -ENOTTY")
    assert detail["left_ioctl"].endswith("expects EINVAL for an unknown command")
    assert detail["split_ioctl"] == "as split_unlocked_ioctl() in drivers/keep/split.c: converted in keep"


def test_a_namesake_the_older_tree_had_is_no_move(tmp_path: Path) -> None:
    """moved_ioctl() in a header that the older tree had too is another
    function of that name: the handler counts as removed."""
    header = tmp_path / "include" / "linux" / "moved.h"
    header.parent.mkdir(parents=True)
    shutil.copy(TREE / "include" / "linux" / "moved.h", header)
    assert classified(tmp_path)["moved_ioctl"] == ("removed", "-")
    header.write_text("long moved_ioctl(struct file *file, unsigned int cmd, unsigned long arg);\n")
    assert classified(tmp_path)["moved_ioctl"] == ("moved", "include/linux/moved.h")


@pytest.mark.parametrize("body, kind, how", [
    ("switch (cmd) {\ncase 1:\n\treturn 0;\ndefault:\n\t/* -EINVAL */\n\treturn -ENOTTY;\n}",
     "ENOTTY", "default: -ENOTTY"),
    ("switch (_IOC_NR(cmd)) {\ncase 1:\n\treturn 0;\ndefault:\n\tret = -ENOIOCTLCMD;\n\tbreak;\n}\nreturn ret;",
     "ENOIOCTLCMD", "default: -ENOIOCTLCMD"),
    ("if (cmd != FOO_GET)\n\treturn -ENOTTY;\nreturn foo_get(arg);", "ENOTTY", "a command test: -ENOTTY"),
    ("int ret = -EINVAL;\n\nswitch (cmd) {\ncase 1:\n\tret = foo(arg);\n\tbreak;\n}\nreturn ret;",
     "other", "ret before the switch: -EINVAL"),
    ("if (cmd == FOO_GET)\n\treturn foo_get(arg);\nreturn -ENOIOCTLCMD;", "ENOIOCTLCMD", "last return: -ENOIOCTLCMD"),
    ("switch (cmd) {\ncase 1:\n\treturn 0;\ndefault:\n\treturn foo_common(f, cmd, arg);\n}",
     "other", "default: hands it to foo_common()"),
    ("switch (cmd) {\ncase 1:\n\treturn 0;\ndefault:\n\treturn -EINVAL;\n}", "other", "default: -EINVAL"),
    # a word in capitals is no errno unless negated
    ("switch (cmd) {\ncase 1:\n\treturn 0;\ndefault:\n\tcount[EVT_UNKNOWN]++;\n\treturn -ENOTTY;\n}",
     "ENOTTY", "default: -ENOTTY"),
])
def test_the_unknown_command_answer_read_from_the_text(body: str, kind: str, how: str) -> None:
    text = csource.clean("static long foo_ioctl(struct file *f, unsigned int cmd, unsigned long arg)\n{\n"
                         + body + "\n}\n")
    answer = compare.unknown_command_answer(text, csource.functions(text)[0])
    assert (answer.kind, answer.how) == (kind, how)


def test_definitions_reads_c_and_h_but_not_declarations_or_comments() -> None:
    found = compare.definitions(TREE, ["moved_ioctl", "gone_ioctl", "stay_ioctl", "kept_ioctl"])
    assert found == {"moved_ioctl": ["include/linux/moved.h"], "gone_ioctl": [], "stay_ioctl": [],
                     "kept_ioctl": ["drivers/new/moved_kept.c"]}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = cli.main(["compare", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_command_markdown_and_tsv(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--old", str(OLD), "--new", str(NEW), "--new-kdir", str(TREE))
    assert status == 0
    assert out.startswith("# What changed between Linux 6.12.1 and 7.2.13\n")
    counts = out[:out.index("\n## ")]
    assert "- removed: 2\n- moved: 2\n- converted upstream: 4\n" in counts
    assert "- still needed: 3 (2 in a series, 1 left out, 0 no change)\n- new: 1" in counts
    assert "| enotty_ioctl() | drivers/conv/enotty.c | ENOTTY | enotty_ioctl(): default: -ENOTTY |" in out
    status, out, _ = run(capsys, "--old", str(OLD), "--new", str(NEW), "--new-kdir", str(TREE), "--tsv")
    rows = [line.split("\t") for line in out.splitlines()]
    assert rows[0] == list(compare.TSV_COLUMNS) and all(len(r) == 5 for r in rows)
    assert sorted({r[0] for r in rows[1:]}) == sorted(compare.CLASSES)


def test_the_newer_tree_is_found_in_the_cache_or_refused(capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("ENOTTY_CACHE", str(tmp_path))
    (tmp_path / "src").mkdir()
    status, out, err = run(capsys, "--old", str(OLD), "--new", str(NEW))
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and "7.2.13 tree" in err and "--new-kdir" in err
    (tmp_path / "src" / "linux-source-7.2_7.2.13-1").symlink_to(TREE)
    (tmp_path / "src" / "linux-source-7.20_7.20.1-1").symlink_to(TREE / "drivers")   # no Makefile: not 7.2.13
    status, out, err = run(capsys, "--old", str(OLD), "--new", str(NEW))
    assert status == 0 and "- moved: 2" in out
    assert "6.12.1 tree is not unpacked" in err      # namesakes cannot be told from moves


def test_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run(capsys, "--old", str(tmp_path), "--new", str(NEW), "--new-kdir", str(TREE))
    assert status == 2 and err.count("\n") == 1 and "is not an output of make patches" in err
    status, _, err = run(capsys, "--old", str(OLD), "--new", str(NEW), "--new-kdir", str(tmp_path / "none"))
    assert status == 2 and "--new-kdir" in err and "is not a directory" in err
    (tmp_path / "run.json").write_text("{}")
    (tmp_path / "handlers.tsv").write_text("")
    (tmp_path / "sites.tsv").write_text("")
    status, _, err = run(capsys, "--old", str(tmp_path), "--new", str(NEW), "--new-kdir", str(TREE))
    assert status == 2 and "cannot read it" in err


def test_default_outputs_are_6_12_and_the_newest_other(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="linux-6.12"):
        compare.default_old(tmp_path)
    for name in ("linux-6.12.118", "linux-7.2.9", "linux-7.2.13", "linux-7.10.1"):
        (tmp_path / name).mkdir()
    (tmp_path / "linux-9.9.9").write_text("a file, not an output")
    old = compare.default_old(tmp_path)
    assert old.name == "linux-6.12.118"
    assert compare.default_new(old, tmp_path).name == "linux-7.10.1"
    shutil.rmtree(tmp_path / "linux-7.10.1")
    assert compare.default_new(old, tmp_path).name == "linux-7.2.13"
    for name in ("linux-7.2.9", "linux-7.2.13"):
        shutil.rmtree(tmp_path / name)
    with pytest.raises(UsageError, match="newer than 6.12"):
        compare.default_new(old, tmp_path)


def _committed() -> tuple[compare.Output, compare.Output, Path] | None:
    try:
        old_dir = compare.default_old()
        old, new = compare.read_output(old_dir), compare.read_output(compare.default_new(old_dir))
    except UsageError:
        return None
    root = compare.cached_tree(new)
    return (old, new, root) if root else None


@pytest.mark.skipif(_committed() is None, reason="needs generated-patches/linux-6.12.* and a newer output,"
                                                 " with the newer tree unpacked in the cache")
def test_the_committed_outputs() -> None:
    found = _committed()
    assert found is not None
    old, new, root = found
    changes = compare.classify(old, new, root, compare.cached_tree(old))
    older = [c for c in changes if c.kind != "new"]
    assert sorted((c.file, c.handler) for c in older) == sorted((r["file"], r["handler"]) for r in old.handlers)
    new_keys = {(r["file"], r["handler"]) for r in new.handlers}
    for c in changes:
        if c.kind == "removed" and c.detail.startswith("the file is gone"):
            assert not (root / c.file).exists()
        elif c.kind == "converted upstream":
            assert compare.defines(root, c.file, c.handler) and (c.file, c.handler) not in new_keys
        elif c.kind == "moved":
            assert compare.defines(root, c.now, c.handler) and not compare.defines(root, c.file, c.handler)
        elif c.kind == "new":
            assert (c.file, c.handler) in new_keys
    # a handler both outputs hold under one name in one file is still needed
    kept = {(c.file, c.handler) for c in changes if c.kind == "still needed"}
    assert {(r["file"], r["handler"]) for r in old.handlers} & new_keys <= kept
    assert kernel_tree.kernel_version(root) == new.version
    assert json.loads((new.folder / "run.json").read_text())["version"] == new.version
