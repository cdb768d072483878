"""selftest_search.py on excerpts of rtctest, epoll_busy_poll and their handlers."""
import dataclasses
from pathlib import Path

from . import effects, selftest_search
from ..find.sites import Site

TREE = Path(__file__).parents[1] / "testdata" / "effects" / "tree"
RTC = Site("arch/m68k/bvme6000/rtc.c", 16, "rtc_ioctl", "file_operations.unlocked_ioctl",
           "EINVAL", "ENOTTY", "ioctl_default_return")
EPOLL = Site("fs/eventpoll.c", 16, "ep_eventpoll_ioctl", "file_operations.unlocked_ioctl",
             "EINVAL", "ENOTTY", "ioctl_default_assign")


def with_effects(*sites):
    found = effects.analyse_sites(list(sites), TREE)
    return [Site(**{**s.__dict__, "effects": found[s]}) for s in sites]


def test_rtc_uncased_command_expected_einval_is_found():
    (rtc,) = with_effects(RTC)
    assert "RTC_UIE_ON" in rtc.effects.uncased_commands()
    got = selftest_search.search([rtc], TREE)[rtc]
    cells = [a.cell() for a in got]
    assert cells == [
        "tools/testing/selftests/rtc/rtctest.c:12 RTC_UIE_ON (affected, includes linux/rtc.h; "
        "names RTC_SET_TIME, RTC_UIE_ON; opens /dev/rtc)",
        "tools/testing/selftests/rtc/rtctest.c:26 cases[i].cmd (maybe, includes linux/rtc.h; "
        "names RTC_SET_TIME, RTC_UIE_ON; opens /dev/rtc)",
    ]
    # RTC_SET_TIME has a case: its EINVAL is an argument check the patch keeps


def test_epoll_invalid_command_from_a_local_variable():
    (ep,) = with_effects(EPOLL)
    got = selftest_search.search([ep], TREE)[ep]
    assert [(a.path, a.line, a.command, a.verdict) for a in got] == [
        ("tools/testing/selftests/net/epoll_busy_poll.c", 14, "EPIOCGPARAMS + 10", "affected")]


def test_invisible_site_has_no_assertions():
    leaf = Site("arch/m68k/bvme6000/rtc.c", 16, "rtc_ioctl", "file_operations.unlocked_ioctl",
                "ENOIOCTLCMD", "ENOTTY", "ioctl_leaf_enoioctlcmd")
    assert selftest_search.search([leaf], TREE)[leaf] == []


def test_unrelated_tests_are_not_reported():
    (rtc, ep) = with_effects(RTC, EPOLL)
    found = selftest_search.search([rtc, ep], TREE)
    paths = {a.path for hits in found.values() for a in hits}
    assert "tools/testing/selftests/other/loop.c" not in paths
    # the loop test is indexed: it expects EINVAL after an ioctl()
    assert "tools/testing/selftests/other/loop.c" in {
        t.path for t in selftest_search.index_tests(TREE)}


def test_read_test_finds_the_expectation_within_the_window():
    text = "x = ioctl(fd, 0x1234, 0);\n" + "\n" * 3 + "if (errno == EINVAL) ok();\n"
    (probe,) = selftest_search.read_test("t.c", text).probes
    assert (probe.line, probe.command) == (5, "0x1234")
    far = "x = ioctl(fd, 0x1234, 0);\n" + "\n" * 20 + "if (errno == EINVAL) ok();\n"
    assert selftest_search.read_test("t.c", far).probes == ()


def test_left_out_reason_for_summary():
    (ep,) = with_effects(EPOLL)
    hits = selftest_search.search([ep], TREE)[ep]
    assert selftest_search.left_out_reason(ep, hits) == (
        "fs/eventpoll.c: ep_eventpoll_ioctl() left as it is: "
        "tools/testing/selftests/net/epoll_busy_poll.c:14 expects EINVAL from it.")
    assert selftest_search.held_reason(hits) == "tools/testing/selftests/net/epoll_busy_poll.c expects EINVAL"


def test_held_reason_names_each_test_file_once():
    (rtc,) = with_effects(RTC)
    hits = selftest_search.search([rtc], TREE)[rtc]
    assert len(hits) == 2
    assert selftest_search.held_reason(hits) == "tools/testing/selftests/rtc/rtctest.c expects EINVAL"
    other = dataclasses.replace(hits[0], path="tools/testing/selftests/timers/rtcpie.c")
    assert selftest_search.held_reason(hits + [other]) == (
        "tools/testing/selftests/rtc/rtctest.c, tools/testing/selftests/timers/rtcpie.c expect EINVAL")


def _keys(headers=(), handled=(), nodes=()):
    return selftest_search.Handler(frozenset(handled), frozenset(), frozenset(headers), frozenset(nodes))


def test_a_test_that_opens_another_device_is_not_tied_by_its_includes():
    # hid's hidraw.c includes linux/input.h but opens /dev/hidraw and /dev/uhid:
    # its invalid-type probe never reaches evdev
    text = ('#include <linux/input.h>\n'
            'int fd = open("/dev/hidraw0", O_RDWR);\n'
            'err = ioctl(fd, _IOC(_IOC_READ, \'I\', 0x01, 8), buf);\n'
            'ASSERT_EQ(errno, EINVAL);\n')
    test = selftest_search.read_test("tools/testing/selftests/hid/hidraw.c", text)
    assert test.probes and test.nodes == {"hidraw"}
    evdev = _keys(headers={"linux/input.h"}, nodes={"evdev", "input"})
    assert selftest_search.assertions(evdev, [test]) == []
    hidraw = _keys(nodes={"hidraw"})
    assert [a.why for a in selftest_search.assertions(hidraw, [test])] == ["opens /dev/hidraw"]
    # a test that opens no device node is still tied by what it includes
    plain = selftest_search.read_test("t.c", text.replace('open("/dev/hidraw0", O_RDWR)', "epoll_create1(0)"))
    assert [a.why for a in selftest_search.assertions(evdev, [plain])] == ["includes linux/input.h"]


def test_a_table_element_string_is_no_device_node(tmp_path):
    # industrialio-core.c's `[IIO_MOD_LIGHT_UV] = "uv"` is no /dev/uv
    (tmp_path / "d.c").write_text(
        'static const char * const mods[] = {\n\t[MOD_UV] = "uv",\n};\n'
        'static struct miscdevice dev = { .name = "widget" };\n'
        'static long d_ioctl(struct file *f, unsigned int cmd, unsigned long arg)\n{\n'
        '\tswitch (cmd) {\n\tdefault:\n\t\treturn -EINVAL;\n\t}\n}\n')
    site = Site("d.c", 9, "d_ioctl", "file_operations.unlocked_ioctl", "EINVAL", "ENOTTY", "ioctl_default_return")
    keys = selftest_search.handler_keys(effects.Tree(tmp_path), site)
    assert "widget" in keys.nodes and "uv" not in keys.nodes
