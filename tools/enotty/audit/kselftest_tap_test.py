"""kselftest_tap on recorded consoles and on small TAP texts.

testdata/kselftest-epoll_busy_poll-{pristine,mutant}.log are the sections
two real audit boots printed: the pristine reduced audit kernel, and the
same kernel with mutant-epoll.patch (ep_eventpoll_ioctl() answering
ENOTTY), where test_invalid_ioctl fails.
"""
from pathlib import Path

from enotty.audit import bootlog
from enotty.audit import kselftest_tap
from enotty.audit import kselftests

DATA = Path(__file__).resolve().parent / "testdata"
EPOLL = kselftests.parse("epoll_busy_poll\tcontrol\tfs/eventpoll.c\t-\tnet/epoll_busy_poll.c\t"
                         "net/epoll_busy_poll.c -lcap\tepoll_busy_poll\t60\tcontrol\n")
PLAIN = kselftests.parse("dma\trun\tkernel/dma/map_benchmark.c\t-\tdma/*\tdma/d.c\td -s 1\t60\tx\n")


def recorded(side: str) -> dict[str, kselftest_tap.Run]:
    text = (DATA / f"kselftest-epoll_busy_poll-{side}.log").read_text()
    return kselftest_tap.runs(bootlog.parse_boot(text).sections)


def section(name: str, body: str, rc: int | None) -> dict[str, kselftest_tap.Run]:
    end = f"ENOTTY-AUDIT: END kselftest {name} rc={rc} secs=3\n" if rc is not None else ""
    text = f"ENOTTY-AUDIT: BEGIN kselftest {name}\n{body}{end}"
    return kselftest_tap.runs(bootlog.parse_boot(text).sections)


def test_recorded_pristine_run_passes_every_case():
    run = recorded("pristine")["epoll_busy_poll"]
    assert run.status == "pass"
    assert run.cases["epoll_busy_poll.test_invalid_ioctl"] == "pass"
    assert len(run.cases) == 5 and set(run.cases.values()) == {"pass"}


def test_recorded_mutant_fails_the_verdict_on_the_one_case():
    before, after = recorded("pristine"), recorded("mutant")
    assert after["epoll_busy_poll"].status == "fail"
    assert after["epoll_busy_poll"].cases["epoll_busy_poll.test_invalid_ioctl"] == "fail"
    (problem,) = kselftest_tap.problems(EPOLL, before, after)
    assert problem.startswith("kselftest epoll_busy_poll: epoll_busy_poll.test_invalid_ioctl "
                              "passes on the pristine kernel and fails with the series")
    assert problem.endswith("fs/eventpoll.c is touched by no patch (a control): find the "
                            "change that broke it")
    # a run row points at the patch that must update the test
    (run_row,) = kselftests.parse("epoll_busy_poll\trun\tfs/eventpoll.c\t-\tnet/*\tn.c\tn\t9\tx\n")
    (problem,) = kselftest_tap.problems([run_row], before, after)
    assert problem.endswith("update the test in the patch of fs/eventpoll.c, or leave the site "
                            "alone (SUMMARY.md)")
    # the other way round (fails before, passes after) is no problem
    assert kselftest_tap.problems(EPOLL, after, before) == []
    assert kselftest_tap.problems(EPOLL, before, before) == []


def test_skip_directives_and_unnamed_cases():
    runs = section("t", "TAP version 13\n1..4\nok 1 a\nok 2 b # SKIP no hugetlb\n"
                        "ok 3 # SKIP Please run this test as root\nnot ok 4\n", 1)
    assert runs["t"].cases == {"a": "pass", "b": "skip",
                               "Please run this test as root": "skip", "#4": "fail"}
    # AUDIT.md's summary has no seconds (a committed file must not change
    # with the machine's speed); the log's has them
    assert runs["t"].summary() == "fail (1 pass, 1 fail, 2 skip, exit 1)"
    assert runs["t"].summary(timed=True) == "fail (1 pass, 1 fail, 2 skip, exit 1, 3 s)"


def test_a_case_that_vanishes_after_a_timeout_is_a_problem():
    before = section("epoll_busy_poll", "ok 1 a\nok 2 b\n", 0)
    after = section("epoll_busy_poll", "ok 1 a\n", 143)
    assert after["epoll_busy_poll"].status == "timeout"
    (problem,) = kselftest_tap.problems(EPOLL, before, after)
    assert "b passes on the pristine kernel and did not report (timeout" in problem


def test_a_program_without_tap_is_judged_by_its_exit_status():
    before = section("dma", "dma mapping benchmark: 1 s\n", 0)
    assert kselftest_tap.problems(PLAIN, before, section("dma", "", 0)) == []
    (problem,) = kselftest_tap.problems(PLAIN, before, section("dma", "", 255))
    assert problem.startswith("kselftest dma: passes on the pristine kernel, fail (no TAP, exit 255")
    # a guest that stopped inside the test: unfinished, a problem too
    assert kselftest_tap.problems(PLAIN, before, section("dma", "", None))
    # a test that skips after (KSFT_SKIP) is a note's matter, not a failure
    assert kselftest_tap.problems(PLAIN, before, section("dma", "", 4)) == []
    # and one the patched boot never ran
    assert kselftest_tap.problems(PLAIN, before, {}) == [
        "kselftest dma: passes on the pristine kernel and did not run with the series"]


def test_pass_to_skip_is_a_note():
    before = section("epoll_busy_poll", "ok 1 a\n", 0)
    after = section("epoll_busy_poll", "ok 1 a # SKIP gone\n", 0)
    assert kselftest_tap.problems(EPOLL, before, after) == []
    assert kselftest_tap.notes(EPOLL, before, after) == [
        "kselftest epoll_busy_poll: a passed on the pristine kernel and skips with the series"]


def test_md_section_lists_runs_and_the_ones_left_out():
    before, after = recorded("pristine"), recorded("mutant")
    sel = kselftests.Selection(run=list(EPOLL), not_run=[(PLAIN[0], "needs X")])
    found = kselftest_tap.problems(EPOLL, before, after)
    md = "\n".join(kselftest_tap.md_section(sel, before, after, found))
    assert "| epoll_busy_poll | fs/eventpoll.c (untouched control) | pass (5 pass, 0 fail, exit 0" in md
    assert "- problem: kselftest epoll_busy_poll: epoll_busy_poll.test_invalid_ioctl" in md
    assert "- dma (kernel/dma/map_benchmark.c): needs X" in md
