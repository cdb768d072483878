"""Tests for enotty.find.rules: table parsing, the one rule file assembled from
its sources (and the check that it is in sync), its options and the digest."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from . import interfaces, rules
from ..kernel import tree
from enotty.errors import UsageError

@pytest.fixture
def cocci_copy(tmp_path: Path) -> Path:
    dest = tmp_path / "cocci"
    shutil.copytree(rules.cocci_dir(), dest, ignore=shutil.ignore_patterns("tests", "__pycache__"))
    return dest


SHAPES = ["ioctl_cmd_range_split", "ioctl_cmd_state_split", "ioctl_default_add_assign", "ioctl_default_assign", "ioctl_default_return", "ioctl_default_twin", "ioctl_if_chain",
          "ioctl_ioc_chain", "ioctl_ioc_guard", "ioctl_leaf_enoioctlcmd", "ioctl_lookup_miss",
          "ioctl_missing_operation", "ioctl_subhandler_miss", "ioctl_switch_add_default",
          "ioctl_switch_chain", "ioctl_switch_no_default", "ioctl_valid_first"]


def test_one_rule_file_and_the_shapes_that_name_sites():
    assert rules.rule_file() == rules.cocci_dir() / "ioctl_enotty.cocci"
    assert sorted(rules.cocci_dir().glob("*.cocci")) == [rules.rule_file()]
    assert rules.shape_names() == SHAPES
    assert rules.shape_names() == SHAPES


def test_shapes_are_short():
    """A shape is a match rule and its claim, readable in one screen."""
    for path in rules.shape_files():
        assert len(path.read_text().splitlines()) <= 70, path.name


def test_shipped_table_has_the_required_rows():
    table = interfaces.by_name()
    assert table["file_operations.unlocked_ioctl"].to == "ENOTTY"
    assert table["tty_operations.ioctl"].to == "ENOIOCTLCMD"
    assert table["tty_operations.ioctl"].keep_enoioctlcmd
    assert not table["file_operations.compat_ioctl"].keep_enoioctlcmd
    # Rows of the survey (cocci/INTERFACES.rst): try-next cores want
    # -ENOIOCTLCMD, final answers -ENOTTY.
    for name in ("uart_ops.ioctl", "usb_serial_driver.ioctl", "atm_ioctl.ioctl",
                 "proto.compat_ioctl", "v4l2_subdev_core_ops.compat_ioctl32"):
        assert table[name].to == "ENOIOCTLCMD", name
    for name in ("scsi_host_template.ioctl", "rtc_class_ops.ioctl", "bcache_device.ioctl",
                 "fb_ops.fb_compat_ioctl", "atmdev_ops.ioctl"):
        assert table[name].to == "ENOTTY", name
    assert table["snd_info_entry_ops.ioctl"].cmd_arg == 3
    assert table["bcache_device.ioctl"].cmd_arg == 2
    # proto.ioctl: `int cmd`, and io_uring (uring_cmd.c:346) hands its
    # value to user space untranslated; hdlc_proto has no command and
    # probes on -EINVAL; drm is table-driven.
    for never in ("snd_pcm_ops.ioctl", "net_device_ops.ndo_eth_ioctl", "proto.ioctl",
                  "hdlc_proto.ioctl", "cdrom_device_ops.audio_ioctl", "drm_driver.ioctls"):
        assert never not in table


def header_dirs(root: Path, dispatch: str) -> list[Path]:
    """include/, then the folder of the dispatch file and its parents up to
    the top-level one (subsystem-private ops: drivers/s390/block/dasd_int.h,
    arch/powerpc/include/asm/kvm_ppc.h for arch/powerpc/kvm/powerpc.c)."""
    dirs = [root / "include"]
    rel = Path(dispatch.split(":", 1)[0]).parent
    while rel.parts and len(rel.parts) > 1:
        dirs.append(root / rel)
        rel = rel.parent
    return dirs


def member_params(root: Path, struct: str, field: str, dispatch: str = "") -> list[str] | None:
    """Parameters of `struct S { ... (*F)(...) ... }` in the headers of
    header_dirs(), or None."""
    pat = re.compile(r"\bstruct\s+" + struct + r"\s*\{")
    headers = (h for d in header_dirs(root, dispatch) for h in sorted(d.rglob("*.h")))
    for header in headers:
        text = header.read_text(errors="replace")
        m = pat.search(text)
        if not m:
            continue
        body = text[m.end():text.find("\n};", m.end())]
        f = re.search(r"\(\s*\*\s*" + field + r"\s*\)\s*\(([^;]*?)\)\s*;", body, re.S)
        if f:
            return [p.strip() for p in f.group(1).split(",")]
    return None


def test_cmd_arg_matches_the_kernel_headers():
    root = tree.cache_dir() / "src" / tree.PINNED_PACKAGE
    if not (root / "include").is_dir():
        pytest.skip(f"no unpacked kernel tree at {root}")
    for iface in interfaces.table():
        params = member_params(root, iface.struct, iface.field, iface.dispatch)
        assert params is not None, f"{iface.name} not found in the headers of {root}"
        # ndo_siocdevprivate() takes its command as a plain int cmd
        assert re.match(r"^(unsigned(\s+int)?(\s+\w+)?|int\s+cmd)$", params[iface.cmd_arg]), \
            f"{iface.name}: parameter {iface.cmd_arg} is {params[iface.cmd_arg]!r}, not the command"


def test_shipped_rule_file_is_in_sync():
    assert rules.out_of_sync() == []
    assert rules.rule_file().read_text() == rules.assembled()


def test_sync_rewrites_a_stale_file_and_check_sees_it(cocci_copy: Path):
    tsv = cocci_copy / "interfaces.tsv"
    tsv.write_text(tsv.read_text() + demo_row())
    assert rules.out_of_sync(cocci_copy) == [rules.rule_file(cocci_copy)]
    assert rules.sync(cocci_copy) == [rules.rule_file(cocci_copy)]
    assert rules.out_of_sync(cocci_copy) == []
    assert rules.sync(cocci_copy) == []
    text = rules.rule_file(cocci_copy).read_text()
    assert "('demo_ops', 'ioctl'): (1, 'ENOTTY', False" in text


def demo_row(**cells: str) -> str:
    """A row of interfaces.tsv for demo_ops.ioctl; cells override columns."""
    return interfaces.format_row(**{"struct": "demo_ops", "field": "ioctl", "cmd_arg": "1", "to": "ENOTTY",
                                    "dispatch": "drivers/misc/demo.c:demo_ioctl", **cells})


def test_embedded_ops_and_kept_hooks_come_from_the_table(cocci_copy: Path):
    tsv = cocci_copy / "interfaces.tsv"
    tsv.write_text(tsv.read_text() + demo_row(embedded_in="demo_dev.ops", kept_hooks="demo_arch_ioctl"))
    text = rules.assembled(cocci_copy)
    assert ('ENOTTY_EMBEDDED_OPS = {\n    ("demo_dev", "ops"): "demo_ops",\n'
            '    ("snd_hwdep", "ops"): "snd_hwdep_ops",\n') in text
    assert ('ENOTTY_KEPT_HOOKS = {"kvm_arch_vm_ioctl", "kvm_arch_vcpu_ioctl", "kvm_arch_dev_ioctl", '
            '"demo_arch_ioctl"}\n') in text


def test_main_says_a_malformed_table_in_one_line(tmp_path: Path):
    pkg = tmp_path / "repo"
    shutil.copytree(Path(rules.__file__).resolve().parents[1], pkg / "tools" / "enotty",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(rules.cocci_dir(), pkg / "cocci", ignore=shutil.ignore_patterns("tests"))
    tsv = pkg / "cocci" / "interfaces.tsv"
    tsv.write_text(tsv.read_text() + demo_row(to="EINVAL"))
    res = subprocess.run([sys.executable, "-m", "enotty.find.rules", "--check"], capture_output=True,
                         text=True, env={"PYTHONPATH": str(pkg / "tools")})
    assert res.returncode == 2 and res.stderr.count("\n") == 1, res.stderr
    line = tsv.read_text().count("\n")
    assert f"interfaces.tsv:{line}: to must be one of ENOTTY, ENOIOCTLCMD, EOPNOTSUPP, got 'EINVAL'" in res.stderr


@pytest.mark.parametrize("source", ["shapes/ioctl_if_chain.smpl", "lib/output.smpl",
                                    "lib/header.smpl", "lib/handlers.smpl"])
def test_check_fails_when_a_source_changes(cocci_copy: Path, source: str):
    path = cocci_copy / source
    path.write_text(path.read_text() + "\n// one more line\n")
    assert rules.out_of_sync(cocci_copy) == [rules.rule_file(cocci_copy)]


def test_check_fails_when_the_rule_file_is_edited(cocci_copy: Path):
    path = rules.rule_file(cocci_copy)
    path.write_text(path.read_text().replace("EINVAL, ENOSYS", "EINVAL", 1))
    assert rules.out_of_sync(cocci_copy) == [path]


def test_a_new_shape_joins_the_file_in_name_order(cocci_copy: Path):
    (cocci_copy / "shapes" / "ioctl_aaa_demo.smpl").write_text("@demo@\n@@\nfoo();\n")
    assert rules.shape_names(cocci_copy)[0] == "ioctl_aaa_demo"
    text = rules.assembled(cocci_copy)
    assert text.index("@demo@") < text.index("@da forall@") < text.index("@enotty_site@")


def test_rule_file_layout():
    text = rules.rule_file().read_text()
    assert text.startswith("// SPDX-License-Identifier: GPL-2.0-only\n///\n")
    for tag in ("// Confidence:", "// Copyright:", "// Comments:", "// Options:"):
        assert text.count("\n" + tag) == 1, tag
    assert text.count("@initialize:python@") == 1
    assert text.count("ENOTTY_INTERFACES = {") == 1
    for v in rules.VIRTUALS:
        assert text.count(f"virtual {v}\n") == 1
    for path in rules.shape_files():
        assert path.read_text().strip() in text
    names = rules.rule_names(text)
    assert len(names) == len(set(names))
    # One output: each mode has one rule, not one per shape.
    assert len(re.findall(r"^@script:python depends on (?:tsv|report|org)@$", text, re.M)) == 3
    # (the patch rule disables the paren isomorphism: (C) || S is split
    # with C's own parentheses dropped, C || S as it stands), and two more
    # add what ioctl_switch_add_default and ioctl_default_add_assign add,
    # one the function ioctl_valid_first calls
    assert len(re.findall(r"^@depends on (?:context|patch(?: disable paren)?)@$", text, re.M)) == 5
    # The SmPL first, the Python it calls last: after the initialize block
    # no rule starts.
    python = text[text.index("\n@initialize:python@\n@@\n"):]
    assert re.findall(r"^@[^@\n]*@$", python, re.M) == ["@initialize:python@", "@@"]
    assert text.index("@initialize:python@") > text.index("@enotty_site@")


def embedded_block(text: str) -> str:
    """The code of the rule file's initialize block (the end of the file)."""
    return text[text.index("\n@initialize:python@\n@@\n") + len("\n@initialize:python@\n@@\n"):]


def test_embedded_python_runs_alone_and_defines_what_the_rules_call():
    """spatch runs the block as one module without the package: it must
    define every enotty_* function a rule calls, with the table filled."""
    text = rules.rule_file().read_text()
    namespace: dict = {"__name__": "spatch"}
    exec(compile(embedded_block(text), "initialize", "exec"), namespace)
    smpl = text[:text.index("\n@initialize:python@\n")]
    called = set(re.findall(r"\b(enotty_\w+)\s*\(", smpl))
    assert len(called) > 20
    assert [name for name in sorted(called) if not callable(namespace.get(name))] == []
    assert ("file_operations", "unlocked_ioctl") in namespace["ENOTTY_INTERFACES"]
    assert namespace["ENOTTY_ORDER"][0] == interfaces.table()[0].name
    assert namespace["ENOTTY_KEPT_HOOKS"] and namespace["ENOTTY_EMBEDDED_OPS"]
    # The copy is the module: the functions of both modules, nothing else.
    assert namespace["case_leaves"]("return 0;") is True
    assert namespace["enotty_command_test"]("cmd == A || cmd == B", "cmd", "==") is True


def test_embedded_python_follows_its_modules(cocci_copy: Path, tmp_path: Path, monkeypatch):
    copies = []
    for path in rules.RULE_PYTHON:
        copies.append(tmp_path / path.name)
        copies[-1].write_text(path.read_text())
    monkeypatch.setattr(rules, "RULE_PYTHON", tuple(copies))
    assert rules.out_of_sync(cocci_copy) == []
    before = rules.rules_digest(cocci_copy)
    # Of ctext.py only what rule_python.py uses goes in: a new definition
    # leaves the rule file as it is, a change to a used one does not.
    copies[0].write_text(copies[0].read_text() + "\nEXTRA = 1\n")
    assert rules.out_of_sync(cocci_copy) == []
    assert "EXTRA" not in rules.assembled(cocci_copy)
    assert rules.rules_digest(cocci_copy) != before
    used = copies[0].read_text().replace("def case_leaves(seg: str) -> bool:\n",
                                         "def case_leaves(seg: str) -> bool:\n    EXTRA\n")
    copies[0].write_text(used)
    assert rules.out_of_sync(cocci_copy) == [rules.rule_file(cocci_copy)]
    assert "\nEXTRA = 1\n" in rules.assembled(cocci_copy)    # case_leaves uses it now
    copies[1].write_text(copies[1].read_text() + "\nMORE = 2\n")
    assert "\nMORE = 2\n" in rules.assembled(cocci_copy)
    copies[1].write_text(copies[1].read_text().replace(rules.TABLE_LINES, ""))
    with pytest.raises(UsageError, match="table lines"):
        rules.assembled(cocci_copy)
    copies[1].write_text(copies[1].read_text().replace("from .ctext import (", "from .ctext import (nowhere, "))
    with pytest.raises(UsageError, match="does not define nowhere"):
        rules.assembled(cocci_copy)


def test_spatch_options_are_the_options_line():
    assert rules.spatch_options() == ["--no-includes", "--noadd-typedef-root"]
    # coccicheck takes every line that says "Options:" and cuts at colons.
    text = rules.rule_file().read_text()
    (line,) = [l for l in text.splitlines() if "Options:" in l]
    assert line.count(":") == 1


def test_options_outside_the_header_are_refused(cocci_copy: Path):
    path = cocci_copy / "shapes" / "ioctl_if_chain.smpl"
    path.write_text(path.read_text() + "// Options: --jobs 4\n")
    with pytest.raises(UsageError, match="Options"):
        rules.assembled(cocci_copy)


def test_duplicate_rule_names_are_refused(cocci_copy: Path):
    (cocci_copy / "shapes" / "ioctl_zzz_demo.smpl").write_text("@dr@\n@@\nfoo();\n")
    with pytest.raises(UsageError, match="rule dr is defined"):
        rules.assembled(cocci_copy)


def test_rule_file_parses_with_spatch():
    spatch = shutil.which("spatch")
    assert spatch, "spatch not found: apt-get install coccinelle"
    res = subprocess.run([spatch, "--parse-cocci", str(rules.rule_file())],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr[-2000:]


def test_digest_follows_every_source(cocci_copy: Path):
    before = rules.rules_digest(cocci_copy)
    assert re.fullmatch(r"[0-9a-f]{64}", before)
    assert rules.rules_digest(cocci_copy) == before
    for path in (cocci_copy / "interfaces.tsv", cocci_copy / "lib" / "handlers.smpl",
                 cocci_copy / "lib" / "output.smpl", rules.shape_files(cocci_copy)[-1],
                 rules.rule_file(cocci_copy)):
        path.write_text(path.read_text() + "\n")
        after = rules.rules_digest(cocci_copy)
        assert after != before
        before = after


def test_main_check_and_usage(tmp_path: Path):
    env_path = str(Path(rules.__file__).resolve().parents[2])
    run = lambda *a: subprocess.run([sys.executable, "-m", "enotty.find.rules", *a],
                                    capture_output=True, text=True, env={"PYTHONPATH": env_path})
    assert run("--check").returncode == 0
    bad = run("--bogus")
    assert bad.returncode == 2 and "invalid choice: 'bogus'" in bad.stderr and bad.stderr.count("\n") == 1
    combined = run("--combined")
    assert combined.returncode == 0 and combined.stdout == rules.rule_file().read_text()


def test_main_check_fails_on_a_stale_copy(tmp_path: Path):
    """--check through a copy of the package whose cocci/ differs."""
    pkg = tmp_path / "repo"
    shutil.copytree(Path(rules.__file__).resolve().parents[1], pkg / "tools" / "enotty",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(rules.cocci_dir(), pkg / "cocci", ignore=shutil.ignore_patterns("tests"))
    shape = pkg / "cocci" / "shapes" / "ioctl_if_chain.smpl"
    shape.write_text(shape.read_text().replace("ioctl_if_chain", "ioctl_if_chain_x"))
    res = subprocess.run([sys.executable, "-m", "enotty.find.rules", "--check"], capture_output=True,
                         text=True, env={"PYTHONPATH": str(pkg / "tools")})
    assert res.returncode == 1 and "out of sync" in res.stderr
    assert "Traceback" not in res.stderr


def test_library_python_has_no_stray_quotes():
    """spatch lexes the @initialize:python@ block for quotes: an apostrophe
    in a comment ("the handler's") opens a string that swallows what
    follows.  Every line must hold an even number of quotes."""
    block = embedded_block(rules.assembled())
    odd = [line for line in block.splitlines() if line.count("'") % 2]
    assert odd == []


def test_no_line_of_the_rule_file_is_a_spatch_directive():
    """spatch takes a line `# spatch ...` of a semantic patch, a Python
    comment too, as command-line options ("also: No such file")."""
    assert re.findall(r"^\s*#\s*spatch\b.*$", rules.assembled(), re.M) == []
