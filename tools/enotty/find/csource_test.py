"""csource.handlers_name(): which files the prefilter hands to spatch."""
from __future__ import annotations

import re

import pytest

from . import csource, scan

BINDS = scan.binding_pattern(scan.ioctl_tokens())
ERRNOS = re.compile(rb"\b(?:EINVAL|ENOSYS|ENOIOCTLCMD)\b")

OPS = """
static const struct file_operations foo_fops = {
\t.open\t\t= foo_open,
\t.unlocked_ioctl\t= foo_ioctl,
};
"""
OPEN = """
static int foo_open(struct inode *inode, struct file *f)
{
\treturn f->f_flags & O_APPEND ? -EINVAL : 0;
}
"""


def names(text: str, named: tuple[str, ...] = ()) -> bool:
    return csource.handlers_name(text.encode(), BINDS, ERRNOS, named)


def handler(body: str, name: str = "foo_ioctl") -> str:
    return f"\nstatic long {name}(struct file *f, unsigned int cmd, unsigned long arg)\n{{\n{body}}}\n"


def test_an_errno_in_the_handler_counts():
    assert names(OPEN + handler("\tswitch (cmd) {\n\tdefault:\n\t\treturn -EINVAL;\n\t}\n") + OPS)


def test_an_errno_only_outside_the_handlers_does_not():
    assert not names(OPEN + handler("\treturn foo_do(f, cmd);\n") + OPS)


def test_an_errno_only_in_comments_does_not():
    assert not names(handler("\t/* never -EINVAL */\n\treturn -ENOTTY; // not EINVAL\n") + OPS)


def test_helpers_count_at_any_depth():
    helpers = ("\nstatic long foo_two(unsigned int cmd)\n{\n\treturn -ENOSYS;\n}\n"
               "\nstatic long foo_one(unsigned int cmd)\n{\n\treturn foo_two(cmd);\n}\n")
    assert names(helpers + handler("\treturn foo_one(cmd);\n") + OPS)
    # A function handed on by name (a callback) is followed as well.
    assert names(helpers + handler("\treturn video_usercopy(f, cmd, arg, foo_one);\n") + OPS)


def test_a_handler_defined_in_another_file_adds_nothing():
    assert not names(OPEN + OPS.replace("= foo_ioctl", "= video_ioctl2"))


def test_phase_1_rows_name_handlers_too():
    text = OPEN + "\nlong foo_common(struct file *f, unsigned int cmd)\n{\n\treturn -EINVAL;\n}\n"
    assert not names(text)
    assert names(text, ("foo_common",))


def test_both_branches_of_an_if_count():
    body = "\tswitch (cmd) {\n\tdefault:\n#ifdef CONFIG_COMPAT\n\t\treturn -ENOTTY;\n" \
           "#else\n\t\treturn -EINVAL;\n#endif\n\t}\n"
    assert names(handler(body) + OPS)
    calls = "\n#ifdef CONFIG_X\n\treturn foo_a(cmd);\n#else\n\treturn foo_b(cmd);\n#endif\n"
    helper_b = "\nstatic long foo_b(unsigned int cmd)\n{\n\treturn -EINVAL;\n}\n"
    assert names(helper_b + handler(calls) + OPS)


@pytest.mark.parametrize("text", [
    # an errno in a macro: no function of the file holds it
    "#define FOO_CHECK(x) do { if (!(x)) return -EINVAL; } while (0)\n" + handler("\treturn 0;\n") + OPS,
    # a bound value that is not a plain name
    OPEN + OPS.replace("= foo_ioctl", "= IS_ENABLED(CONFIG_FOO) ? foo_ioctl : NULL"),
    # a handler defined where functions() does not read it (not at column 0),
    # which hands the command to a helper that answers -EINVAL
    "\nstatic long foo_b(unsigned int cmd)\n{\n\treturn -EINVAL;\n}\n" + OPS
    + "\n  static long foo_ioctl(struct file *f, unsigned int cmd, unsigned long arg) {\n"
      "\treturn foo_b(cmd);\n  }\n",
    # the handler's #else twin, which functions() does not read, calls it
    "\nstatic long foo_b(unsigned int cmd)\n{\n\treturn -EINVAL;\n}\n#ifdef CONFIG_X\n"
    + handler("\treturn -ENOTTY;\n") + "#else\n" + handler("\treturn foo_b(cmd);\n") + "#endif\n" + OPS,
])
def test_unsure_reads_count(text):
    assert names(text)


@pytest.mark.parametrize("head, name, static", [
    ("static __printf(2, 3) long\nfoo(struct foo *f, const char *fmt, ...)", "foo", True),
    ("static void __printf(2, 3)\nfoo(struct foo *f, const char *fmt, ...)", "foo", True),
    ("static void __releases(f->lock) __acquires(f->lock)\nfoo(struct kref *kref)", "foo", True),
    ("int __attribute__((weak)) foo(struct kvm *kvm,\n\t\tstruct kvm_enable_cap *cap)", "foo", False),
    ("static struct foo *foo\n(struct foo *f, u8 type)", "foo", True),
    ("BTF_ID_LIST(foo_ids)\n\nstatic int foo(void)", "foo", True),
    ("static DEF_SCSI_QCMD(foo_queue)\n\nirqreturn_t foo(int irq, void *dev_id)", "foo", False),
    ("INTERVAL_TREE_DEFINE(struct foo, rb, unsigned long, last,\n\t\tstatic inline, __foo_tree)\n\n"
     "void foo(struct foo *node, struct rb_root_cached *root)", "foo", False),
    ("struct static_vm *foo(void *vaddr)", "foo", False),
    ("static inline __attribute__((always_inline))\nuint8x16_t foo(uint8x16_t w)", "foo", True),
    ("static int\n\tfoo(struct foo_port *port,\n\t\tstruct sas_rphy *rphy)", "foo", True),
    ("const struct iio_chan_spec\n*foo(struct iio_dev *indio_dev, int si)", "foo", False),
    # a parameter list first: what follows it is an attribute, not the name
    ("static void *foo(struct seq_file *m, loff_t *pos)\n__acquires(RCU)", "foo", True),
    ("int foo(int a) __attribute_const__ __must_hold(x)", "foo", False),
    ("static long __foo_ioctl(struct file *f, unsigned int cmd, unsigned long arg)", "__foo_ioctl", True),
])
def test_a_head_is_named_after_its_parameter_list(head, name, static):
    text = head + "\n{\n\treturn 0;\n}\n"
    assert [(f.name, f.static) for f in csource.functions(text)] == [(name, static)]
    assert csource.definition_heads(text)[name] == 1


def test_a_helper_behind_a_macro_is_read_and_followed():
    # read as `__printf` before, the helper was a definition the prefilter
    # could not follow, so the file went to spatch; now it is followed
    helper = "static __printf(2, 3) long\nfoo_log(struct file *f, const char *fmt, ...)\n{\n\treturn %s;\n}\n"
    call = handler("\treturn foo_log(f, \"%d\", 1);\n")
    assert not names(OPS + helper % "-ENOTTY" + call)
    assert names(OPS + helper % "-EINVAL" + call)
