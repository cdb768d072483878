"""Tests for phase 1: per-file facts, their cache and the tree-wide join."""
from __future__ import annotations

import io
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from . import facts, interfaces
from ..kernel import tree

FIXTURE = Path(__file__).resolve().parents[1] / "testdata" / "facts"

# What testdata/facts/drivers/demo should give, and why:
EXPECTED = {
    # Non-static helper of the same file: the rules follow static ones only.
    ("drivers/demo/fops.c", "local_exported", "file_operations.compat_ioctl", 1),
    # Static, but its value is adjusted before it is returned.
    ("drivers/demo/fops.c", "adjusted", "file_operations.compat_ioctl", 1),
    # Bound in fops.c (an initialiser, and a run-time ops->ioctl = fn).
    ("drivers/demo/handler.c", "ext_handler", "file_operations.unlocked_ioctl", 1),
    ("drivers/demo/handler.c", "ext_tty_handler", "tty_operations.ioctl", 1),
    # hw->ops.ioctl = fn, hw a struct snd_hwdep: the command is argument 2.
    ("drivers/demo/handler.c", "ext_hwdep_ioctl", "snd_hwdep_ops.ioctl", 2),
    # Static helper of a handler bound elsewhere; the command is argument 2.
    ("drivers/demo/handler.c", "ext_fallback", "file_operations.unlocked_ioctl", 2),
    # Callback handed to dvb_usercopy with the command.
    ("drivers/demo/handler.c", "ext_do_ioctl", "file_operations.unlocked_ioctl", 1),
    # Non-static helpers in a file without any ops member: after the
    # switch, and under a default that falls into a case label.
    ("drivers/demo/helper.c", "shared_helper", "file_operations.compat_ioctl", 1),
    ("drivers/demo/helper.c", "fall_helper", "file_operations.compat_ioctl", 1),
    # Two levels down, through helper.c: another file without ops members.
    ("drivers/demo/deep.c", "deeper_helper", "file_operations.compat_ioctl", 1),
}
# Not expected: local_handler/local_static (the rules see them in fops.c),
# case_only_helper (case label), equal_only_helper (cmd == A || cmd == B),
# trynext_helper (compared with -ENOIOCTLCMD), ext_static (cmd == A),
# dvb_usercopy (dispatcher), handler.c's static shared_helper.


def rows(targets: dict[str, list[facts.Target]]) -> set[tuple[str, str, str, int]]:
    return {(t.file, t.function, t.interface, t.cmd_arg) for ts in targets.values() for t in ts}


def copy_fixture(tmp_path: Path) -> Path:
    root = tmp_path / "tree"
    shutil.copytree(FIXTURE, root)
    return root


def test_fixture_tree_targets(tmp_path: Path) -> None:
    root = copy_fixture(tmp_path)
    got = facts.extra_targets(root, sorted(tree.c_files(root)), 1, tmp_path / "cache")
    assert rows(got) == EXPECTED
    assert all(t.file == rel for rel, ts in got.items() for t in ts)


def test_two_jobs_agree_with_one(tmp_path: Path) -> None:
    root = copy_fixture(tmp_path)
    files = sorted(tree.c_files(root))
    assert rows(facts.extra_targets(root, files, 2, tmp_path / "c2")) == EXPECTED


def test_cache_is_used_and_an_edit_reruns_only_that_file(tmp_path: Path, monkeypatch) -> None:
    root = copy_fixture(tmp_path)
    files = sorted(tree.c_files(root))
    cache = tmp_path / "cache"
    facts.extra_targets(root, files, 1, cache)

    seen = []
    real = facts.file_facts

    def counting(data: bytes, whole: bool = False) -> dict:
        seen.append(data)
        return real(data, whole)

    monkeypatch.setattr(facts, "file_facts", counting)
    assert rows(facts.extra_targets(root, files, 1, cache)) == EXPECTED
    assert seen == []
    # helper.c no longer tests the command: shared_helper stays a target
    # (only the caller decides that), and only helper.c is read again.
    helper = root / "drivers/demo/helper.c"
    helper.write_text(helper.read_text().replace("if (cmd != DEMO_FIVE)", "if (!arg)"))
    assert rows(facts.extra_targets(root, files, 1, cache)) == EXPECTED
    assert len(seen) == 1 and b"if (!arg)" in seen[0]
    # fops.c stops binding ext_handler: handler.c's rows change.
    fops = root / "drivers/demo/fops.c"
    fops.write_text(fops.read_text().replace(".unlocked_ioctl\t= ext_handler,", ""))
    got = rows(facts.extra_targets(root, files, 1, cache))
    assert len(seen) == 2
    assert not any(r[0] == "drivers/demo/handler.c" and r[2] == "file_operations.unlocked_ioctl"
                   for r in got)
    assert ("drivers/demo/handler.c", "ext_tty_handler", "tty_operations.ioctl", 1) in got


@pytest.mark.parametrize("test, reaches", [
    ("switch (cmd) { case A: return h(f, cmd); default: return 0; }", False),
    ("switch (cmd) { case A: break; default: return h(f, cmd); }", True),
    ("switch (_IOC_NR(cmd)) { case 1: case 2: return h(f, cmd); }", False),
    ("unsigned int nr = _IOC_NR(cmd); switch (nr) { case 1: return h(f, cmd); }", False),
    ("switch (cmd) { default: case A: return h(f, cmd); }", True),
    ("switch (cmd) { default: break; case A: return h(f, cmd); }", False),
    ("if (cmd == A) return h(f, cmd); return 0;", False),
    ("if (cmd == A || B == cmd) { return h(f, cmd); } return 0;", False),
    ("if (cmd == A && arg) return h(f, cmd); return 0;", False),
    ("if (cmd == A || arg) return h(f, cmd); return 0;", True),
    ("if (cmd != A) return h(f, cmd); return 0;", True),
    ("switch (arg) { case 1: return h(f, cmd); } return 0;", True),
    # A closed range of commands is as explicit as a list of them
    # (net/core/dev_ioctl.c: the private ioctls); an open one is not.
    ("if (cmd == A || (cmd >= P && cmd <= P + 15)) return h(f, cmd); return 0;", False),
    ("if (cmd >= P && P + 15 >= cmd) return h(f, cmd); return 0;", False),
    ("if (cmd >= P) return h(f, cmd); return 0;", True),
    ("if (cmd == A || cmd >= P) return h(f, cmd); return 0;", True),
])
def test_call_context(test: str, reaches: bool) -> None:
    src = ("static long g(struct file *f, unsigned int cmd, unsigned long arg)\n{\n\t"
           + test + "\n}\nstatic const struct file_operations o = { .unlocked_ioctl = g };\n")
    record = facts.file_facts(src.encode())
    assert [c[2:5] for c in record["calls"]] == [["h", 1, reaches]]


def test_try_next_and_value_flow() -> None:
    src = b"""
static long g(struct file *f, unsigned int cmd, unsigned long arg)
{
	long err;

	if (first(f, cmd) == -ENOTTY)
		return 0;
	err = second(f, cmd);
	if (-EINVAL != err)
		return err;
	ignored(f, cmd);
	err = checked(cmd);
	if (err)
		return err;
	return (long)last(f, (unsigned int)cmd, arg);
}
static const struct file_operations o = { .unlocked_ioctl = g };
"""
    record = facts.file_facts(src)
    assert set(record["trynext"]) == {"first", "second"}
    # ignored: its value is dropped; the others flow to a return, second's
    # not in the rules' form (err is assigned again before the return).
    assert {(c[2], c[3], c[5]) for c in record["calls"]} == {
        ("second", 1, False), ("checked", 0, True), ("last", 1, True)}
    assert record["bindings"] == [["file_operations", "unlocked_ioctl", "g", ""]]


def test_file_without_ops_member_gives_only_its_exported_definitions() -> None:
    record = facts.file_facts(b"static int a(int nr)\n{\n\treturn -EINVAL;\n}\n"
                              b"int\nb(struct file *f, unsigned int nr)\n{\n\treturn a(nr);\n}\n")
    assert record == {"defs": {"b": [False, "struct file *f, unsigned int nr"]}}
    # Unless an exported function takes a command: then its calls count.
    record = facts.file_facts(b"static int a(int cmd)\n{\n\treturn -EINVAL;\n}\n"
                              b"int\nb(struct file *f, unsigned int cmd)\n{\n\treturn a(cmd);\n}\n")
    assert record["calls"] == [["b", 1, "a", 0, True, True]]
    assert record["defs"]["a"] == [True, "int cmd"]


def test_tsv_rows() -> None:
    targets = [facts.Target("drivers/a.c", "h", "fb_ops.fb_ioctl", 1),
               facts.Target("drivers/a.c", "g", "file_operations.unlocked_ioctl", 2)]
    out = io.StringIO()
    facts.write_tsv(targets, out)
    assert out.getvalue() == ("drivers/a.c\th\tfb_ops.fb_ioctl\t1\n"
                              "drivers/a.c\tg\tfile_operations.unlocked_ioctl\t2\n")
    assert facts.tsv_text(targets) == out.getvalue()


def test_command_line(tmp_path: Path) -> None:
    root = copy_fixture(tmp_path)
    tools = Path(__file__).resolve().parents[2]
    env = {"PYTHONPATH": str(tools), "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
           "ENOTTY_CACHE": str(tmp_path / "cache")}
    res = subprocess.run(["/usr/bin/python3", "-m", "enotty", "facts", "--kdir", str(root), "--jobs", "2"],
                         capture_output=True, text=True, env=env)
    assert res.returncode == 0, res.stderr
    got = {tuple(line.split("\t")) for line in res.stdout.splitlines()}
    assert got == {(f, fn, i, str(a)) for f, fn, i, a in EXPECTED}
    assert (tmp_path / "cache" / "facts" / facts.DB_NAME).is_file()
    for bad in (["--kdir", str(root / "nope")], ["--kdir", str(root), "--jobs", "0"]):
        res = subprocess.run(["/usr/bin/python3", "-m", "enotty", "facts", *bad], capture_output=True,
                             text=True, env=env)
        assert res.returncode == 2 and res.stderr.startswith("enotty: ") and "Traceback" not in res.stderr


def arch_hook_records(hook: str) -> dict[str, dict]:
    """A core handler hands unknown commands to each architecture's hook
    (non-static, defined once per architecture)."""
    params = "struct file *filp, unsigned int ioctl, unsigned long arg"
    return {
        "virt/demo/main.c": {
            "defs": {"demo_vm_ioctl": [True, params]},
            "bindings": [["file_operations", "unlocked_ioctl", "demo_vm_ioctl", ""]],
            "calls": [["demo_vm_ioctl", 1, hook, 1, True, True]],
            "callbacks": [], "trynext": []},
        "arch/powerpc/demo/powerpc.c": {"defs": {hook: [False, params]}},
        "arch/x86/demo/x86.c": {"defs": {hook: [False, params]}},
    }


def test_every_definition_of_a_helper_elsewhere_and_try_next() -> None:
    records = arch_hook_records("demo_arch_vm_ioctl")
    assert facts.cross_file_targets(records) == [
        facts.Target("arch/powerpc/demo/powerpc.c", "demo_arch_vm_ioctl", "file_operations.unlocked_ioctl", 1),
        facts.Target("arch/x86/demo/x86.c", "demo_arch_vm_ioctl", "file_operations.unlocked_ioctl", 1)]
    # One caller anywhere compares its value: a try-next protocol, no target.
    records["arch/x86/demo/x86.c"]["trynext"] = ["demo_arch_vm_ioctl"]
    assert facts.cross_file_targets(records) == []


@pytest.mark.parametrize("hook", sorted(interfaces.kept_hooks(interfaces.table())))
def test_kvm_arch_defaults_stay(hook: str) -> None:
    # kvm_vm_ioctl and friends hand unknown commands to the architecture
    # from their own default; those defaults are KVM ABI
    # (cocci/INTERFACES.rst, "KVM arch ioctls: decision").
    assert facts.cross_file_targets(arch_hook_records(hook)) == []


def test_cores_are_no_targets_and_not_followed() -> None:
    params = "struct file *f, unsigned int cmd, unsigned long arg"
    records: dict[str, dict] = {
        "drivers/a/fops.c": {
            "defs": {}, "callbacks": [], "trynext": [], "calls": [],
            "bindings": [["file_operations", "unlocked_ioctl", "blkdev_ioctl", ""],
                         ["file_operations", "compat_ioctl", "lib_ioctl", ""]]},
        # Named in the dispatch column of cocci/interfaces.tsv.
        "block/ioctl.c": {
            "defs": {"blkdev_ioctl": [False, params]},
            "calls": [["blkdev_ioctl", 1, "blk_helper", 1, True, True]],
            "callbacks": [], "trynext": []},
        # Hands the command on through an ops member named like a table field.
        "lib/core.c": {
            "defs": {"lib_ioctl": [False, params]},
            "calls": [["lib_ioctl", 1, "lib_helper", 1, True, True]],
            "dispatches": [["lib_ioctl", "unlocked_ioctl"]],
            "callbacks": [], "trynext": []},
        "lib/helper.c": {"defs": {"lib_helper": [False, params], "blk_helper": [False, params]}},
    }
    assert facts.cross_file_targets(records) == []
    assert facts.core_functions(records) == facts.Cores(
        facts.core_functions({}).names, frozenset({("lib/core.c", "lib_ioctl")}))
    assert "blkdev_ioctl" in facts.core_functions({}).names
    # An ops member outside the table (->read) makes no core.
    records["lib/core.c"]["dispatches"] = [["lib_ioctl", "read"]]
    assert [(t.file, t.function) for t in facts.cross_file_targets(records)] == [
        ("lib/core.c", "lib_ioctl"), ("lib/helper.c", "lib_helper")]


def test_a_handler_that_drivers_of_several_folders_share_is_a_core(monkeypatch: pytest.MonkeyPatch) -> None:
    # drm_ioctl: bound by drivers all over drivers/gpu/drm and beyond; its
    # answers are the DRM core's (a table-driven dispatch).  (The scan lists
    # its own table miss through the reported_cores column, tested below.)
    monkeypatch.setattr(facts, "reported_cores", lambda records: [])
    params = "struct file *f, unsigned int cmd, unsigned long arg"
    records: dict[str, dict] = {
        "drivers/gpu/drm/drm_ioctl.c": {"defs": {"drm_ioctl": [False, params]}},
        "drivers/gpu/drm/a/a_drv.c": {"defs": {}, "bindings": [["file_operations", "unlocked_ioctl", "drm_ioctl", ""]]},
        "drivers/gpu/drm/b/b_drv.c": {"defs": {}, "bindings": [["file_operations", "unlocked_ioctl", "drm_ioctl", ""]]},
    }
    assert facts.cross_file_targets(records) == []
    # Two files of one driver folder are one user: still that driver's handler.
    records["drivers/gpu/drm/b/b_drv.c"]["bindings"] = []
    records["drivers/gpu/drm/a/a_kms.c"] = {"defs": {}, "calls": [["a_ioctl", 1, "drm_ioctl", 1, True, True]]}
    records["drivers/gpu/drm/a/a_kms.c"]["defs"] = {"a_ioctl": [True, params]}
    assert facts.cross_file_targets(records) == [facts.Target("drivers/gpu/drm/drm_ioctl.c", "drm_ioctl",
                                                "file_operations.unlocked_ioctl", 1)]
    # A static function of the same name in a user is that file's own.
    records["drivers/gpu/drm/b/b_drv.c"] = {
        "defs": {"drm_ioctl": [True, params]},
        "bindings": [["file_operations", "unlocked_ioctl", "drm_ioctl", ""]]}
    assert ("drivers/gpu/drm/drm_ioctl.c", "drm_ioctl") not in facts.core_functions(records).dispatchers


def test_member_calls_and_member_callbacks_are_dispatches() -> None:
    record = facts.file_facts(b"""
static long a(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct gendisk *disk = f->private_data;

	if (!disk->fops->ioctl)
		return -ENOIOCTLCMD;
	return disk->fops->ioctl(disk, cmd, arg);
}
static long b(struct file *f, unsigned int cmd, unsigned long arg)
{
	return dvb_usercopy(f, cmd, arg, dvbdev->kernel_ioctl);
}
static const struct file_operations o = { .unlocked_ioctl = a, .compat_ioctl = b };
""")
    assert record["dispatches"] == [["a", "ioctl"], ["b", "kernel_ioctl"]]
    # A member call is no call of a function named like the member.
    assert [c[:3] for c in record["calls"]] == [["b", 1, "dvb_usercopy"]]
    assert record["callbacks"] == []


def test_a_function_serving_two_interfaces_lists_the_cautious_one_first() -> None:
    # The rules take the first row of a function: tty_operations.ioctl
    # keeps -ENOIOCTLCMD (the tty core tries the line discipline next).
    records: dict[str, dict] = {
        "drivers/a.c": {
            "defs": {"a_ioctl": [True, "struct file *f, unsigned int cmd, unsigned long arg"],
                     "a_tty_ioctl": [True, "struct tty_struct *tty, unsigned int cmd, unsigned long arg"]},
            "bindings": [["file_operations", "unlocked_ioctl", "a_ioctl", ""],
                         ["tty_operations", "ioctl", "a_tty_ioctl", ""]],
            "calls": [["a_ioctl", 1, "common", 1, True, True], ["a_tty_ioctl", 1, "common", 1, True, True]],
            "callbacks": [], "trynext": []},
        "drivers/b.c": {"defs": {"common": [False, "void *x, unsigned int cmd"]}},
    }
    assert [t.interface for t in facts.cross_file_targets(records)] == ["tty_operations.ioctl",
                                                          "file_operations.unlocked_ioctl"]


# ------------------------------------------------------------ the whole result cached

def fresh_targets(root: Path) -> list[facts.Target]:
    """join() of every file's facts read now, no cache involved."""
    records = {}
    for rel in sorted(tree.c_files(root)):
        data = (root / rel).read_bytes()
        if any(t in data for t in facts.IOCTL_TOKENS + facts.ERRNO_TOKENS):
            records[rel] = facts.file_facts(data)
    return facts.cross_file_targets(records)


def cached_rows(root: Path, cache: Path, jobs: int = 1) -> list[facts.Target]:
    got = facts.extra_targets(root, sorted(tree.c_files(root)), jobs, cache)
    return [t for rel in sorted(got) for t in got[rel]]


FIXTURE_TREES = [FIXTURE.parent / d for d in ("across_files", "facts", "tree")]


def as_if_later(monkeypatch) -> None:
    """The clock past RACY_NS: files written by the test (copied: their
    ctime is now) count as old enough for their stat to be trusted."""
    later = facts._now_ns() + 2 * facts.RACY_NS
    monkeypatch.setattr(facts, "_now_ns", lambda: later)


def remembered(cache: Path) -> set[str]:
    with sqlite3.connect(cache / facts.DB_NAME) as con:
        paths = {row[0] for row in con.execute("SELECT path FROM seen")}
    con.close()
    return paths


@pytest.mark.parametrize("fixture", FIXTURE_TREES, ids=lambda p: p.name)
def test_cached_targets_equal_fresh_ones(fixture: Path, tmp_path: Path, monkeypatch) -> None:
    root = tmp_path / "tree"
    shutil.copytree(fixture, root)
    want = fresh_targets(root)
    cache = tmp_path / "cache"
    as_if_later(monkeypatch)
    assert cached_rows(root, cache, 1) == want            # cold: computed and stored
    # Warm: the stats are remembered and the join is stored, so no file is
    # read and nothing is joined again.
    monkeypatch.setattr(facts, "cross_file_targets", lambda *args: pytest.fail("joined again"))
    monkeypatch.setattr(facts, "open", lambda *a, **k: pytest.fail(f"read again: {a[0]}"), raising=False)
    assert cached_rows(root, cache) == want


@pytest.mark.skipif(not (tree.cache_dir() / "src" / tree.PINNED_PACKAGE / "MAINTAINERS").is_file(),
                    reason="needs the unpacked default tree")
def test_cached_targets_equal_fresh_ones_on_a_real_subtree(tmp_path: Path) -> None:
    """drivers/nvme/host of the default tree (read only), as its own root."""
    root = tree.cache_dir() / "src" / tree.PINNED_PACKAGE / "drivers" / "nvme" / "host"
    want = fresh_targets(root)
    assert len(want) > 5, "nvme's handlers hand the command to helpers in other files"
    cache = tmp_path / "cache"
    assert cached_rows(root, cache, 2) == want
    assert cached_rows(root, cache, 2) == want


def test_a_changed_file_is_read_again_and_the_join_redone(tmp_path: Path, monkeypatch) -> None:
    root = copy_fixture(tmp_path)
    cache = tmp_path / "cache"
    cached_rows(root, cache)
    joins = []
    real_join = facts.cross_file_targets

    def counting(records: dict[str, dict], headers: facts.Headers | None = None) -> list[facts.Target]:
        joins.append(1)
        return real_join(records, headers)

    monkeypatch.setattr(facts, "cross_file_targets", counting)
    fops = root / "drivers/demo/fops.c"
    fops.write_text(fops.read_text().replace(".unlocked_ioctl\t= ext_handler,", ""))
    got = cached_rows(root, cache)
    assert joins == [1] and got == fresh_targets(root)
    assert not any(t.function == "ext_handler" and t.interface == "file_operations.unlocked_ioctl"
                   for t in got)


def test_a_file_changed_just_now_is_not_trusted_by_its_stat(tmp_path: Path, monkeypatch) -> None:
    """Within RACY_NS of its change a file could change again with the same
    stat: it is read every time until it is older."""
    root = copy_fixture(tmp_path)
    cache = tmp_path / "cache"
    cached_rows(root, cache)
    assert remembered(cache) == set(), "every file of the copy was written just now"
    as_if_later(monkeypatch)
    cached_rows(root, cache)
    helper = root / "drivers/demo/helper.c"
    assert str(helper) in remembered(cache)
    helper.write_text(helper.read_text().replace("if (cmd != DEMO_FIVE)", "if (!arg)"))
    monkeypatch.setattr(facts, "_now_ns", time.time_ns)
    assert cached_rows(root, cache) == fresh_targets(root)
    with sqlite3.connect(cache / facts.DB_NAME) as con:
        (stat,) = con.execute("SELECT stat FROM seen WHERE path = ?", (str(helper),)).fetchone()
    con.close()
    assert stat != facts._stat_id(helper.stat()), "its new stat is not remembered yet"


def test_the_code_version_follows_the_source(tmp_path: Path) -> None:
    key = facts.cache_key(b"int x;")
    assert len(key) == 64 and key != facts.cache_key(b"int y;")
    assert facts.join_key({"a.c": key}) != facts.join_key({"a.c": key, "b.c": key})
    assert facts.join_key({"a.c": key}) != facts.join_key({"b.c": key})


def test_a_new_code_version_trusts_no_remembered_stat(tmp_path: Path, monkeypatch) -> None:
    """A remembered content key was made by the code of its time: after a
    change to the code every file is read again, not just joined again."""
    root = copy_fixture(tmp_path)
    cache = tmp_path / "cache"
    as_if_later(monkeypatch)
    cached_rows(root, cache)
    assert remembered(cache)
    read = []
    real = facts.file_facts

    def counting(data: bytes, whole: bool = False) -> dict:
        read.append(data)
        return real(data, whole)

    monkeypatch.setattr(facts, "file_facts", counting)
    monkeypatch.setattr(facts, "code_version", lambda: "0" * 64)
    got = cached_rows(root, cache)
    taking_part = [rel for rel in tree.c_files(root)
                   if any(t in (root / rel).read_bytes() for t in facts.IOCTL_TOKENS + facts.ERRNO_TOKENS)]
    assert len(read) == len(taking_part) > 0
    assert got == fresh_targets(root)


def test_the_reported_cores_are_targets_where_defined() -> None:
    records: dict[str, dict] = {"net/atm/resources.c": {"defs": {"atm_dev_ioctl": [False, "unsigned int cmd"]}},
               "drivers/gpu/drm/drm_ioctl.c": {"defs": {}}}
    assert facts.reported_cores(records) == [facts.Target("net/atm/resources.c", "atm_dev_ioctl",
                                                          "atmdev_ops.ioctl", 0)]


# ------------------------------------------------------------ helpers in headers

HEADER_HELPER = """\
static inline long demo_vnet_ioctl(int *size, unsigned int cmd, int __user *sp)
{
	switch (cmd) {
	case DEMO_GET:
		return put_user(*size, sp);
	default:
		return -EINVAL;
	}
}
"""

HANDLER_USING = """\
#include <linux/fs.h>
#include {header}

static long {name}_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{{
	struct demo *d = file->private_data;

	switch (cmd) {{
	case DEMO_SET:
		return 0;
	default:
		return demo_vnet_ioctl(&d->size, cmd, (int __user *)arg);
	}}
}}

static const struct file_operations {name}_fops = {{
	.unlocked_ioctl	= {name}_ioctl,
}};
"""


def header_tree(tmp_path: Path, header: str, users: dict[str, str]) -> Path:
    """A tree with the helper in `header` and .c files (rel -> how they
    #include it, '"x.h"' or '<linux/x.h>') whose handlers hand it the command from their default."""
    root = tmp_path / "tree"
    (root / header).parent.mkdir(parents=True, exist_ok=True)
    (root / header).write_text(HEADER_HELPER)
    for rel, spelled in users.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        name = Path(rel).stem
        (root / rel).write_text(HANDLER_USING.format(header=spelled, name=name))
    return root


def test_a_static_inline_helper_in_a_header_is_one_target_in_the_header(tmp_path: Path) -> None:
    """tun.c and tap.c hand their unknown commands to tun_vnet_ioctl() of
    tun_vnet.h: one target, in the header, for both."""
    root = header_tree(tmp_path, "drivers/demo/vnet.h", {"drivers/demo/tun.c": '"vnet.h"', "drivers/demo/tap.c": '"vnet.h"'})
    got = facts.extra_targets(root, sorted(tree.c_files(root)), 1, tmp_path / "cache")
    assert rows(got) == {("drivers/demo/vnet.h", "demo_vnet_ioctl", "file_operations.unlocked_ioctl", 1)}
    assert list(got) == ["drivers/demo/vnet.h"]


def test_without_the_include_the_helper_of_a_header_is_not_followed(tmp_path: Path) -> None:
    root = header_tree(tmp_path, "drivers/demo/vnet.h", {"drivers/demo/tun.c": '"other.h"'})
    assert facts.extra_targets(root, sorted(tree.c_files(root)), 1, tmp_path / "cache") == {}


def test_an_included_c_file_is_no_header(tmp_path: Path) -> None:
    """control.c includes "control_compat.c", whose static handler it binds:
    not followed (headers only)."""
    root = header_tree(tmp_path, "drivers/demo/vnet_compat.c", {"drivers/demo/tun.c": '"vnet_compat.c"'})
    assert facts.extra_targets(root, ["drivers/demo/tun.c"], 1, tmp_path / "cache") == {}
    assert facts.included_paths("sound/core/control.c", '"control_compat.c"') == []
    assert facts.included_paths("drivers/net/tun.c", '"tun_vnet.h"') == ["drivers/net/tun_vnet.h",
                                                                         "include/tun_vnet.h"]


def test_an_angle_include_is_looked_up_in_include(tmp_path: Path) -> None:
    root = header_tree(tmp_path, "include/linux/demo_vnet.h", {"drivers/demo/tun.c": "<linux/demo_vnet.h>"})
    got = facts.extra_targets(root, sorted(tree.c_files(root)), 1, tmp_path / "cache")
    assert rows(got) == {("include/linux/demo_vnet.h", "demo_vnet_ioctl", "file_operations.unlocked_ioctl", 1)}


def test_a_header_helper_that_several_folders_call_is_a_library(tmp_path: Path) -> None:
    """Called from SHARED_FOLDERS other folders, its answer is every
    caller's: no driver's series changes it (as with the cores)."""
    users = {f"drivers/{d}/x.c": "<linux/demo_vnet.h>" for d in ("one", "two")}
    root = header_tree(tmp_path, "include/linux/demo_vnet.h", users)
    assert facts.extra_targets(root, sorted(tree.c_files(root)), 1, tmp_path / "cache") == {}


def test_a_changed_header_redoes_the_stored_join(tmp_path: Path, monkeypatch) -> None:
    root = header_tree(tmp_path, "drivers/demo/vnet.h", {"drivers/demo/tun.c": '"vnet.h"'})
    cache = tmp_path / "cache"
    as_if_later(monkeypatch)
    assert len(cached_rows(root, cache)) == 1
    header = root / "drivers/demo/vnet.h"
    header.write_text(header.read_text().replace("demo_vnet_ioctl", "demo_renamed_ioctl"))
    assert cached_rows(root, cache) == []


PASTING_HEADER = """\
int demofb_ioctl_helper(unsigned long cmd, unsigned long arg, struct fb_info *info);

#define __DEMOFB_OPS_IOCTL(__prefix) \\
	.fb_ioctl		= __prefix ## _demofb_ioctl
#define DEMOFB_OPS(__prefix) \\
	.fb_read		= fb_io_read, \\
	__DEMOFB_OPS_IOCTL(__prefix)
"""
PASTING_DRIVER = """\
#include "demolib.h"

static int cg9_demofb_ioctl(struct fb_info *info, unsigned int cmd, unsigned long arg);

static const struct fb_ops cg9_ops = {
	.owner		= THIS_MODULE,
	DEMOFB_OPS(cg9),
};

static int cg9_demofb_ioctl(struct fb_info *info, unsigned int cmd, unsigned long arg)
{
	return demofb_ioctl_helper(cmd, arg, info);
}
"""
PASTING_LIB = """\
#include "demolib.h"

int demofb_ioctl_helper(unsigned long cmd, unsigned long arg, struct fb_info *info)
{
	switch (cmd) {
	case FBIOGTYPE:
		return 0;
	default:
		return -EINVAL;
	}
}
EXPORT_SYMBOL(demofb_ioctl_helper);
"""


def test_an_ops_table_a_token_pasting_macro_builds_binds_its_handler(tmp_path: Path) -> None:
    """The SBUS framebuffers: FB_DEFAULT_SBUS_OPS(cg3) in cg3.c's fb_ops
    pastes .fb_ioctl = cg3_sbusfb_ioctl (sbuslib.h), which hands the command
    to sbusfb_ioctl_helper() in sbuslib.c: both are targets the rules, which
    see one file's text, cannot find."""
    root = tmp_path / "tree"
    folder = root / "drivers/video/demo"
    folder.mkdir(parents=True)
    (folder / "demolib.h").write_text(PASTING_HEADER)
    (folder / "cg9.c").write_text(PASTING_DRIVER)
    (folder / "demolib.c").write_text(PASTING_LIB)
    assert facts.pasted_macros(PASTING_HEADER) == {
        "__DEMOFB_OPS_IOCTL": [["fb_ioctl", "_demofb_ioctl"]], "DEMOFB_OPS": [["__DEMOFB_OPS_IOCTL", ""]]}
    got = facts.extra_targets(root, sorted(tree.c_files(root)), 1, tmp_path / "cache")
    assert rows(got) == {("drivers/video/demo/cg9.c", "cg9_demofb_ioctl", "fb_ops.fb_ioctl", 1),
                         ("drivers/video/demo/demolib.c", "demofb_ioctl_helper", "fb_ops.fb_ioctl", 0)}
    # without the macro's use nothing binds the handler
    (folder / "cg9.c").write_text(PASTING_DRIVER.replace("\tDEMOFB_OPS(cg9),\n", ""))
    assert facts.extra_targets(root, sorted(tree.c_files(root)), 1, tmp_path / "cache") == {}
