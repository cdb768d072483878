"""cover_text: the cover letter's sentences for one, two and three drivers,
mixed old and new answers, and the semantic patch's count."""
from __future__ import annotations

from . import cover_text
from ..find.sites import Site
from ..find.sites import Effects

FOPS = "file_operations.unlocked_ioctl"
TTY = "tty_operations.ioctl"


def site(file: str, function: str, from_: str = "EINVAL", to: str = "ENOTTY", line: int = 10,
         entry: str = "-") -> Site:
    eff = Effects("native", "yes", "-", "all", "-", "-", "-", "yes", entry) if entry != "-" else None
    return Site(file, line, function, FOPS if to == "ENOTTY" else TTY, from_, to, "ioctl_default_return",
                effects=eff)


INPUT = [site("drivers/input/evdev.c", "evdev_do_ioctl", line=1), site("drivers/input/evdev.c", "evdev_do_ioctl"),
         site("drivers/input/joydev.c", "joydev_ioctl"), site("drivers/input/misc/uinput.c", "uinput_ioctl"),
         site("drivers/input/serio/serport.c", "serport_ldisc_ioctl", to="ENOIOCTLCMD")]
MODULES = {"drivers/input/evdev.c": "evdev", "drivers/input/joydev.c": "joydev",
           "drivers/input/misc/uinput.c": "uinput", "drivers/input/serio/serport.c": "serport"}


def opening(sites: list[Site], modules: dict[str, str]) -> str:
    return cover_text.opening(cover_text.drivers(sites, modules))


def test_one_driver_with_one_handler_is_it() -> None:
    text = opening([site("drivers/sbus/char/envctrl.c", "envctrl_ioctl")], {"drivers/sbus/char/envctrl.c": "envctrl"})
    assert text.startswith("The ioctl handler of envctrl answers a command it does not know with -EINVAL."
                           " This series makes it return -ENOTTY, as Documentation/driver-api/ioctl.rst asks."
                           " -EINVAL tells user space")
    assert "ENOSYS" not in text and "ENOIOCTLCMD" not in text


def test_one_module_of_two_files_is_named_once_with_its_handlers() -> None:
    sites = [site("drivers/android/binder.c", "binder_ioctl"), site("drivers/android/binderfs.c", "binder_ctl_ioctl")]
    text = opening(sites, {"drivers/android/binder.c": "binder_linux", "drivers/android/binderfs.c": "binder_linux"})
    # one module's few handlers are named, not "the handlers of binder_linux" (all of them)
    assert text.startswith("binder_ioctl() and binder_ctl_ioctl() of binder_linux answer a command they do not"
                           " know with -EINVAL. This series makes them return -ENOTTY")


def test_two_drivers_with_different_old_answers_each_get_theirs() -> None:
    sites = [site("drivers/block/xen-blkfront.c", "blkif_ioctl"), site("drivers/xen/evtchn.c", "evtchn_ioctl", "ENOSYS")]
    text = opening(sites, {"drivers/block/xen-blkfront.c": "xen-blkfront", "drivers/xen/evtchn.c": "xen-evtchn"})
    assert text.startswith("The ioctl handler of xen-blkfront answers a command it does not know with -EINVAL,"
                           " and that of xen-evtchn with -ENOSYS. This series makes them return -ENOTTY,")
    # each old answer is explained, -EINVAL's reason only once
    assert text.count("-EINVAL tells user space") == 1
    assert "ENOSYS means 'invalid syscall nr'" in text


def test_three_drivers_and_a_fourth_with_another_new_answer() -> None:
    text = opening(INPUT, MODULES)
    assert text.startswith("The ioctl handlers of evdev, joydev, uinput and serport answer a command they do not"
                           " know with -EINVAL. This series makes evdev, joydev and uinput return -ENOTTY and"
                           " serport -ENOIOCTLCMD, as Documentation/driver-api/ioctl.rst asks.")
    assert cover_text.CORE in text
    # evdev's two exits are one driver, one handler
    assert [d.handlers for d in cover_text.drivers(INPUT, MODULES)] == [1, 1, 1, 1]


def test_an_old_answer_other_than_einval_or_enosys_is_named_as_it_is() -> None:
    sites = [site("drivers/usb/class/usbtmc.c", "usbtmc_ioctl", "EBADRQC"),
             site("drivers/usb/core/hub.c", "hub_ioctl", "ENOSYS"),
             site("drivers/usb/gadget/legacy/raw_gadget.c", "raw_ioctl")]
    mods = {"drivers/usb/class/usbtmc.c": "usbtmc", "drivers/usb/core/hub.c": "usbcore"}
    text = opening(sites, mods)
    # a file the model names no module for goes by its file name
    assert text.startswith("The ioctl handler of usbtmc answers a command it does not know with -EBADRQC,"
                           " that of usbcore with -ENOSYS and that of raw_gadget with -EINVAL.")
    assert "does not recognise -EBADRQC" in text
    assert "-EINVAL tells user space" in text and "ENOSYS means" in text


def test_a_driver_with_both_old_answers_names_both() -> None:
    sites = [site("drivers/block/floppy.c", "fd_ioctl"), site("drivers/block/floppy.c", "fd_ioctl", "ENOSYS", line=20),
             site("drivers/block/loop.c", "lo_ioctl"), site("drivers/block/sunvdc.c", "vdc_ioctl")]
    text = opening(sites, {})
    assert text.startswith("The ioctl handlers of loop and sunvdc answer a command they do not know with -EINVAL,"
                           " and that of floppy with -EINVAL or -ENOSYS.")


def test_handlers_are_counted_by_the_entry_user_space_calls() -> None:
    helper = site("drivers/gpu/drm/i915/i915_perf.c", "i915_perf_ioctl_locked", entry="i915_perf_ioctl")
    other = site("drivers/gpu/drm/i915/i915_oa.c", "oa_ioctl")
    (d,) = cover_text.drivers([helper, other], {"drivers/gpu/drm/i915/i915_perf.c": "i915",
                                                "drivers/gpu/drm/i915/i915_oa.c": "i915"})
    assert (d.name, d.handlers) == ("i915", 2)


def test_rule_sentence_counts_what_the_rule_reports() -> None:
    assert "reports 3 of the 4 exits this series changes" in cover_text.rule_sentence(3, 4)
    assert "reports both exits" in cover_text.rule_sentence(2, 2)
    assert "reports all 5 exits" in cover_text.rule_sentence(5, 5)
    assert "reports none of the 2 exits" in cover_text.rule_sentence(0, 2)
    # "found with Coccinelle" only where the offered rule finds them all
    assert cover_text.rule_sentence(5, 5).startswith("The handlers were found with Coccinelle.")
    assert "found with Coccinelle" not in cover_text.rule_sentence(0, 4) + cover_text.rule_sentence(3, 4)
    assert "does not report the one exit" in cover_text.rule_sentence(0, 1)
    assert "scripts/coccinelle/api/ioctl_enotty.cocci" in cover_text.rule_sentence(1, 1)
    assert "coccicheck reports the next handler" not in cover_text.rule_sentence(1, 2)
    assert cover_text.rule_sentence(0, 0) == ""


def test_other_old_answers_share_one_sentence() -> None:
    """A reviewer found the media cover letter saying the ioctl(2) sentence
    twice, once for -ENOTSUPP and once for -EOPNOTSUPP."""
    sites = [site("drivers/media/dvb-core/dvb_frontend.c", "dvb_frontend_handle_ioctl", "ENOTSUPP"),
             site("drivers/media/firewire/firedtv-ci.c", "fdtv_ca_ioctl", "EOPNOTSUPP")]
    text = opening(sites, {})
    assert text.count("ioctl(2) documents ENOTTY") == 1
    assert "does not recognise -ENOTSUPP or -EOPNOTSUPP." in text


def test_a_handler_of_the_module_the_series_leaves_is_no_part_of_them() -> None:
    # mm: userfaultfd_ioctl() stays; android: rust_binder's Rust handler
    sites = [site("mm/gup_test.c", "gup_test_ioctl"), site("mm/userfaultfd.c", "userfaultfd_dev_ioctl")]
    kept = {"userfaultfd": [("userfaultfd_ioctl()", "userfaultfd_ioctl() keeps -EINVAL: a check answers first")]}
    text = cover_text.opening(cover_text.drivers(sites, {"mm/gup_test.c": "gup_test",
                                                         "mm/userfaultfd.c": "userfaultfd"}, kept))
    assert "This series makes them return" not in text
    assert ("This series makes all of them but userfaultfd_ioctl() return -ENOTTY, as "
            "Documentation/driver-api/ioctl.rst asks. userfaultfd_ioctl() keeps -EINVAL: a check answers "
            "first.") in text
    without = cover_text.opening(cover_text.drivers(sites, {"mm/gup_test.c": "gup_test",
                                                            "mm/userfaultfd.c": "userfaultfd"}))
    assert "This series makes them return -ENOTTY" in without


def test_guards_in_handlers_that_answer_the_rest_already_are_some_commands() -> None:
    """A reviewer: luo's handlers answer -EINVAL only for a number outside
    their tables; the rest got -ENOIOCTLCMD already."""
    files = {"kernel/liveupdate/luo_core.c": "luo", "kernel/liveupdate/luo_session.c": "luo"}
    sites = [site(f, f.rsplit("/", 1)[1][:-2] + "_ioctl") for f in files]
    text = cover_text.opening(cover_text.drivers(sites, files, partial_files=set(files)))
    assert text.startswith("luo_core_ioctl() and luo_session_ioctl() of luo answer some commands they do not"
                           " know with -EINVAL.")
    mixed = cover_text.opening(cover_text.drivers(sites + [site("drivers/x/y.c", "y_ioctl")],
                                                  {**files, "drivers/x/y.c": "y"}, partial_files=set(files)))
    assert mixed.startswith("The ioctl handlers of luo answer some commands they do not know with -EINVAL,"
                            " and that of y with -EINVAL.")
