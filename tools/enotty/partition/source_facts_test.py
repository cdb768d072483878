"""source_facts: a guard is said as partial only where its function answers
other unknown commands -ENOIOCTLCMD already; a uapi header's ENOTTY line is
quoted only when the file includes that header."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from . import source_facts
from ..render import messages
from ..find.sites import Effects, Site

# luo_ioctl()'s shape (kernel/liveupdate/luo_core.c, 7.2)
LUO = """\
#include <linux/liveupdate.h>

static long luo_ioctl(struct file *filep, unsigned int cmd, unsigned long arg)
{
\tunsigned int nr = _IOC_NR(cmd);

\tif (nr - LIVEUPDATE_CMD_BASE >= ARRAY_SIZE(luo_ioctl_ops))
\t\treturn -EINVAL;
\top = &luo_ioctl_ops[nr - LIVEUPDATE_CMD_BASE];
\tif (op->ioctl_num != cmd)
\t\treturn -ENOIOCTLCMD;
\treturn op->execute(&ucmd);
}
"""

# orangefs's check_ioctl_command(): a logging call between guard and return
ORANGEFS = """\
static inline long check_ioctl_command(unsigned int command)
{
\tif (_IOC_TYPE(command) != ORANGEFS_DEV_MAGIC) {
\t\tgossip_err("magic numbers don't match! [cmd %x]\\n",
\t\t\tcommand);
\t\treturn -EINVAL;
\t}
\tif (_IOC_NR(command) >= ORANGEFS_DEV_MAXNR)
\t\treturn -ENOIOCTLCMD;
\treturn 0;
}
"""

# a guard whose function has no other unknown-command answer: not partial
WHOLE = """\
static long evdev_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
\tif (_IOC_TYPE(cmd) != 'E')
\t\treturn -EINVAL;
\treturn evdev_do_ioctl(file, cmd, arg);
}
"""

HEADER = """\
/*
 * Return values of the ioctls:
 *  - ENOTTY: The IOCTL number itself is not supported at all
 *  - E2BIG: The IOCTL number is supported, but the struct is too big
 */
"""


def _guard(text: str, function: str) -> Site:
    line = next(n for n, l in enumerate(text.splitlines(), 1) if "-EINVAL" in l)
    return Site("f.c", line, function, "file_operations.unlocked_ioctl", "EINVAL", "ENOTTY",
                source_facts.GUARD_RULE)


def test_a_table_bound_beside_an_enoioctlcmd_answer_is_partial() -> None:
    assert source_facts.partial_guards(source_facts.Source.of(LUO), (_guard(LUO, "luo_ioctl"),)) == \
        ("nr - LIVEUPDATE_CMD_BASE >= ARRAY_SIZE(luo_ioctl_ops)",)


# luo_ioctl() as 7.2 has it: the size word is read before the command is
# compared with the table's
LUO_READS = LUO.replace("\top = &luo_ioctl_ops", "\terr = get_user(ucmd.user_size, (u32 __user *)arg);\n"
                        "\tif (err)\n\t\treturn err;\n\top = &luo_ioctl_ops")


def test_a_read_between_the_guard_and_the_lookup_is_named() -> None:
    """A reviewer: an unknown number inside the table with an argument
    get_user() cannot read fails with EFAULT, not ENOTTY."""
    site = _guard(LUO_READS, "luo_ioctl")
    assert source_facts.reads_before_lookup(source_facts.Source.of(LUO_READS), (site,)) == ("get_user()",)
    assert source_facts.reads_before_lookup(source_facts.Source.of(LUO), (_guard(LUO, "luo_ioctl"),)) == ()


def test_a_braced_guard_with_a_logging_call_is_read_through() -> None:
    guard = _guard(ORANGEFS, "check_ioctl_command")
    assert source_facts.partial_guards(source_facts.Source.of(ORANGEFS), (guard,)) == \
        ("_IOC_TYPE(command) != ORANGEFS_DEV_MAGIC",)


def test_a_guard_that_is_the_only_unknown_command_answer_is_not_partial() -> None:
    assert source_facts.partial_guards(source_facts.Source.of(WHOLE), (_guard(WHOLE, "evdev_ioctl"),)) == ()


# dma_heap_ioctl(): the table holds every known command, so the default of
# the switch on the looked-up command answers no unknown one
HEAP = """\
static long dma_heap_ioctl(struct file *file, unsigned int ucmd, unsigned long arg)
{
\tint nr = _IOC_NR(ucmd);

\tif (nr >= ARRAY_SIZE(dma_heap_ioctl_cmds))
\t\treturn -EINVAL;
\tkcmd = dma_heap_ioctl_cmds[nr];
\tswitch (kcmd) {
\tcase DMA_HEAP_IOCTL_ALLOC:
\t\tret = alloc(file, kdata);
\t\tbreak;
\tdefault:
\t\tret = -ENOTTY;
\t}
\treturn ret;
}
"""


def test_a_default_on_the_looked_up_command_is_not_an_unknown_command_answer() -> None:
    assert source_facts.partial_guards(source_facts.Source.of(HEAP), (_guard(HEAP, "dma_heap_ioctl"),)) == ()
    on_ucmd = HEAP.replace("switch (kcmd)", "switch (ucmd)")
    assert source_facts.partial_guards(source_facts.Source.of(on_ucmd), (_guard(on_ucmd, "dma_heap_ioctl"),)) == \
        ("nr >= ARRAY_SIZE(dma_heap_ioctl_cmds)",)


def test_a_site_of_another_rule_is_never_a_guard() -> None:
    site = _guard(LUO, "luo_ioctl")
    other = Site(site.file, site.line, site.function, site.interface, "EINVAL", "ENOTTY",
                 "ioctl_default_return")
    assert source_facts.partial_guards(source_facts.Source.of(LUO), (other,)) == ()


def test_the_included_uapi_header_is_quoted(tmp_path: Path) -> None:
    (tmp_path / "include/uapi/linux").mkdir(parents=True)
    (tmp_path / "include/uapi/linux/liveupdate.h").write_text(HEADER)
    assert source_facts.uapi_errnos(tmp_path, LUO) == \
        ('include/uapi/linux/liveupdate.h: "ENOTTY: The IOCTL number itself is not supported at all"',)
    # a file that does not include it is told nothing of it
    assert source_facts.uapi_errnos(tmp_path, WHOLE) == ()


# dvb_frontend_handle_ioctl()'s shape: a known command keeps -ENOTSUPP
FRONTEND = """\
static int dvb_frontend_handle_ioctl(struct file *file, unsigned int cmd, void *parg)
{
\tint err = -ENOTSUPP;

\tswitch (cmd) {
\tcase FE_READ_SNR:
\t\tif (fe->ops.read_snr)
\t\t\terr = fe->ops.read_snr(fe, parg);
\t\tbreak;
\tdefault:
\t\treturn -ENOTSUPP;
\t}
\treturn err;
}
"""


def test_a_kept_internal_answer_is_said() -> None:
    line = FRONTEND.splitlines().index("\t\treturn -ENOTSUPP;") + 1
    site = Site("f.c", line, "dvb_frontend_handle_ioctl", "file_operations.unlocked_ioctl", "ENOTSUPP",
                "ENOTTY", "ioctl_default_return")
    assert source_facts.kept_internal_answers(source_facts.Source.of(FRONTEND), (site,)) == (
        "dvb_frontend_handle_ioctl() still answers -ENOTSUPP for some known commands; this patch "
        "changes only its answer to an unknown command.",)
    # the converted line alone: nothing left to say
    only = FRONTEND.replace("\tint err = -ENOTSUPP;", "\tint err = 0;")
    assert source_facts.kept_internal_answers(source_facts.Source.of(only), (site,)) == ()


# cpwd_ioctl(): it advertises WDIOF_SETTIMEOUT and has no WDIOC_SETTIMEOUT case
CPWD = """\
static long cpwd_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
\tstatic const struct watchdog_info info = {
\t\t.options\t\t= WDIOF_SETTIMEOUT,
\t\t.identity\t\t= DRIVER_NAME,
\t};

\tswitch (cmd) {
\tcase WDIOC_GETSUPPORT:
\t\treturn 0;
\tdefault:
\t\treturn -EINVAL;
\t}
}
"""


def _uncased(site: Site, names: str) -> Site:
    return dataclasses.replace(site, effects=Effects("both", "yes", "-", "all", names, "-", "-", "yes"))


def test_a_promised_command_without_a_case_is_said() -> None:
    site = _guard(CPWD, "cpwd_ioctl")
    said = source_facts.advertised_but_uncased(source_facts.Source.of(CPWD),
                                               (_uncased(site, "WDIOC_GETTEMP,WDIOC_SETTIMEOUT"),))
    assert said == ("cpwd_ioctl()'s struct watchdog_info sets WDIOF_SETTIMEOUT, though it has no "
                    "WDIOC_SETTIMEOUT case: a program that trusts the flag gets ENOTTY from WDIOC_SETTIMEOUT "
                    "now, where it got EINVAL.",)
    # a command it was not promised is no news
    assert source_facts.advertised_but_uncased(source_facts.Source.of(CPWD),
                                               (_uncased(site, "WDIOC_GETTEMP"),)) == ()


# tun_vnet_ioctl()'s shape: QEMU tests two commands it handles for EINVAL
VNET = """\
static long tun_vnet_ioctl(int *vnet_hdr_sz, unsigned int *flags, unsigned int cmd, int __user *sp)
{
\tswitch (cmd) {
\tcase TUNSETVNETLE:
\t\treturn 0;
\tcase TUNSETVNETBE:
\t\treturn -EINVAL;
\tdefault:
\t\treturn -EINVAL;
\t}
}
"""


def test_a_program_testing_commands_the_handler_handles_is_said_unaffected() -> None:
    from ..judge.consumers import Consumer
    rows = [Consumer(c, "QEMU's tap backend (tap_fd_set_vnet_x())", "-", "-", False, cased=True)
            for c in ("TUNSETVNETLE", "TUNSETVNETBE")]
    rows.append(Consumer("EVIOCGPROP", "libevdev (libevdev_set_fd())", "-", "-", False, cased=True))
    rows.append(Consumer("TUNSETVNETLE", "systemd (helps)", "-", "-", False))
    site = _guard(VNET.replace("\tdefault:\n\t\treturn -EINVAL;", "\tdefault:\n\t\treturn -EINVAL; /* x */"),
                  "tun_vnet_ioctl")
    src = source_facts.Source.of(VNET)
    found = source_facts.unaffected_consumers(src, (site,), rows)
    assert found == (("QEMU's tap backend", "TUNSETVNETLE", "tun_vnet_ioctl", "EINVAL"),
                     ("QEMU's tap backend", "TUNSETVNETBE", "tun_vnet_ioctl", "EINVAL"))
    more = [("QEMU's tap backend", "TUNSETVNETLE", "tap_ioctl", "EINVAL")]
    assert messages.unaffected_sentences(list(found) + more) == [
        "QEMU's tap backend tests TUNSETVNETBE and TUNSETVNETLE for EINVAL; tun_vnet_ioctl() and tap_ioctl() "
        "handle both themselves, and this patch leaves their answers alone."]
    # a command the handler has no case for is no such program's
    assert source_facts.unaffected_consumers(src, (_uncased(site, "TUNSETVNETLE,TUNSETVNETBE"),), rows) == ()


# userfaultfd_ioctl(): the handshake check the test of the command now precedes
UFFD = """\
static long uffd_ioctl(struct file *file, unsigned cmd, unsigned long arg)
{
\tint ret = -EINVAL;

\tif (cmd != UFFDIO_API &&
\t    !uffd_is_initialized(ctx))
\t\treturn -EINVAL;
\tswitch (cmd) {
\tcase UFFDIO_API:
\t\tret = uffd_api(ctx, arg);
\t\tbreak;
\t}
\treturn ret;
}
"""


def test_the_state_check_tested_after_the_command_is_said() -> None:
    line = next(n for n, l in enumerate(UFFD.splitlines(), 1) if "return -EINVAL" in l)
    site = Site("f.c", line, "uffd_ioctl", "file_operations.unlocked_ioctl", "EINVAL", "ENOTTY",
                "ioctl_valid_first")
    (said,) = source_facts.tested_first(source_facts.Source.of(UFFD), (site,))
    assert said.startswith("uffd_ioctl() answers -EINVAL to a command for which "
                           "`cmd != UFFDIO_API && !uffd_is_initialized(ctx)` holds, an unknown one included.")
    assert "uffd_ioctl_valid() lists the commands uffd_ioctl() has a case for" in said
    assert "checks after the test" not in said
    # test_hmm: the copy of the argument below the test answered -EFAULT
    copy = dataclasses.replace(site, line=line + 3, rule="ioctl_default_return", effects=Effects(
        "native", "partly", f"line {line + 1}: copy_from_user(&c, p, 4) -> -EFAULT (argument check)",
        "all", "-", "-", "-", "yes"))
    (said,) = source_facts.tested_first(source_facts.Source.of(UFFD), (site, copy))
    assert said.endswith(" Such a command no longer meets the checks after the test either, which "
                         "answered -EFAULT.")
    other = dataclasses.replace(site, rule="ioctl_default_return")
    assert source_facts.tested_first(source_facts.Source.of(UFFD), (other,)) == ()
