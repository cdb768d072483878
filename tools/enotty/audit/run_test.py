"""audit.run: the placeholders of the qemu column (@SCRATCH/, @ACPI/)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest


from enotty.audit import run

needs_iasl = pytest.mark.skipif(shutil.which("iasl") is None, reason="no iasl (acpica-tools)")

SSDT = """DefinitionBlock ("", "SSDT", 2, "ENOTTY", "TEST", 1)
{
    Scope (\\_SB) { Device (TST0) { Name (_HID, "%s") } }
}
"""


def test_scratch_images(tmp_path):
    argv = run.scratch_images(["-drive", "if=floppy,file=@SCRATCH/fd0.img,format=raw"],
                                    tmp_path)
    assert argv == ["-drive", f"if=floppy,file={tmp_path}/fd0.img,format=raw"]
    assert (tmp_path / "fd0.img").stat().st_size == run.FLOPPY_BYTES


@needs_iasl
def test_acpi_tables_compiled_and_named_by_content(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "dev.asl").write_text(SSDT % "TST0001")
    out = tmp_path / "out"
    out.mkdir()
    first = run.acpi_tables(["-acpitable", "file=@ACPI/dev"], out, src)
    assert first[0] == "-acpitable" and first[1].startswith(f"file={out}/dev-")
    aml = Path(first[1].removeprefix("file="))
    assert aml.suffix == ".aml" and aml.read_bytes()[:4] == b"SSDT"
    (src / "dev.asl").write_text(SSDT % "TST0002")
    second = run.acpi_tables(["-acpitable", "file=@ACPI/dev"], out, src)
    assert second != first     # an edited table is another file: no kept boot reused


@needs_iasl
def test_acpi_tables_errors(tmp_path):
    with pytest.raises(run.AuditError, match="no .*missing.asl"):
        run.acpi_tables(["file=@ACPI/missing"], tmp_path, tmp_path)
    (tmp_path / "bad.asl").write_text("DefinitionBlock (")
    with pytest.raises(run.AuditError, match="iasl bad.asl: exit"):
        run.acpi_tables(["file=@ACPI/bad"], tmp_path, tmp_path)


def test_committed_tables_compile(tmp_path):
    if shutil.which("iasl") is None:
        pytest.skip("no iasl (acpica-tools)")
    for asl in sorted(run.ACPI_DIR.glob("*.asl")):
        argv = run.acpi_tables([f"file=@ACPI/{asl.stem}"], tmp_path)
        assert Path(argv[0].removeprefix("file=")).is_file()


def test_the_command_line_takes_make_audits_variables():
    from enotty import cli
    args = cli.build_parser().parse_args(["audit", "--series", "media", "--out", "o",
                                          "--mutant", "einval,untouched"])
    assert (args.series, args.out, args.mutant) == ("media", "o", ("einval", "untouched"))
    args = cli.build_parser().parse_args(["audit"])
    assert (args.series, args.mutant, args.timeout, args.probe_timeout) == ("all", (), 600, 240)
    assert set(run.MUTANTS) == {"einval", "untouched", "epoll"}
    assert all(p.is_file() for p in run.MUTANTS.values())

