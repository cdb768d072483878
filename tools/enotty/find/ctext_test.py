"""Tests for enotty.find.ctext, the one reader of C text."""
from __future__ import annotations

import re

import pytest

from . import ctext

SOURCE = """\
int f(int cmd) /* a { brace */
{
	char *s = "}{";   // } here too
	char c = '{';
#define X(a) \\
	{ a }
	return 0;
}
"""


def test_blank_lexemes_keeps_offsets_and_lines():
    out = ctext.blank_lexemes(SOURCE)
    assert len(out) == len(SOURCE) and out.count("\n") == SOURCE.count("\n")
    assert "brace" not in out and "here" not in out
    assert out.count("{") == 2          # the body, and that of the #define
    assert '"' not in out and "'" not in out


def test_blank_lexemes_keeping_quotes_leaves_an_expression():
    out = ctext.blank_lexemes(SOURCE, keep_quotes=True)
    assert 'char *s = "  ";' in out
    assert "char c = 0  ;" in out
    # A quote that does not close on its line starts no string.
    assert ctext.blank_lexemes("#error don't\nint x;\n") == "#error don't\nint x;\n"


def test_blank_directives_with_continuations():
    out = ctext.blank_directives(ctext.blank_lexemes(SOURCE))
    assert "define" not in out and "{ a }" not in out
    assert out.count("{") == 1 and out.count("\n") == SOURCE.count("\n")


def test_blank_directives_drops_dead_branches():
    text = "#if 0\nint a;\n#else\nint b;\n#endif\n#ifdef X\nint c;\n#else\nint d;\n#endif\n"
    out = ctext.blank_directives(text, dead_branches=True)
    assert "b;" in out and "c;" in out and "a;" not in out and "d;" not in out
    assert out.count("\n") == text.count("\n")
    # Without dead_branches, every branch stays.
    assert "a;" in ctext.blank_directives(text) and "d;" in ctext.blank_directives(text)


def test_code_only_follows_a_comment_across_lines():
    assert ctext.code_only("a /* b", False) == ("a  ", True)
    assert ctext.code_only("c */ d", True) == ("  d", False)
    assert ctext.code_only('x = "a // b"; // c', False) == ("x =  ;  ", False)


def test_comment_text_collects_the_block():
    lines = ["/*", " * user space relies", " */", "return -EINVAL; // here"]
    assert "user space" in ctext.comment_text(lines, 2)
    assert ctext.comment_text(lines, 3).strip() == "here"


def test_lines_and_offsets():
    lines = ctext.Lines("a\nbc\n\nd")
    assert [lines(i) for i in (0, 1, 2, 4, 5, 6)] == [1, 1, 2, 2, 3, 4]
    assert lines.offset(2) == 2 and lines.offset(99) == 6


@pytest.mark.parametrize("text,i,j", [("f(a, (b), c) x", 1, 11), ("{ { } }", 0, 6), ("[a[1]]", 0, 5)])
def test_brackets_match_both_ways(text, i, j):
    assert ctext.match_close(text, i) == j
    assert ctext.match_open(text, j) == i


def test_brackets_unbalanced():
    assert ctext.match_close("(a", 0) == -1
    assert ctext.match_open("a)", 1) == -1


def test_enclosing_brace_and_statement_start():
    text = "f() { if (x) { a = 1; b = g(c, d); } }"
    b = text.index("b =")
    assert ctext.enclosing_brace(text, b) == text.index("{ a")
    assert ctext.enclosing_brace(text, 2) == -1
    # Inside parentheses, the statement starts after the open one.
    assert text[ctext.statement_start(text, text.index("d)")):].startswith("c, d)")
    assert ctext.statement_start(text, b + 3) == text.index(" b =")


def test_statement_end():
    text = "  a = f(b; c); if (x) { y(); } else z(); while (q) r(); { s; } t"
    end = len(text)
    # A semicolon inside brackets does not end the statement.
    assert text[:ctext.statement_end(text, 0, end)] == "  a = f(b; c);"
    at_if = text.index("if")
    assert text[at_if:ctext.statement_end(text, at_if, end)] == "if (x) { y(); }"
    assert text[at_if:ctext.statement_end(text, at_if, end, with_else=True)] == \
        "if (x) { y(); } else z();"
    at_while = text.index("while")
    assert text[at_while:ctext.statement_end(text, at_while, end)] == "while (q) r();"
    assert text[ctext.statement_end(text, at_while, end):].startswith(" { s; }")
    # No semicolon before the limit, or an unclosed bracket: the limit.
    assert ctext.statement_end(text, text.index("t", end - 1), end) == end
    assert ctext.statement_end("{ a;", 0, 4) == 4
    assert ctext.statement_end("if (a b;", 0, 8) == 8


def test_sections_of_a_switch():
    text = "switch (cmd) { case A: a(); case B: { case C: } b(); default: break; }"
    (sw,) = ctext.switches(text, 0, len(text))
    got = [(text[s:e], is_default, text[e:end]) for s, e, is_default, end in ctext.sections(text, sw)]
    assert got == [("case A:", False, " a(); "), ("case B:", False, " { case C: } b(); "),
                   ("default:", True, " break; ")]


def test_split_top_unparen_operands():
    assert ctext.split_top("a, f(b, c), {d, e}") == ["a", " f(b, c)", " {d, e}"]
    assert ctext.unparen(" ((a) + (b)) ") == "(a) + (b)"
    assert ctext.operands("(cmd == A || (cmd == B))", "||") == ["cmd == A", "cmd == B"]
    assert ctext.operands("a && (b || c)", "||") == ["a && (b || c)"]


def test_switches_of_a_body():
    text = "{ switch (cmd) { case 1: switch (x) { default: break; } } switch (y) z(); switch (w"
    found = ctext.switches(text, 0, len(text))
    assert [text[sw.keyword:sw.keyword + 10] for sw in found] == [
        "switch (cm", "switch (x)", "switch (y)", "switch (w"]
    outer, inner, unbraced, unclosed = found
    assert text[outer.open_paren] == "(" and text[outer.close_paren] == ")"
    assert text[outer.brace] == "{" and ctext.match_close(text, outer.brace) == outer.end
    assert outer.brace < inner.keyword < inner.end < outer.end
    assert unbraced.close_paren > 0 and (unbraced.brace, unbraced.end) == (-1, -1)
    assert (unclosed.close_paren, unclosed.brace, unclosed.end) == (-1, -1, -1)
    assert ctext.switches(text, 1, 20) == [outer]


@pytest.mark.parametrize("head,cmd,matches", [
    ("switch (cmd) ", "cmd", True),
    ("switch (_IOC_NR(cmd)) ", "cmd", True),
    ("switch (cmd & ~IOCSIZE_MASK) ", "cmd", True),
    ("switch ((cmd & ~(IOCSIZE_MASK))) ", "cmd", True),
    ("switch (arg) ", "cmd", False),
    ("switch (arg) ", None, True),
])
def test_switch_head(head, cmd, matches):
    assert bool(re.fullmatch(ctext.switch_head(cmd), head)) is matches


def test_switch_head_only_nr():
    head = ctext.switch_head("cmd", only_nr=True)
    assert re.fullmatch(head, "switch (_IOC_NR(cmd)) ")
    assert not re.fullmatch(head, "switch (_IOC_DIR(cmd)) ")


BODY = """
	int n;
	case A:
	case B ? 1 : 2:
		x = 1;
		break;
	case C: {
		switch (y) { case D: break; }
		return 1;
	}
	default:
		return -EINVAL;
"""


def test_top_labels_and_cases():
    labels = ctext.top_labels(BODY)
    padded = "{" + BODY + "}"
    assert ctext.top_labels(padded, 1, len(padded) - 1) == [(s + 1, e + 1, d) for s, e, d in labels]
    assert [BODY[s:e].split()[-1] for s, e, _d in labels] == ["A:", "2:", "C:", "default:"]
    assert [d for _s, _e, d in labels] == [False, False, False, True]
    found = ctext.cases(BODY)
    assert found is not None
    assert [label.split()[0] for label, _seg in found] == ["case", "case", "default:"]
    assert found[0][0].startswith("case B")          # A falls into B: merged
    assert ctext.cases("{ x; } case A: break;") is None


@pytest.mark.parametrize("seg,leaves", [
    ("x = 1; break;", True),
    ("return -EINVAL;", True),
    ("goto out;", True),
    ("x = 1;", False),
    ("", False),
    ("{ x = 1; return 0; }", True),
    ("if (a) return 1; else return 2;", True),
    ("if (a) return 1; else if (b) return 2; else x = 3;", False),
    ("if (a) { return 1; } else { goto out; }", True),
    ("if (a) return 1;", False),
    ("switch (x) { case 1: return 1; default: return 2; }", True),
    ("switch (x) { case 1: break; default: return 2; }", False),
    ("while (x) { break; }", False),
])
def test_case_leaves(seg, leaves):
    assert ctext.case_leaves(seg) is leaves


def test_branch_leaves():
    assert ctext.branch_leaves("if (a) return 1;")
    assert ctext.branch_leaves("if (a) return 1; else if (b) { goto x; }")
    assert not ctext.branch_leaves("if (a) x = 1; else if (b) return 2;")
    assert not ctext.branch_leaves("x = 1;")
