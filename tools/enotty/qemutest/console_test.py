"""Console log parsing: sections, TAP, v4l2-compliance, crashes, verdict."""
from __future__ import annotations

from ..kernel import tap
from enotty.kernel import qemu
from enotty.qemutest import console as guest_console

TAP_OK = """\
TAP version 13
1..3
# Starting 3 tests from 2 test cases.
#  RUN           node.vid_cap.unknown_own_range ...
#            OK  node.vid_cap.unknown_own_range
ok 1 node.vid_cap.unknown_own_range
ok 2 node.fb.good_argument # SKIP no fb node of vivid/vimc
ok 3 node.cec.good_argument
# PASSED: 3 / 3 tests passed.
# Totals: pass:2 fail:0 xfail:0 xpass:0 skip:1 error:0
"""

TAP_FAIL = """\
TAP version 13
1..2
# ioctl_errno.c:476:unknown_own_range:Expected t->expect (25) == got (22)
not ok 1 node.fb.unknown_own_range
ok 2 node.fb.good_argument
# FAILED: 1 / 2 tests passed.
# Totals: pass:1 fail:1 xfail:0 xpass:0 skip:0 error:0
"""

COMPLIANCE = """\
v4l2-compliance 1.22.1, 64 bits, 64-bit time_t
Compliance test for vivid device /dev/video0:
\x1b[1mRequired ioctls:\x1b[0m
\ttest VIDIOC_QUERYCAP: \x1b[32mOK\x1b[0m
\ttest invalid ioctls: \x1b[32mOK\x1b[0m
Total for vivid device /dev/video0: 113, Succeeded: 89, Failed: 24, Warnings: 0
"""


def frame(kind: str, name: str, body: str, rc: int | None = 0) -> str:
    out = f"ENOTTY-QEMU: BEGIN {kind} {name}\n{body}"
    if rc is not None:
        out += f"ENOTTY-QEMU: END {kind} {name} rc={rc}\n"
    return out


def console(*parts: str, done: bool = True) -> str:
    text = "Linux version 6.12.118\r\nRun /init as init process\r\n" + "".join(parts)
    if done:
        text += "ENOTTY-QEMU: DONE\n"
    return text.replace("\n", "\r\n")     # the serial console's line ends


RESULT_OK = "ok 1 selftests: drivers/media: ioctl_errno.sh"


def kselftest(programs: dict[str, str], result: str = RESULT_OK) -> str:
    """run_kselftest.sh's output around the wrapper's: each line the test
    prints prefixed with "# ", the wrapper's "# running NAME" before each
    program, the runner's own verdict last."""
    body = "TAP version 13\n1..1\n# timeout set to 400\n# selftests: drivers/media: ioctl_errno.sh\n"
    for name, out in programs.items():
        body += f"# # running {name}\n" + "".join(f"# {line}\n" for line in out.splitlines())
    return frame("kselftest", "run_kselftest.sh", body + result + "\n")


def good_console() -> str:
    return console(kselftest({"ioctl_errno": TAP_OK, "ioctl_errno_32": TAP_OK}),
                   frame("compliance", "vivid-000-vid-cap", COMPLIANCE, rc=1))


def test_sections_strip_carriage_returns_and_keep_order():
    secs = guest_console.sections(good_console())
    assert [(s.kind, s.name, s.rc) for s in secs] == [
        ("kselftest", "run_kselftest.sh", 0), ("compliance", "vivid-000-vid-cap", 1)]
    assert secs[0].lines[0] == "TAP version 13"


def test_unterminated_section_has_no_rc():
    secs = guest_console.sections(console(frame("selftest", "ioctl_errno", TAP_OK, rc=None)))
    assert secs[0].rc is None


def test_kselftest_programs_are_unprefixed_and_split_by_the_wrapper():
    sec = guest_console.sections(good_console())[0]
    progs = guest_console.kselftest_programs(sec.lines)
    assert [name for name, _lines in progs] == ["ioctl_errno", "ioctl_errno_32"]
    assert progs[1][1] == TAP_OK.splitlines()
    assert guest_console.kselftest_results(sec.lines) == {
        "selftests: drivers/media: ioctl_errno.sh": "pass"}


def test_parse_tap_statuses_and_totals():
    got = tap.read(qemu.console_lines(TAP_OK))
    assert got.cases == {"node.vid_cap.unknown_own_range": "pass",
                         "node.fb.good_argument": "skip", "node.cec.good_argument": "pass"}
    assert got.totals == {"pass": 2, "fail": 0, "xfail": 0, "xpass": 0, "skip": 1, "error": 0}
    fail = tap.read(qemu.console_lines(TAP_FAIL))
    assert fail.cases["node.fb.unknown_own_range"] == "fail"
    assert fail.totals["fail"] == 1


def test_parse_tap_ignores_harness_chatter():
    got = tap.read(["#  RUN  node.x ...", "#  OK  node.x", "okay then"])
    assert got.cases == {} and got.totals is None


def test_parse_compliance_strips_colours():
    res = guest_console.parse_compliance(qemu.console_lines(COMPLIANCE))
    assert (res.total, res.failed, res.warnings, res.invalid_ioctls) == (113, 24, 0, "OK")


def test_parse_compliance_one_fail_among_inputs_wins():
    res = guest_console.parse_compliance(["\ttest invalid ioctls: OK",
                                     "\ttest invalid ioctls: FAIL",
                                     "\ttest invalid ioctls: OK"])
    assert res.invalid_ioctls == "FAIL"


def test_find_crash():
    assert guest_console.find_crash(good_console()) is None
    text = console("[    1.0] WARNING: CPU: 0 PID: 1 at drivers/media/x.c:1 f+0x1/0x2\n")
    assert guest_console.find_crash(text).startswith("WARNING: CPU: 0")
    assert "Kernel panic" in guest_console.find_crash("Kernel panic - not syncing: x\r\n")


def test_changed_cases():
    before = {"a": "pass", "b": "fail", "c": "skip"}
    after = {"a": "pass", "b": "pass", "d": "fail"}
    assert guest_console.changed_cases(before, after) == [
        ("b", "fail", "pass"), ("c", "skip", "absent"), ("d", "absent", "fail")]


def test_selftest_cases_prefix_the_binary():
    cases = guest_console.selftest_cases(guest_console.sections(good_console()))
    assert cases["ioctl_errno_32:node.cec.good_argument"] == "pass"
    assert len(cases) == 6


EXPECTED = ("ioctl_errno", "ioctl_errno_32")


def test_judge_pass():
    verdict = guest_console.judge(good_console(), 1, EXPECTED, {"vivid-000-vid-cap": 24})
    assert verdict.ok, verdict.reasons


def test_judge_not_ok_line():
    text = console(kselftest({"ioctl_errno": TAP_FAIL, "ioctl_errno_32": TAP_OK},
                             "not ok 1 selftests: drivers/media: ioctl_errno.sh # exit=1"))
    verdict = guest_console.judge(text, 1, EXPECTED)
    assert not verdict.ok
    assert "selftest ioctl_errno: not ok node.fb.unknown_own_range" in verdict.reasons
    assert "run_kselftest.sh: selftests: drivers/media: ioctl_errno.sh # exit=1: fail" in verdict.reasons


def test_judge_a_skipped_kselftest_fails():
    """The guest has vivid and vimc: a wrapper that could not load them fails the run."""
    text = console(kselftest({}, RESULT_OK + " # SKIP"))
    verdict = guest_console.judge(text, 1, EXPECTED)
    assert "run_kselftest.sh: selftests: drivers/media: ioctl_errno.sh: skip" in verdict.reasons
    assert "selftest ioctl_errno did not run" in verdict.reasons
    assert guest_console.judge(console(), 1, ()).reasons == ["run_kselftest.sh did not run"]


def test_judge_hang_and_panic():
    hung = guest_console.judge(console(frame("kselftest", "run_kselftest.sh", "TAP version 13\n", rc=None),
                                       done=False), None, EXPECTED)
    assert any("hung" in r for r in hung.reasons)
    panic = guest_console.judge("Kernel panic - not syncing: No working init found.\r\n", 0,
                           EXPECTED)
    assert any("isa-debug-exit" in r for r in panic.reasons)
    assert any("Kernel panic" in r for r in panic.reasons)
    assert any("did not run" in r for r in panic.reasons)


def test_judge_missing_totals_means_crashed_selftest():
    body = "TAP version 13\n1..2\nok 1 node.a\n"
    text = console(kselftest({"ioctl_errno": body, "ioctl_errno_32": TAP_OK}))
    verdict = guest_console.judge(text, 1, EXPECTED)
    assert verdict.reasons == ["selftest ioctl_errno printed no totals line (crashed?)"]


def test_judge_compliance_invalid_ioctls_and_baseline():
    bad = COMPLIANCE.replace("invalid ioctls: \x1b[32mOK", "invalid ioctls: \x1b[31mFAIL")
    bad = bad.replace("Failed: 24", "Failed: 25")
    text = console(kselftest({"ioctl_errno": TAP_OK, "ioctl_errno_32": TAP_OK}),
                   frame("compliance", "vivid-000-vid-cap", bad, rc=1))
    verdict = guest_console.judge(text, 1, EXPECTED, {"vivid-000-vid-cap": 24})
    assert verdict.reasons == [
        "v4l2-compliance vivid-000-vid-cap: test invalid ioctls: FAIL",
        "v4l2-compliance vivid-000-vid-cap: 25 failures, pristine kernel had 24"]
    # Without a baseline only the invalid-ioctls verdict counts.
    assert len(guest_console.judge(text, 1, EXPECTED).reasons) == 1


def test_compliance_failures():
    assert guest_console.compliance_failures(good_console()) == {"vivid-000-vid-cap": 24}
