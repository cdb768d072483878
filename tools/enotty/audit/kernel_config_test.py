"""kernel_config.build_folder: one build folder per configuration, reused."""
from __future__ import annotations

from pathlib import Path


from enotty.audit import kernel_config

FULL = "CONFIG_A=y\nCONFIG_B=y\nCONFIG_C=y\n"
REDUCED = "CONFIG_A=y\nCONFIG_R=y\n"


def built(folder: Path, wanted: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "audit.fragment").write_text(wanted)
    return folder


def test_a_new_configuration_gets_a_new_folder_until_the_limit(tmp_path):
    first = kernel_config.build_folder(tmp_path, FULL)
    built(first, FULL)
    second = kernel_config.build_folder(tmp_path, REDUCED)
    assert second != first
    built(second, REDUCED)
    assert kernel_config.build_folder(tmp_path, FULL) == first
    assert kernel_config.build_folder(tmp_path, REDUCED) == second


def test_past_the_limit_the_nearest_configuration_is_reused(tmp_path):
    full = built(tmp_path / "build-0", FULL)
    reduced = built(tmp_path / "build-1", REDUCED)
    assert kernel_config.build_folder(tmp_path, FULL + "CONFIG_D=y\n", keep=2) == full
    assert kernel_config.build_folder(tmp_path, REDUCED + "CONFIG_E=y\n", keep=2) == reduced


def test_a_folder_never_changes_tree(tmp_path):
    # 6.12's scripts/kconfig does not compile with 7.2's generated lexer
    # (older sources, newer outputs: make keeps them): emptied instead
    old = kernel_config.tree_line(tmp_path / "linux-7.2")
    new = kernel_config.tree_line(tmp_path / "linux-6.12")
    for n, text in enumerate((FULL, REDUCED, FULL + "CONFIG_X=y\n")):
        folder = built(tmp_path / f"build-{n}", old + text)
        (folder / "generated").write_text("7.2")
    chosen = kernel_config.build_folder(tmp_path, new + FULL)
    assert chosen.name.startswith("build-") and not chosen.exists()
    built(chosen, new + FULL)
    # of the same tree, the nearest folder is reused as it is
    again = kernel_config.build_folder(tmp_path, new + FULL + "CONFIG_Y=y\n")
    assert again == chosen and again.is_dir()
    assert kernel_config.build_folder(tmp_path, old + REDUCED) == tmp_path / "build-1"
    assert (tmp_path / "build-1" / "generated").is_file()


def test_a_folder_without_a_stamp_is_a_candidate_not_a_match(tmp_path):
    (tmp_path / "build-0").mkdir()
    assert kernel_config.build_folder(tmp_path, FULL) == tmp_path / "build-1"


def test_a_file_built_through_a_make_variable_takes_the_tables_symbols():
    # virt/kvm/kvm_main.c is built by arch/x86/kvm/Makefile through
    # $(KVM): the Makefiles cannot say which symbol builds it
    from enotty.audit import table
    from ..kernel import tree
    source = tree.resolve(None, need_kernel=True, kver="6.12")
    line = "virt/kvm/kvm_main.c\taudit\t{}\t-\t-\t-\tkvm:vcpu\tvcpu\n"
    with_config = table.parse_table(line.format("VIRTUALIZATION KVM KVM_AMD"))
    plan = kernel_config.plan(source, with_config, ["virt/kvm/kvm_main.c"])
    assert plan.wanted["virt/kvm/kvm_main.c"] == ["VIRTUALIZATION", "KVM", "KVM_AMD"]
    assert "CONFIG_KVM_AMD=y" in plan.fragment
    bare = table.parse_table(line.format("-"))
    plan = kernel_config.plan(source, bare, ["virt/kvm/kvm_main.c"])
    assert "virt/kvm/kvm_main.c" in plan.underivable and not plan.wanted


def test_only_the_objects_symbols_must_survive_not_one_way_into_its_folder():
    # drivers/Makefile enters usb/ for USB_PHY (no prompt: a select sets
    # it) or USB or USB_GADGET...: usblp needs USB_PRINTER, not USB_PHY
    from enotty.audit import table
    from ..kernel import tree
    source = tree.resolve(None, need_kernel=True, kver="6.12")
    rows = table.parse_table(
        "drivers/usb/class/usblp.c\taudit\tUSB_G_PRINTER\t-\t-\t-\t/dev/usb/lp*\tprinter\n")
    plan = kernel_config.plan(source, rows, ["drivers/usb/class/usblp.c"])
    assert plan.required["drivers/usb/class/usblp.c"] == ["USB_PRINTER", "USB_G_PRINTER"]
    assert "USB_PRINTER" in plan.wanted["drivers/usb/class/usblp.c"]


def test_a_fresh_copy_of_a_tree_empties_only_that_trees_folders(tmp_path):
    # a copy made again has the package's old mtimes: objects built from the
    # files a lost copy had patched would look newer and be kept
    mine = kernel_config.tree_line(tmp_path / "linux-7.2")
    other = kernel_config.tree_line(tmp_path / "linux-6.12")
    built(tmp_path / "build-0", mine + FULL)
    built(tmp_path / "build-1", other + FULL)
    (tmp_path / "build-2").mkdir()          # no stamp: not known to be this tree's
    assert kernel_config.empty_tree_folders(tmp_path, tmp_path / "linux-7.2") == [tmp_path / "build-0"]
    assert not (tmp_path / "build-0").exists()
    assert (tmp_path / "build-1").is_dir() and (tmp_path / "build-2").is_dir()
