"""Tests for enotty.rules: table parsing, sync of the embedded block,
the combined semantic patch and the digest."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from enotty import rules, tree
from enotty.errors import UsageError

HEADER = "\t".join(rules.HEADER) + "\n"


@pytest.fixture
def cocci_copy(tmp_path: Path) -> Path:
    dest = tmp_path / "cocci"
    shutil.copytree(rules.cocci_dir(), dest, ignore=shutil.ignore_patterns("tests", "__pycache__"))
    return dest


def test_rule_files_are_the_sorted_cocci_files():
    files = rules.rule_files()
    assert files == sorted(files)
    assert {p.name for p in files} >= {
        "ioctl_default_return.cocci", "ioctl_default_assign.cocci",
        "ioctl_switch_no_default.cocci", "ioctl_ioc_guard.cocci",
        "ioctl_if_chain.cocci", "ioctl_leaf_enoioctlcmd.cocci",
    }


def test_parse_interfaces_reads_rows():
    text = HEADER + "file_operations\tunlocked_ioctl\t1\tENOTTY\tno\tfs/ioctl.c:vfs_ioctl\n"
    (row,) = rules.parse_interfaces(text)
    assert row.name == "file_operations.unlocked_ioctl"
    assert row.cmd_arg == 1 and row.to == "ENOTTY" and row.keep_enoioctlcmd is False


@pytest.mark.parametrize("row, message", [
    ("a\tb\t1\tENOTTY\tno", "expected 6"),
    ("a\tb\tx\tENOTTY\tno\td", "cmd_arg"),
    ("a\tb\t1\tEINVAL\tno\td", "to must be"),
    ("a\tb\t1\tENOTTY\tmaybe\td", "keep_enoioctlcmd"),
    ("a b\tc\t1\tENOTTY\tno\td", "C identifiers"),
])
def test_parse_interfaces_rejects_bad_rows(row, message):
    with pytest.raises(UsageError, match=message):
        rules.parse_interfaces(HEADER + row + "\n", "t.tsv")


def test_parse_interfaces_rejects_bad_header_and_duplicates():
    with pytest.raises(UsageError, match="header"):
        rules.parse_interfaces("struct\tfield\n")
    row = "a\tb\t1\tENOTTY\tno\td\n"
    with pytest.raises(UsageError, match="twice"):
        rules.parse_interfaces(HEADER + row + row)


def test_shipped_table_has_the_required_rows():
    table = {i.name: i for i in rules.interfaces()}
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
    root = tree.cache_dir() / "src" / tree.SOURCE_PACKAGE
    if not (root / "include").is_dir():
        pytest.skip(f"no unpacked kernel tree at {root}")
    for iface in rules.interfaces():
        params = member_params(root, iface.struct, iface.field, iface.dispatch)
        assert params is not None, f"{iface.name} not found in the headers of {root}"
        assert re.match(r"^unsigned(\s+int)?(\s+\w+)?$", params[iface.cmd_arg]), \
            f"{iface.name}: parameter {iface.cmd_arg} is {params[iface.cmd_arg]!r}, not the command"


def test_shipped_rule_files_are_in_sync():
    assert rules.out_of_sync() == []


def test_sync_rewrites_a_stale_block_and_check_sees_it(cocci_copy: Path):
    tsv = cocci_copy / "interfaces.tsv"
    tsv.write_text(tsv.read_text() + "demo_ops\tioctl\t1\tENOTTY\tno\tdrivers/misc/demo.c\n")
    stale = rules.out_of_sync(cocci_copy)
    assert stale == rules.rule_files(cocci_copy)
    assert rules.sync(cocci_copy) == stale
    assert rules.out_of_sync(cocci_copy) == []
    for path in rules.rule_files(cocci_copy):
        text = path.read_text()
        assert "('demo_ops', 'ioctl'): (1, 'ENOTTY', False" in text
        assert text.count(rules.BEGIN) == 1 and text.count(rules.END) == 1


def test_missing_markers_are_a_usage_error(cocci_copy: Path):
    victim = rules.rule_files(cocci_copy)[0]
    victim.write_text(victim.read_text().replace(rules.END, "// gone"))
    with pytest.raises(UsageError, match="markers"):
        rules.sync(cocci_copy)


def test_combined_has_one_table_and_every_shape():
    text = rules.combined_smpl()
    assert text.count("@initialize:python@") == 1
    assert text.count("ENOTTY_INTERFACES = {") == 1
    for v in rules.VIRTUALS:
        assert text.count(f"virtual {v}\n") == 1
    for path in rules.rule_files():
        _head, _block, shape = rules.split_rule(path.read_text(), str(path))
        assert shape in text
    names = rules.rule_names(text.split(rules.END, 1)[1])
    assert len(names) == len(set(names))


def test_combined_refuses_duplicate_rule_names(cocci_copy: Path):
    first, second = rules.rule_files(cocci_copy)[:2]
    name = rules.rule_names(rules.split_rule(first.read_text(), "x")[2])[0]
    second.write_text(second.read_text() + f"\n@{name}@\n@@\nfoo();\n")
    with pytest.raises(UsageError, match=f"rule {name} is defined"):
        rules.combined_smpl(cocci_copy)


def test_combined_parses_with_spatch(tmp_path: Path):
    spatch = shutil.which("spatch")
    assert spatch, "spatch not found: apt-get install coccinelle"
    smpl = tmp_path / "all.cocci"
    smpl.write_text(rules.combined_smpl())
    res = subprocess.run([spatch, "--parse-cocci", str(smpl)], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr[-2000:]


def test_digest_follows_every_source(cocci_copy: Path):
    before = rules.rules_digest(cocci_copy)
    assert re.fullmatch(r"[0-9a-f]{64}", before)
    assert rules.rules_digest(cocci_copy) == before
    for path in (cocci_copy / "interfaces.tsv", cocci_copy / "lib" / "handlers.smpl",
                 rules.rule_files(cocci_copy)[-1]):
        path.write_text(path.read_text() + "\n")
        after = rules.rules_digest(cocci_copy)
        assert after != before
        before = after


def test_main_check_and_usage():
    env_path = str(Path(rules.__file__).resolve().parents[1])
    run = lambda *a: subprocess.run([sys.executable, "-m", "enotty.rules", *a],
                                    capture_output=True, text=True, env={"PYTHONPATH": env_path})
    assert run("--check").returncode == 0
    bad = run("--bogus")
    assert bad.returncode == 2 and "usage" in bad.stderr
    combined = run("--combined")
    assert combined.returncode == 0 and combined.stdout == rules.combined_smpl()


def test_library_python_has_no_stray_quotes():
    """spatch lexes the @initialize:python@ block for quotes: an apostrophe
    in a comment ("the handler's") opens a string that swallows the
    following rules.  Every line must hold an even number of quotes."""
    lib = (rules.cocci_dir() / "lib" / "handlers.smpl").read_text()
    block = lib[lib.index("@initialize:python@"):lib.index("\n@enotty_ops@")]
    odd = [line for line in block.splitlines() if line.count("'") % 2]
    assert odd == []
