"""outgoing.cover_blurb: the cover letter names drivers by module and
errnos as the series changes them, and counts what the rule reports."""
from __future__ import annotations

from ..find.sites import Site
from ..kernel.build import OK, Check
from ..partition import split
from ..render import series
from ..render.drafts import Draft
from . import outgoing
from .verdicts import Verdict

FOPS = "file_operations.unlocked_ioctl"


def verdict(path: str, driver: str, prefix: str, *sites: tuple[int, str, str]) -> Verdict:
    found = tuple(Site(path, line, f"{driver}_ioctl", FOPS, from_, to, "ioctl_default_return")
                  for line, from_, to in sites)
    plan = split.PatchPlan(driver, driver, "", [split.FileChange(path, "", found)])
    patch = series.Patch(plan, f"{prefix} return -ENOTTY for unknown ioctl commands", "")
    return Verdict(Draft(patch, prefix), Check(OK))


XEN = [verdict("drivers/block/xen-blkfront.c", "blkif", "xen-blkfront:", (10, "EINVAL", "ENOTTY")),
       verdict("drivers/xen/evtchn.c", "evtchn", "xen/evtchn:", (20, "ENOSYS", "ENOTTY"))]
MODULES = {"drivers/block/xen-blkfront.c": "xen-blkfront", "drivers/xen/evtchn.c": "xen-evtchn"}


def blurb(verdicts: list[Verdict], modules: dict[str, str], reports: int | None) -> str:
    plan = split.SeriesPlan("xen", "XEN HYPERVISOR INTERFACE", [v.patch.plan for v in verdicts])
    text = outgoing.cover_blurb(plan, verdicts, "6.12.118", True, False, modules, reports)
    return " ".join(text.split())


def test_drivers_are_modules_and_each_old_answer_is_named() -> None:
    text = blurb(XEN, MODULES, 1)
    assert text.startswith("The ioctl handler of xen-blkfront answers a command it does not know with -EINVAL,"
                           " and that of xen-evtchn with -ENOSYS. This series makes them return -ENOTTY")
    assert "-blkfront and" not in text


def test_input_subjects_in_lower_case_do_not_leak_into_the_driver_names() -> None:
    # Input's summaries say "return", not "Return": the old cover letter
    # took the whole subject for a driver name
    sites = [verdict("drivers/input/evdev.c", "evdev", "Input: evdev -", (5, "EINVAL", "ENOTTY")),
             verdict("drivers/input/joydev.c", "joydev", "Input: joydev -", (6, "EINVAL", "ENOTTY"))]
    text = blurb(sites, {"drivers/input/evdev.c": "evdev", "drivers/input/joydev.c": "joydev"}, 2)
    assert text.startswith("The ioctl handlers of evdev and joydev answer a command they do not know with -EINVAL.")
    assert "for unknown ioctl commands" not in text


def test_the_rule_sentence_is_a_count_and_absent_without_the_rule() -> None:
    assert "reports 1 of the 2 exits this series changes" in blurb(XEN, MODULES, 1)
    without = blurb(XEN, MODULES, None)
    assert "ioctl_enotty.cocci" not in without and "coccicheck" not in without


def test_without_builds_the_checks_are_one_sentence() -> None:
    assert "Each patch applies in order to Linux 6.12.118 and passes checkpatch." in blurb(XEN, MODULES, 1)
