"""compare: the before/after join, the verdict (with negative controls), the outputs."""
from __future__ import annotations

import dataclasses



from enotty.audit import compare
from enotty.audit import table

TABLE = "".join("\t".join(cells) + "\n" for cells in [
    ("drivers/block/floppy.c", "audit", "-", "-", "-", "-", "/dev/fd0", "floppy"),
    ("fs/pipe.c", "audit", "-", "-", "-", "-", "pipe:*", "pipe2 fd"),
    ("drivers/char/random.c", "audit", "-", "-", "-", "-", "/dev/random", "always built"),
    ("drivers/char/lp.c", "audit", "-", "-", "-", "-", "/dev/lp0", "parport"),
    ("arch/sparc/kernel/apc.c", "skip", "-", "-", "-", "-", "-", "sparc"),
])
ROWS = table.parse_table(TABLE)


def claim(source: str, patch: str, visible: bool = True, series: str = "s") -> compare.Claim:
    return compare.Claim(source=source, patch=f"{series}/{patch}", series=series,
                    functions=("f",), visible=visible, old=("EINVAL",) if visible else ())


def answers(spec: list[tuple[str, str, str, str]], harmless: str = "harmless") -> list[compare.Answer]:
    """(target, command, abi, result) tuples; the command named `harmless`
    is the smoke check."""
    return [compare.Answer(target=t, driver=None, command=c, abi=a, harmless=c == harmless, result=r)
            for t, c, a, r in spec]


def test_compare_joins_on_target_command_abi_and_names_source_and_patch():
    before = answers([("/dev/fd0", "foreign", "native", "EINVAL"),
                      ("/dev/fd0", "foreign", "compat", "EINVAL"),
                      ("/dev/null", "foreign", "native", "ENOTTY")])
    after = answers([("/dev/fd0", "foreign", "native", "ENOTTY"),
                     ("/dev/fd0", "foreign", "compat", "EINVAL"),
                     ("/dev/null", "foreign", "native", "ENOTTY")])
    claims = {"drivers/block/floppy.c": claim("drivers/block/floppy.c", "0001-floppy.patch")}
    lines = compare.compare(before, after, ROWS, claims)
    by = {(ln.target, ln.abi): ln for ln in lines}
    assert by[("/dev/fd0", "native")].tsv() == (
        "/dev/fd0\tdrivers/block/floppy.c\tf\tforeign\tnative\tEINVAL\tENOTTY\ts/0001-floppy.patch")
    assert by[("/dev/null", "native")].source == "-" and by[("/dev/null", "native")].patch == "-"
    assert compare.problems(lines, claims) == []
    assert compare.write_tsv(lines).splitlines()[0] == (
        "target\tsource\tfunction\tcommand\tabi\tbefore\tafter\tpatch")


def test_another_guests_lines_carry_its_name_and_keep_the_columns():
    before = answers([("/dev/fd0", "foreign", "native", "EINVAL")])
    after = answers([("/dev/fd0", "foreign", "native", "ENOTTY")])
    claims = {"drivers/block/floppy.c": claim("drivers/block/floppy.c", "0001-floppy.patch")}
    x86 = compare.compare(before, after, ROWS, claims)
    other = compare.compare(before, after, ROWS, claims, prefix="[s390x] ")
    assert [ln.target for ln in other] == ["[s390x] /dev/fd0"]
    assert other[0].tsv() == "[s390x] " + x86[0].tsv()
    # Both guests' lines in one audit.tsv: no (target, command, abi) twice.
    assert len({(ln.target, ln.command, ln.abi) for ln in x86 + other}) == 2
    assert compare.problems(x86 + other, claims) == []


def test_negative_control_untouched_target_changed_is_reported():
    before = answers([("/dev/random", "own", "native", "EINVAL"),
                      ("/dev/null", "own", "native", "ENOTTY")])
    after = answers([("/dev/random", "own", "native", "ENOTTY"),
                     ("/dev/null", "own", "native", "EINVAL")])
    lines = compare.compare(before, after, ROWS, claims={})
    found = compare.problems(lines, {})
    assert len(found) == 2
    assert "drivers/char/random.c is not patched" in found[1] or \
        "drivers/char/random.c is not patched" in found[0]
    assert any("/dev/null" in p and "its source is unknown" in p for p in found)


def test_negative_control_claimed_change_with_no_measured_change_is_reported():
    claims = {"drivers/block/floppy.c": claim("drivers/block/floppy.c", "0001-floppy.patch")}
    same = answers([("/dev/fd0", "foreign", "native", "EINVAL"),
                    ("/dev/fd0", "own", "compat", "EINVAL")])
    found = compare.problems(compare.compare(same, same, ROWS, claims), claims)
    assert found == ["s/0001-floppy.patch: claims a user-visible change in drivers/block/floppy.c, "
                     "but every probe of /dev/fd0 answers the same before and after (EINVAL)"]


def test_a_conditional_claim_with_no_measured_change_is_no_problem():
    # the message says a state check answers first (ppdev: an unclaimed port)
    claims = {"drivers/char/ppdev.c": dataclasses.replace(
        claim("drivers/char/ppdev.c", "0005-ppdev.patch"), conditional=True)}
    same = answers([("/dev/parport0", "foreign", "native", "EINVAL")])
    assert compare.problems(compare.compare(same, same, ROWS, claims), claims) == []


def test_leaf_cleanup_that_changes_an_answer_is_reported_and_one_that_does_not_passes():
    claims = {"fs/pipe.c": claim("fs/pipe.c", "0002-pipe.patch", visible=False)}
    same = answers([("pipe:0", "foreign", "native", "ENOTTY")])
    assert compare.problems(compare.compare(same, same, ROWS, claims), claims) == []
    after = answers([("pipe:0", "foreign", "native", "EINVAL")])
    found = compare.problems(compare.compare(same, after, ROWS, claims), claims)
    assert len(found) == 1 and "changes nothing user space sees" in found[0]


def test_harmless_command_change_is_reported_even_for_a_patched_source():
    claims = {"drivers/block/floppy.c": claim("drivers/block/floppy.c", "0001-floppy.patch")}
    before = answers([("/dev/fd0", "harmless", "native", "0"),
                      ("/dev/fd0", "foreign", "native", "EINVAL")])
    after = answers([("/dev/fd0", "harmless", "native", "EIO"),
                     ("/dev/fd0", "foreign", "native", "ENOTTY")])
    found = compare.problems(compare.compare(before, after, ROWS, claims), claims)
    assert found == ["/dev/fd0 (native, harmless): the known harmless command changed its "
                     "answer 0 -> EIO"]


def test_target_seen_in_one_boot_only_is_missing_not_a_silent_pass():
    claims = {"drivers/block/floppy.c": claim("drivers/block/floppy.c", "0001-floppy.patch")}
    lines = compare.compare(answers([("/dev/fd0", "foreign", "native", "EINVAL")]), [], ROWS, claims)
    assert (lines[0].before, lines[0].after) == ("EINVAL", "missing")
    assert compare.one_boot_only(lines) == ["/dev/fd0: seen in the pristine boot only"]
    statuses = compare.source_statuses(claims, ROWS, lines, {}, {})
    assert not statuses["drivers/block/floppy.c"].audited


def test_statuses_and_audit_md_say_why_a_file_was_left_out():
    claims = {
        "drivers/block/floppy.c": claim("drivers/block/floppy.c", "0001-floppy.patch"),
        "arch/sparc/kernel/apc.c": claim("arch/sparc/kernel/apc.c", "0002-apc.patch"),
        "drivers/char/lp.c": claim("drivers/char/lp.c", "0003-lp.patch"),
        "drivers/char/random.c": claim("drivers/char/random.c", "0004-random.patch"),
        "drivers/x/new.c": claim("drivers/x/new.c", "0005-new.patch"),
    }
    before = answers([("/dev/fd0", "foreign", "native", "EINVAL")])
    after = answers([("/dev/fd0", "foreign", "native", "ENOTTY")])
    lines = compare.compare(before, after, ROWS, claims)
    st = compare.source_statuses(claims, ROWS, lines, {"drivers/char/lp.c": ["CONFIG_PRINTER: x"]}, {})
    assert st["drivers/block/floppy.c"].audited
    assert st["arch/sparc/kernel/apc.c"].why == "sparc"
    assert st["drivers/char/lp.c"].why.startswith("Kconfig dropped CONFIG_PRINTER")
    assert st["drivers/char/random.c"].why.startswith("not instantiated: no probe target matched")
    assert st["drivers/x/new.c"].why == "not in selftests/audit/instantiate.tsv"
    md = compare.audit_md("6.12.118", {"s": sorted(c.patch for c in claims.values())}, claims, st, [],
                     "note")
    assert "Patched source files: 5; audited at runtime: 1." in md
    assert "1 of 5 patches audited." in md
    assert "drivers/block/floppy.c: audited (floppy): /dev/fd0 native: EINVAL -> ENOTTY" in md
    assert "arch/sparc/kernel/apc.c: not audited: sparc" in md


def test_partial_change_is_a_note_not_a_problem():
    claims = {"drivers/block/floppy.c": claim("drivers/block/floppy.c", "0001-floppy.patch")}
    before = answers([("/dev/fd0", "foreign", "native", "EINVAL"),
                      ("/dev/fd0", "foreign", "compat", "EINVAL")])
    after = answers([("/dev/fd0", "foreign", "native", "EINVAL"),
                     ("/dev/fd0", "foreign", "compat", "ENOTTY")])
    lines = compare.compare(before, after, ROWS, claims)
    assert compare.problems(lines, claims) == []
    assert compare.partial(lines, claims) == [
        "s/0001-floppy.patch: /dev/fd0 (native, foreign) still answers EINVAL"]


def test_a_patched_handler_answering_other_than_enotty_after_fails_unless_excused():
    # ppdev's own command still EINVAL natively after the series: a problem
    # naming the handler; the compat answer ENOTTY and the presetup (before
    # PPCLAIM) EINVAL are no problem
    rows = table.parse_table(
        "drivers/char/ppdev.c\taudit\t-\t-\t-\t-\t/dev/parport0+ppclaim\tport\n")
    claims = {"drivers/char/ppdev.c": claim("drivers/char/ppdev.c", "0006-ppdev.patch")}
    before = answers([("/dev/parport0", "own:PP_UNUSED", "native", "EINVAL"),
                      ("/dev/parport0", "own:PP_UNUSED", "compat", "EINVAL"),
                      ("/dev/parport0", "foreign:FOREIGN_E1_FE", "native", "EINVAL"),
                      ("/dev/parport0", "presetup:PP_UNUSED", "native", "EINVAL")])
    after = answers([("/dev/parport0", "own:PP_UNUSED", "native", "EINVAL"),
                     ("/dev/parport0", "own:PP_UNUSED", "compat", "ENOTTY"),
                     ("/dev/parport0", "foreign:FOREIGN_E1_FE", "native", "ENOTTY"),
                     ("/dev/parport0", "presetup:PP_UNUSED", "native", "EINVAL")])
    lines = compare.compare(before, after, rows, claims)
    (problem,) = compare.not_enotty(lines, claims, [])
    assert problem.startswith("f (drivers/char/ppdev.c) answers an unknown command with "
                              "something else than ENOTTY after s/0006-ppdev.patch")
    assert "/dev/parport0 own/native=EINVAL" in problem and "compat" not in problem
    # the presetup line keeps its old answer and is no partial change either
    assert not any("presetup" in n for n in compare.partial(lines, claims))
    exceptions = table.parse_exceptions(
        "drivers/char/ppdev.c\t/dev/parport*\town\tnative\tneeds a claimed port\n")
    assert compare.not_enotty(lines, claims, exceptions) == []
    md = compare.exceptions_md(lines, exceptions)
    assert md[0] == "## Exceptions"
    assert "- drivers/char/ppdev.c: /dev/parport* (own, native: native EINVAL): needs a claimed port" in md
    # an exception for the other ABI does not cover it
    other = table.parse_exceptions(
        "drivers/char/ppdev.c\t/dev/parport*\town\tcompat\tneeds a claimed port\n")
    assert len(compare.not_enotty(lines, claims, other)) == 1


def test_unpatched_targets_and_unlikely_commands_are_not_held_to_enotty():
    before = answers([("/dev/null", "own:X", "native", "EINVAL"),
                      ("/dev/lp0", "unlikely:UNLIKELY_D6_FD", "native", "EINVAL")])
    after = answers([("/dev/null", "own:X", "native", "EINVAL"),
                     ("/dev/lp0", "unlikely:UNLIKELY_D6_FD", "native", "EINVAL")])
    claims = {"drivers/char/lp.c": claim("drivers/char/lp.c", "0004-lp.patch")}
    lines = compare.compare(before, after, ROWS, claims)
    assert compare.not_enotty(lines, claims, []) == []


def test_tsv_columns_are_the_readers():
    from ..render.messages import AUDIT_COLUMNS
    assert compare.TSV_HEADER.split("\t") == list(AUDIT_COLUMNS)


def test_a_handler_left_out_in_a_patched_file_is_not_the_patch_s():
    # userfaultfd: the series changes userfaultfd_dev_ioctl(); the judge
    # left userfaultfd_ioctl() of the same file out, so its EINVAL is no
    # problem and its lines name no patch, but a change there would be one
    rows = table.parse_table("fs/userfaultfd.c\taudit\t-\t-\t-\t-\t"
                             "userfaultfd:*=userfaultfd_ioctl /dev/userfaultfd=userfaultfd_dev_ioctl\tuffd\n")
    claims = {"fs/userfaultfd.c": dataclasses.replace(claim("fs/userfaultfd.c", "0001-userfaultfd.patch"),
                                                      functions=("userfaultfd_dev_ioctl",))}
    before = answers([("/dev/userfaultfd", "foreign", "native", "EINVAL"),
                      ("userfaultfd:new", "foreign", "native", "EINVAL")])
    after = answers([("/dev/userfaultfd", "foreign", "native", "ENOTTY"),
                     ("userfaultfd:new", "foreign", "native", "EINVAL")])
    lines = compare.compare(before, after, rows, claims)
    by = {ln.target: ln for ln in lines}
    assert by["/dev/userfaultfd"].patch == "s/0001-userfaultfd.patch"
    assert by["userfaultfd:new"].patch == "-"
    assert compare.not_enotty(lines, claims, []) == []
    assert compare.problems(lines, claims) == [] and compare.partial(lines, claims) == []
    changed = answers([("/dev/userfaultfd", "foreign", "native", "ENOTTY"),
                       ("userfaultfd:new", "foreign", "native", "ENOTTY")])
    (problem,) = compare.problems(compare.compare(before, changed, rows, claims), claims)
    assert problem.endswith("but no applied patch touches it (userfaultfd_ioctl() in fs/userfaultfd.c is not patched)")
