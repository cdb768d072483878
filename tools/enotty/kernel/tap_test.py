"""tap: the TAP lines kselftest.h and kselftest_harness.h print."""
from __future__ import annotations

from . import tap


def test_cases_verdicts_and_directives():
    lines = ["TAP version 13", "1..6", "ok 1 node.a", "not ok 2 node.b",
             "ok 3 node.c # SKIP no such node", "ok 4 # SKIP no userfaultfd",
             "not ok 5 node.e # XFAIL known", "ok 6 node.f # error setup"]
    assert tap.cases(lines) == {"node.a": "pass", "node.b": "fail", "node.c": "skip",
                                "no userfaultfd": "skip", "node.e": "xfail", "node.f": "error"}


def test_cases_nested_repeated_and_unnamed():
    got = tap.cases(["  ok 1 sub", "ok 2 sub", "not ok 3", "okay then", "#  OK  node.x"])
    assert got == {"sub": "pass", "sub #2": "pass", "#3": "fail"}


def test_totals_last_line_or_none():
    assert tap.totals(["ok 1 a"]) is None
    got = tap.totals(["# Totals: pass:2 fail:1 xfail:0 xpass:0 skip:3 error:0"])
    assert got == {"pass": 2, "fail": 1, "xfail": 0, "xpass": 0, "skip": 3, "error": 0}
