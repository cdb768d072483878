"""The series that go upstream beside the conversions: the semantic patch.

Tree-wide Coccinelle campaigns send the rule itself to scripts/coccinelle/
so that `make coccicheck` catches the next handler that answers -EINVAL.
cocci/upstream/ioctl_enotty.cocci is that rule, sized like its neighbours
in scripts/coccinelle/api/ (the per-file default shapes only; the scan's
tree-wide discovery stays in cocci/ioctl_enotty.cocci).  rule_mail()
formats it as a one-patch series (no cover letter, as series.py does for
every one-patch series); compose() gives it and the media kselftest patch
to the render stage, which addresses them with the series' mails
(recipients.address), and the verify stage checks them (verify/outgoing.py).
"""
from __future__ import annotations

import difflib
import re
import tempfile
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from ..find import rules
from . import series
from ..partition import split
from ..requests import Identity

UPSTREAM_RULE = rules.cocci_dir() / "upstream" / "ioctl_enotty.cocci"
RULE_PATH = "scripts/coccinelle/api/ioctl_enotty.cocci"
RULE_SERIES = "coccinelle"
# scripts/coccinelle additions upstream: "coccinelle: api: add device_attr_show script".
RULE_SUBJECT = "coccinelle: api: add ioctl_enotty script"
RULE_BODY = (
    "Documentation/driver-api/ioctl.rst (\"Return code\") says that an ioctl\n"
    "handler answers a command it does not know with -ENOTTY or -ENOIOCTLCMD,\n"
    "and that -EINVAL there is wrong.  Many handlers still answer -EINVAL,\n"
    "which tells user space that a known command got a bad argument.\n"
    "\n"
    "Add a semantic patch that finds these answers (and -ENOSYS or -EBADRQC,\n"
    "and -EOPNOTSUPP, -ENOTSUPP or -EFAULT where -ENOTTY is due) in a handler\n"
    "stored in an ioctl member of an ops structure in the same file, and in the\n"
    "static functions it hands the command to (and one level further): the\n"
    "default of a switch on the command, the return after a switch or an\n"
    "if-chain that no known command reaches, an error set before a switch that\n"
    "no case returns (where a case leaves with it, only reported: a default\n"
    "must answer), a test of the command or its type, and the miss of a table\n"
    "lookup.  In patch mode it gives each the answer its interface needs:\n"
    "-ENOIOCTLCMD where the core maps it to ENOTTY (tty, sockets, V4L2\n"
    "sub-devices), -EOPNOTSUPP for ndo_siocdevprivate (the core's answer\n"
    "without one).  A handler is converted whole or not at all: one that\n"
    "answers -EINVAL to a check of its state or argument before it looks at the\n"
    "command is left alone, and so are the handlers whose -EINVAL for an\n"
    "unknown command rtctest, the hid selftest, test_dbc.py, hdparm, Android's\n"
    "binder test, OSS programs and iproute2 read (those with an RTC_RD_TIME,\n"
    "DBCIOCNONCE, HDIO_DRIVE_TASKFILE, BINDER_WRITE_READ, SNDCTL_DSP_RESET,\n"
    "SNDCTL_FM_LOAD_INSTR, HIDIOCGRDESCSIZE or, for sit, SIOCGETPRL case).\n"
    "Every change it makes changes what user space sees: check the programs\n"
    "that use the handler before sending one.\n")


def upstream_rule_text() -> str:
    return UPSTREAM_RULE.read_text()


def rule_table(text: str) -> dict[tuple[str, str], str]:
    """The ANSWER table of the upstream rule, as (struct, member) -> answer;
    each ("ANSWER", <triple-quoted members>) pair lists struct.member names."""
    table = {}
    for to, members in re.findall(r'\("(\w+)", """(.*?)"""\)', text, re.S):
        for member in members.split():
            struct, field = member.split(".")
            table[(struct, field)] = to
    return table


def rule_diff(text: str) -> str:
    """The diff adding the rule at RULE_PATH."""
    lines = text.splitlines()
    body = "".join(f"+{line}\n" for line in lines)
    return (f"diff --git a/{RULE_PATH} b/{RULE_PATH}\nnew file mode 100644\n"
            f"--- /dev/null\n+++ b/{RULE_PATH}\n@@ -0,0 +1,{len(lines)} @@\n{body}")


def takes_rule(root: Path) -> bool:
    """The tree has the folder the rule goes to (a kernel tree, not a
    folder of C files or a fixture)."""
    return (root / "scripts" / "coccinelle" / "api").is_dir()


def takes_selftest(root: Path) -> bool:
    """The tree has the kselftest build the test plugs into."""
    return (root / "tools" / "testing" / "selftests" / "lib.mk").is_file()


def rule_message(identity: Identity) -> str:
    return f"{RULE_SUBJECT}\n\n{RULE_BODY}\nSigned-off-by: {identity}\n"


def rule_mail(identity: Identity) -> series.Mail:
    """The rule's one-patch series, not yet addressed."""
    with tempfile.TemporaryDirectory(prefix="companions-", dir=series.scratch_root()) as tmp:
        repo = series.ScratchRepo(Path(tmp) / "repo", identity)
        repo.git("commit", "-q", "--no-verify", "--allow-empty", "-m", "pristine")
        repo.git("tag", "pristine")
        error = repo.apply(rule_diff(upstream_rule_text()))
        if error:
            raise series.SeriesError(f"{RULE_PATH}: {error}")
        repo.commit(rule_message(identity))
        mails = repo.format_patch(Path(tmp) / "out", 1)
        if len(mails) != 1:
            raise series.SeriesError(f"git format-patch wrote {len(mails)} files for the rule")
        return series.Mail(mails[0].name, mails[0].read_text())


# ---------------------------------------------------------------- the media kselftest

SELFTEST_SOURCE = rules.cocci_dir().parent / "selftests" / "ioctl_errno"
SELFTEST_TARGET = "drivers/media"
SELFTEST_DIR = f"tools/testing/selftests/{SELFTEST_TARGET}"
SELFTESTS_MAKEFILE = "tools/testing/selftests/Makefile"
# The MAINTAINERS section whose F: lines gain the new folder: the media
# maintainers (and linux-media) review it with the drivers it tests.
# (tools/testing/selftests/media_tests/ has no entry of its own.)
MEDIA_SECTION = "MEDIA INPUT INFRASTRUCTURE (V4L/DVB)"
# The drivers whose nodes the kselftest asks: their maintainers are Cc'd
# (a reviewer missed vivid's on the patch)
TESTED_SECTIONS = ("VIVID VIRTUAL VIDEO DRIVER", "VIMC VIRTUAL MEDIA CONTROLLER DRIVER")
SELFTEST_PROGRAMS = ("ioctl_errno", "ioctl_errno_32")
SELFTEST_SUBJECT = "selftests: drivers/media: add ioctl errno test for vivid and vimc"
# The last paragraph; placement() joins its own sentences to it.
SELFTEST_OWNERS = "The new folder goes to the media maintainers in MAINTAINERS.\n"
SELFTEST_BODY = (
    "Check what the nodes of the vivid and vimc test drivers (video, vbi,\n"
    "radio, sdr, touch, meta, media, requests, sub-devices, CEC and the\n"
    "vivid framebuffer) answer to ioctls: an unknown command of their own\n"
    "range or of a foreign one must fail with ENOTTY, as\n"
    "Documentation/driver-api/ioctl.rst asks, and so must a known command\n"
    "the node does not support (Documentation/userspace-api/media/\n"
    "gen-errors.rst); a supported command with a bad argument still fails\n"
    "with EINVAL.\n"
    "\n"
    "ioctl_errno.sh loads vivid (with its framebuffer node) and vimc when\n"
    "they are not loaded, tries to unload them at the end, and skips when it\n"
    "can load neither; the config fragment builds both as modules.  It runs\n"
    "ioctl_errno, and ioctl_errno_32 where the compiler builds -m32 programs\n"
    "with the kernel's uapi headers and the kernel runs them (on a 64-bit\n"
    "kernel, the compat paths).  Node kinds that are not present are skipped.\n"
    "Without the vivid patch of this series, vivid_fb_ioctl() answers EINVAL\n"
    "and ioctl_errno fails its framebuffer cases (ioctl_errno_32 passes them:\n"
    "vivid has no fb_compat_ioctl).\n"
    "\n" + SELFTEST_OWNERS)


def config_fragment(root: Path | None) -> str:
    """The config fragment as the tree takes it: a symbol no Kconfig file
    under drivers/ of root defines is left out (7.2 has
    CONFIG_VIDEO_VIVID_OSD, the switch of vivid's framebuffer node; 6.12
    builds that node with vivid and has no such symbol)."""
    text = (SELFTEST_SOURCE / "config").read_text()
    if root is None or not (root / "drivers").is_dir():
        return text
    kconfig = "\n".join(p.read_text(errors="replace") for p in sorted((root / "drivers").rglob("Kconfig*"))
                        if p.is_file())
    defined = set(re.findall(r"^\s*(?:menu)?config\s+(\w+)", kconfig, re.M))
    return "".join(line for line in text.splitlines(keepends=True)
                   if not (m := re.match(r"CONFIG_(\w+)=", line)) or m.group(1) in defined)


def selftest_files(root: Path | None = None) -> dict[str, str]:
    """The new files of the kselftest patch, path -> content (the config
    fragment as root takes it)."""
    return {
        f"{SELFTEST_DIR}/.gitignore": "# SPDX-License-Identifier: GPL-2.0\n"
                                      + "".join(f"{name}\n" for name in SELFTEST_PROGRAMS),
        f"{SELFTEST_DIR}/Makefile": (SELFTEST_SOURCE / "Makefile").read_text(),
        f"{SELFTEST_DIR}/config": config_fragment(root),
        f"{SELFTEST_DIR}/ioctl_errno.c": (SELFTEST_SOURCE / "ioctl_errno.c").read_text(),
        f"{SELFTEST_DIR}/ioctl_errno.sh": (SELFTEST_SOURCE / "ioctl_errno.sh").read_text(),
    }


# new files and their modes: the wrapper runs as a program
EXECUTABLE = (f"{SELFTEST_DIR}/ioctl_errno.sh",)


def new_file_diff(path: str, text: str) -> str:
    lines = text.splitlines()
    mode = "100755" if path in EXECUTABLE else "100644"
    return (f"diff --git a/{path} b/{path}\nnew file mode {mode}\n--- /dev/null\n+++ b/{path}\n"
            f"@@ -0,0 +1,{len(lines)} @@\n" + "".join(f"+{line}\n" for line in lines))


def targets_diff(root: Path) -> str:
    """tools/testing/selftests/Makefile with the target in TARGETS, in
    order ('' when the tree lists it already or has no such list)."""
    path = root / SELFTESTS_MAKEFILE
    if not path.is_file():
        return ""
    old = path.read_text().splitlines(keepends=True)
    entry = f"TARGETS += {SELFTEST_TARGET}\n"
    if entry in old:
        return ""
    where = next((i for i, line in enumerate(old) if line.startswith("TARGETS += ")
                  and line > entry and line.split()[2] > SELFTEST_TARGET), None)
    if where is None:
        return ""
    new = old[:where] + [entry] + old[where:]
    body = "".join(difflib.unified_diff(old, new, f"a/{SELFTESTS_MAKEFILE}", f"b/{SELFTESTS_MAKEFILE}"))
    return f"diff --git a/{SELFTESTS_MAKEFILE} b/{SELFTESTS_MAKEFILE}\n{body}"


def maintainers_diff(root: Path) -> str:
    """MAINTAINERS with the kselftest's folder among MEDIA_SECTION's F:
    lines, in order ('' when the tree has no such section or lists it)."""
    path = root / "MAINTAINERS"
    if not path.is_file():
        return ""
    old = path.read_text(errors="replace").splitlines(keepends=True)
    entry = f"F:\t{SELFTEST_DIR}/\n"
    start = next((i for i, line in enumerate(old) if line.rstrip("\n") == MEDIA_SECTION), None)
    if start is None or entry in old:
        return ""
    end = next((i for i in range(start, len(old)) if not old[i].strip()), len(old))
    files = [i for i in range(start, end) if old[i].startswith("F:\t")]
    if not files:
        return ""
    where = next((i for i in files if old[i] > entry), files[-1] + 1)
    new = old[:where] + [entry] + old[where:]
    body = "".join(difflib.unified_diff(old, new, "a/MAINTAINERS", "b/MAINTAINERS"))
    return f"diff --git a/MAINTAINERS b/MAINTAINERS\n{body}"


def selftest_diff(root: Path) -> str:
    return (maintainers_diff(root) + targets_diff(root)
            + "".join(new_file_diff(p, t) for p, t in sorted(selftest_files(root).items())))


MEDIA_TESTS = "tools/testing/selftests/media_tests"
# Why the test is no file of media_tests/: said only where the tree's
# media_tests/ is what it says (a folder the kselftest TARGETS leave out).
PLACEMENT = (
    "It lives in drivers/media rather than in media_tests: the programs\n"
    "there are run by hand on a device named on their command line (their\n"
    "comments say they should not be included in the kselftest run), and\n"
    "media_tests is not in the kselftest TARGETS; this test finds its nodes\n"
    "itself and runs with every kselftest run of drivers/media.\n")


def placement(root: Path | None) -> str:
    """PLACEMENT when root's media_tests/ is a folder that the kselftest
    TARGETS leave out, else ''."""
    if root is None or not (root / MEDIA_TESTS).is_dir():
        return ""
    makefile = root / SELFTESTS_MAKEFILE
    targets = makefile.read_text(errors="replace") if makefile.is_file() else ""
    if re.search(r"^TARGETS\s*\+?=.*\bmedia_tests\b", targets, re.M):
        return ""
    return PLACEMENT


def selftest_message(identity: Identity, root: Path | None = None) -> str:
    where = placement(root)
    # one paragraph with the MAINTAINERS sentence: where the test lives, and who takes it
    joined = textwrap.fill(where.strip().replace("\n", " ") + "  " + SELFTEST_OWNERS.strip(), width=72) + "\n"
    body = SELFTEST_BODY.replace(SELFTEST_OWNERS, joined) if where else SELFTEST_BODY
    return f"{SELFTEST_SUBJECT}\n\n{body}\nSigned-off-by: {identity}\n"


@dataclass
class NewFilesPlan(split.PatchPlan):
    """A patch that adds files (and may touch a list of targets): no site,
    nothing for the scan's build or rules; series.format_mails seeds only
    `seeded` (files that exist in the tree) and applies `added_diff`."""
    added_diff: str = ""
    seeded: list[str] = field(default_factory=list)

    @property
    def diff(self) -> str:
        return self.added_diff

    @property
    def paths(self) -> list[str]:
        return list(self.seeded)


def selftest_patch(root: Path, identity: Identity) -> series.Patch:
    """The media series' kselftest patch, to go after its conversions,
    not yet addressed."""
    plan = NewFilesPlan(key="selftest", driver="selftests", section="",
                        added_diff=selftest_diff(root),
                        seeded=([SELFTESTS_MAKEFILE] if targets_diff(root) else [])
                        + (["MAINTAINERS"] if maintainers_diff(root) else []))
    return series.Patch(plan, SELFTEST_SUBJECT, selftest_message(identity, root))


# ---------------------------------------------------------------- both

@dataclass(frozen=True)
class Companions:
    """The patches sent beside the conversions, composed once; addressed
    with the series' mails (recipients.address); the verify stage checks
    them like the others (verify/outgoing.py)."""
    selftest: series.Patch | None = None   # the media series' kselftest patch, to go last
    rule: series.Mail | None = None        # the semantic patch's one-patch series
    selftest_mail: series.Mail | None = None   # the kselftest's mail, last in the media series as formatted


def compose(root: Path, identity: Identity, media: bool) -> Companions:
    """The companion patches a tree takes: the kselftest when it has the
    kselftest build and a media series (media), the rule when it has
    scripts/coccinelle/api."""
    with_test, with_rule = media and takes_selftest(root), takes_rule(root)
    test = selftest_patch(root, identity) if with_test else None
    return Companions(test, rule_mail(identity) if with_rule else None)
