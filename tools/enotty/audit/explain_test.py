"""Tests for explaining every non-ENOTTY answer to an unknown command."""
from __future__ import annotations

from pathlib import Path

import pytest

from . import explain
from .compare import Claim, Line
from .table import Exception_, TableError
from ..find.scan import ScanResult
from ..find.sites import Site
from ..judge import analysis, handlers

# a tree whose tools/testing/selftests/net/epoll_busy_poll.c expects
# ep_eventpoll_ioctl()'s EINVAL for an unknown command
TREE = Path(__file__).parents[1] / "testdata" / "effects" / "tree"


def line(target: str, after: str, source: str = "-", function: str = "-",
         command: str = "foreign:FOREIGN_E1_FE", harmless: bool = False) -> Line:
    return Line(target=target, source=source, function=function, command=command, abi="native",
                before=after, after=after, patch="-", harmless=harmless)


ANSWERS = explain.parse_answers("# target\tanswer\treason\n"
                                "/dev/ttyS*\tEIO\tno UART behind the port\n"
                                "*/dev/z90crypt\t*\tthe permission bitmap answers first\n")


def test_each_non_enotty_answer_is_explained_or_a_miss(tmp_path: Path) -> None:
    handlers = tmp_path / "handlers.tsv"
    handlers.write_text("file\thandler\tfunctions\tsites\tseries\tverdict\tleft\n"
                        "fs/userfaultfd.c\tuserfaultfd_ioctl\tuserfaultfd_ioctl\t1\t-\tleft out\t"
                        "a state check answers -EINVAL first\n"
                        "fs/a.c\ta_ioctl\ta_ioctl\t1\tfs\tconverted\t-\n")
    claims = {"drivers/x.c": Claim("drivers/x.c", "s/0001-x.patch", "s", ("x_ioctl",), True, ("EINVAL",))}
    exceptions = [Exception_("drivers/x.c", "/dev/x", "own", "*", "needs a handshake")]
    lines = [line("/dev/null", "ENOTTY"),
             line("/dev/ttyS1", "EIO"), line("/dev/ttyS1", "0", command="smoke:TCGETS", harmless=True),
             line("[s390x] /dev/z90crypt", "EPERM", command="own:ZCRYPT_UNUSED"),
             line("userfaultfd:new", "EINVAL", "fs/userfaultfd.c", "userfaultfd_ioctl"),
             line("/dev/x", "EBUSY", "drivers/x.c", "x_ioctl", command="own:X_UNUSED"),
             line("/dev/iio:device0", "ENODEV"), line("/dev/gone", "-")]
    found = explain.explain(lines, claims, exceptions, explain.left_out(handlers), ANSWERS)
    kinds = {e.line.target: e.kind for e in found}
    assert kinds == {"/dev/ttyS1": "answers.tsv", "[s390x] /dev/z90crypt": "answers.tsv",
                     "userfaultfd:new": "left out", "/dev/x": "exception",
                     "/dev/iio:device0": "unexplained"}
    assert explain.counts(found, explain.asked(lines)) == {
        "asked": 6, "not ENOTTY": 5, "exception": 1, "left out": 1, "not applied": 0, "answers.tsv": 2,
        "unexplained": 1}
    problems = explain.problems(found)
    assert len(problems) == 1 and problems[0].startswith("/dev/iio:device0 (native, foreign:FOREIGN_E1_FE)"
                                                          " answers ENODEV after the series")
    md = "\n".join(explain.markdown(found, explain.asked(lines)))
    assert "unexplained: 1." in md and "/dev/ttyS1: EIO (answers.tsv: no UART behind the port)" in md


def test_a_handler_an_in_tree_test_keeps_out_explains_its_einval(tmp_path: Path) -> None:
    ep = Site("fs/eventpoll.c", 16, "ep_eventpoll_ioctl", "file_operations.unlocked_ioctl",
              "EINVAL", "ENOTTY", "ioctl_default_assign")
    scanned = ScanResult(TREE, TREE, [ep], {}, [], [], 1, 1, 0, 0, 0, 0.0, 0.0)
    judged = analysis.analyse(TREE, scanned)
    tsv = tmp_path / "handlers.tsv"
    with open(tsv, "w") as fh:
        handlers.write_tsv(judged.model, {}, fh)
    probe = line("epoll:new", "EINVAL", "fs/eventpoll.c", "ep_eventpoll_ioctl")
    (found,) = explain.explain([probe], {}, [], explain.left_out(tsv), [])
    assert (found.kind, found.reason) == ("left out", "tools/testing/selftests/net/epoll_busy_poll.c expects EINVAL")
    # a file no applied patch touches: the line names no function
    unpatched = line("epoll:new", "EINVAL", "fs/eventpoll.c", "-")
    (found,) = explain.explain([unpatched], {}, [], explain.left_out(tsv), [])
    assert found.kind == "left out"


def test_answers_table_needs_a_reason() -> None:
    with pytest.raises(TableError, match="needs a reason"):
        explain.parse_answers("/dev/x\tEINVAL\t-\n")


def test_the_committed_answers_table_parses() -> None:
    rows = explain.load_answers()
    assert rows and all(r.reason for r in rows)


def test_a_series_the_run_does_not_apply_explains_its_files_answer() -> None:
    # make audit SERIES=random-number-driver: serport's series is not
    # applied, so its ldisc still answers EINVAL in the patched boot
    probe = line("pty-ldisc:serport", "EINVAL", "drivers/input/serio/serport.c", "serport_ldisc_ioctl")
    (found,) = explain.explain([probe], {}, [], {}, [],
                               {"drivers/input/serio/serport.c": "input"})
    assert found.kind == "not applied" and "the series input" in found.reason
    (alone,) = explain.explain([probe], {}, [], {}, [])
    assert alone.kind == "unexplained"
    md = "\n".join(explain.markdown([found], 1))
    assert "1 from series this run does not apply" in md
