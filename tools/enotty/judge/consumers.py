"""User space that reads a handler's old EINVAL (consumers.tsv), decided per tree.

Each row of consumers.tsv says what kind of evidence it is, so that the
judge re-reads it on the tree being patched instead of trusting a reading
of another tree:

  program    a program outside the kernel (s390-tools, hdparm, LTP,
             systemd): it holds on every tree;
  in-tree    a test of the kernel tree, `test` its path: it holds only on a
             tree whose copy of that file exists and still expects EINVAL
             after an ioctl() (a test that moved or was rewritten upstream
             keeps nothing out there);
  mainline   a test that mainline added after the tree it first mattered
             for (`since`: the first tree version this table read it in):
             on an older tree it holds as mainline's word, since the patch
             goes to mainline, where the test expects EINVAL; from `since`
             on, the tree's own copy decides as for in-tree.

keep=no rows name consumers that take ENOTTY as "not supported" (systemd's
watchdog code): they are documentation and never keep a handler out.
keep=cased rows name consumers that test a command the handler has a case
for (QEMU's TUNSETVNETLE, libevdev's EVIOCGPROP): the patch does not touch
that answer, and its message says so (source_facts.unaffected_consumers()).
"""
from __future__ import annotations

import csv
import re
from dataclasses import dataclass, replace
from pathlib import Path

from . import selftest_search
from ..errors import UsageError

TABLE = Path(__file__).with_name("consumers.tsv")
COLUMNS = ("command", "consumer", "reads", "source", "keep", "evidence", "test", "since", "commands")
EVIDENCE = ("program", "in-tree", "mainline")


@dataclass(frozen=True)
class Consumer:
    command: str           # a command name, or the handler's source file
    consumer: str          # who reads the answer; its first words name it in reasons
    reads: str
    source: str
    keep: bool = True      # False: the consumer takes ENOTTY as "not supported"
    evidence: str = "program"
    test: str = "-"        # in-tree, mainline: the test's path in a kernel tree
    since: str = "-"       # mainline: the first tree version this table read the test in
    cased: bool = False    # keep=cased: it tests a command the handler has a case for
    # a source-file row: the known commands whose answer the consumer reads
    # (tools/iio's IIO_GET_EVENT_FD_IOCTL); () when it sends unknown ones
    commands: tuple[str, ...] = ()

    @property
    def who(self) -> str:
        """The consumer's name, without what the table says of it in parentheses."""
        return self.consumer.split(" (")[0]


def read(path: Path = TABLE) -> list[Consumer]:
    """The rows of consumers.tsv; no file, no rows; a malformed row: UsageError."""
    if not path.is_file():
        return []
    lines = [ln for ln in path.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    out = []
    for n, row in enumerate(csv.DictReader(lines, delimiter="\t"), start=2):
        evidence = row.get("evidence") or "program"
        test, since = row.get("test") or "-", row.get("since") or "-"
        if evidence not in EVIDENCE or (evidence != "program" and test == "-") \
                or (evidence == "mainline" and not _version(since)):
            raise UsageError(f"{path.name}: row {n} ({row.get('command')}): evidence must be one of "
                             f"{', '.join(EVIDENCE)}, with a test path (and for mainline a since version)")
        named = row.get("commands") or "-"
        out.append(Consumer(row["command"], row["consumer"], row["reads"], row["source"],
                            row.get("keep", "yes") not in ("no", "cased"), evidence, test, since,
                            row.get("keep") == "cased", () if named == "-" else tuple(named.split(","))))
    return out


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split(".")) if re.fullmatch(r"\d+(\.\d+)*", text) else ()


def expects_einval(root: Path, test: str, command: str = "") -> bool:
    """The tree's copy of test exists and expects EINVAL (or errno 22)
    after an ioctl() call; for a command row, within a few lines of a
    line that names the command (KVM's selftests call __kvm_ioctl())."""
    path = root / test
    if not path.is_file():
        return False
    text = path.read_text(errors="replace")
    if "/" in command or not command:
        return bool(selftest_search.read_test(test, text).probes)
    lines = text.splitlines()
    named = [n for n, ln in enumerate(lines) if re.search(r"\b%s\b" % re.escape(command), ln)]
    return any(selftest_search.expects_einval(ln)
               for n in named for ln in lines[n:n + selftest_search.WINDOW + 1])


def decide(row: Consumer, root: Path, version: str) -> tuple[Consumer | None, str]:
    """(the row as it holds on the tree at root, or None; why)."""
    if row.cased:
        return None, "tests a command the handler has a case for"
    if not row.keep:
        return None, "takes ENOTTY as not supported"
    if row.evidence == "program":
        return row, "a program outside the tree"
    if row.evidence == "mainline" and _version(version) < _version(row.since):
        # the tree is older than the test: the patch meets it in mainline
        return replace(row, consumer="mainline " + row.consumer), f"mainline's test (tree older than {row.since})"
    if expects_einval(root, row.test, row.command):
        return row, f"{row.test} expects EINVAL in this tree"
    if (root / row.test).is_file():
        return None, f"{row.test} expects no EINVAL in this tree"
    return None, f"{row.test} is not in this tree"


def holding(root: Path, version: str, rows: list[Consumer] | None = None) -> dict[str, list[Consumer]]:
    """The rows that keep handlers out on the tree at root (of that
    version), by command or source file."""
    out: dict[str, list[Consumer]] = {}
    for row in read() if rows is None else rows:
        held, _why = decide(row, root, version)
        if held is not None:
            out.setdefault(held.command, []).append(held)
    return out
