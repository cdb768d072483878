"""The interface table, cocci/interfaces.tsv: one typed row per ops member.

Every per-interface fact of the toolkit is a column of this one table
(cocci/INTERFACES.rst, "The table's columns", says what each means and
where it comes from): the rule file is assembled from it (enotty.find.rules),
phase 1 follows its handlers (enotty.find.facts), the effect columns read its
compat and core columns (enotty.judge.effects), and the commit messages take
its words (enotty.render.messages, enotty.render.cleanup).  No module keeps a dictionary
keyed by an interface of its own.

The file is tab-separated with a header line; `-` is an empty cell; a
list cell separates its items with single spaces (items hold no space);
lines starting with `#` and blank lines are skipped.  A malformed row is
one UsageError naming the file, the line and the column.

    table()        the committed table's rows, read once
    by_name()      {struct.field: row}
    row(name)      one row, or None
    read(path)     the rows of another table (a copy of cocci/, a test)
    format_row()   one line of a table, from its cells
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import UsageError

TABLE = Path(__file__).resolve().parents[3] / "cocci" / "interfaces.tsv"
HEADER = ("struct", "field", "cmd_arg", "to", "keep_enoioctlcmd", "dispatch", "embedded_in",
          "kept_hooks", "compat_field", "compat_pass", "compat_beside", "compat_by_core",
          "compat_callers", "core_filters", "subcommand", "einval_without", "enotty_by", "forward",
          "dispatch_sentence", "reached_only", "reported_cores", "also_from")
ERRNOS = ("ENOTTY", "ENOIOCTLCMD", "EOPNOTSUPP")
# Errnos an also_from cell may name: answers a default gives an unknown
# command besides -EINVAL and -ENOSYS (which every row converts).
# -ENOTSUPP (524) is kernel-internal: user space sees "Unknown error 524".
ALSO_FROM = ("ENOTSUPP", "EOPNOTSUPP", "EFAULT")
EMPTY = "-"
PLACEHOLDER = "{handler}"      # in dispatch_sentence: the handler's name(s)

_IDENT = re.compile(r"[A-Za-z_]\w*")
_FUNCTION_IN_FILE = re.compile(r"[\w./+-]+\.[ch]:[A-Za-z_]\w*")


@dataclass(frozen=True)
class CoreFilter:
    """A core switch that answers some commands before the driver's handler
    sees them: a case whose body does not match forward is the core's own
    (forward None: every case is)."""
    file: str
    function: str
    forward: str | None


@dataclass(frozen=True)
class ReportedCore:
    """A core whose own unknown-command answers the scan lists (under the
    row's interface) although no series changes them: phase 1 makes it a
    target, with its command parameter at cmd_arg."""
    file: str
    function: str
    cmd_arg: int


@dataclass(frozen=True)
class Interface:
    """One row: an ops member that handles ioctl commands, and what the
    core around it does.  Empty cells are '', (), None or False."""
    struct: str
    field: str
    cmd_arg: int                  # 0-based index of the command parameter
    to: str                       # ENOTTY or ENOIOCTLCMD: the unknown-command answer
    keep_enoioctlcmd: bool
    dispatch: str                 # file:function of the core that calls the member
    embedded_in: str = ""         # container.member holding the ops structure (snd_hwdep.ops)
    kept_hooks: tuple[str, ...] = ()       # called from a default, keep their answer
    compat_field: str = ""        # the member of the same table compat callers use
    compat_pass: tuple[str, ...] = ()      # compat functions that pass every command on
    compat_beside: tuple[str, str] | None = None   # (member, function) the compat member sits beside
    compat_by_core: str = ""      # 'all' or the class of commands the core hands compat callers
    compat_callers: str = ""      # who sees the change when compat_by_core is a class, in words
    core_filters: tuple[CoreFilter, ...] = ()
    subcommand: bool = False      # the handler gets a sub-command, not a uapi command
    einval_without: str = ""      # member whose absence the core answers with -EINVAL
    enotty_by: str = ""           # who turns -ENOIOCTLCMD into ENOTTY, in words
    forward: str = ""             # where a try-next answer goes on to, in words
    dispatch_sentence: str = ""   # what the core does with the answer, with {handler}
    reached_only: str = ""        # the core's conditions for reaching the handler, in words
    reported_cores: tuple[ReportedCore, ...] = ()   # cores listed under this interface
    also_from: tuple[str, ...] = ()        # answers of a default that convert besides EINVAL, ENOSYS

    @property
    def name(self) -> str:
        return f"{self.struct}.{self.field}"

    @property
    def is_compat(self) -> bool:
        """The member serves 32-bit callers (compat_ioctl, compat_ioctl32)."""
        return "compat" in self.field or self.field.endswith("ioctl32")


class _Row:
    """The cells of one line, with the checks that name line and column."""

    def __init__(self, where: str, cells: list[str]):
        self.where = where
        self.cells = dict(zip(HEADER, (c.strip() for c in cells)))

    def fail(self, column: str, why: str) -> UsageError:
        return UsageError(f"{self.where}: {column} {why}, got {self.cells[column]!r}")

    def text(self, column: str) -> str:
        value = self.cells[column]
        if not value:
            raise self.fail(column, f"is empty (write {EMPTY} for none)")
        return "" if value == EMPTY else value

    def ident(self, column: str) -> str:
        value = self.text(column)
        if value and not _IDENT.fullmatch(value):
            raise self.fail(column, "must be a C identifier")
        return value

    def idents(self, column: str) -> tuple[str, ...]:
        items = tuple(self.text(column).split(" ")) if self.text(column) else ()
        if not all(_IDENT.fullmatch(i) for i in items):
            raise self.fail(column, "must be C identifiers separated by single spaces")
        return items

    def yes_no(self, column: str) -> bool:
        value = self.cells[column]
        if value not in ("yes", "no"):
            raise self.fail(column, "must be yes or no")
        return value == "yes"

    def choice(self, column: str, allowed: tuple[str, ...]) -> str:
        if self.cells[column] not in allowed:
            raise self.fail(column, f"must be one of {', '.join(allowed)}")
        return self.cells[column]

    def filters(self, column: str) -> tuple[CoreFilter, ...]:
        out = []
        for item in self.text(column).split(" ") if self.text(column) else ():
            file, _, rest = item.partition(":")
            function, _, forward = rest.partition(":")
            if not _FUNCTION_IN_FILE.fullmatch(f"{file}:{function}"):
                raise self.fail(column, "must be file.c:function[:forward-regex] items")
            try:
                re.compile(forward)
            except re.error as err:
                raise self.fail(column, f"has a bad regex ({err})") from None
            out.append(CoreFilter(file, function, forward or None))
        return tuple(out)

    def errnos(self, column: str, allowed: tuple[str, ...]) -> tuple[str, ...]:
        items = self.idents(column)
        if not set(items) <= set(allowed):
            raise self.fail(column, f"may name only {', '.join(allowed)}")
        return items

    def cores(self, column: str) -> tuple[ReportedCore, ...]:
        out = []
        for item in self.text(column).split(" ") if self.text(column) else ():
            file, _, rest = item.partition(":")
            function, _, index = rest.partition(":")
            if not _FUNCTION_IN_FILE.fullmatch(f"{file}:{function}") or not index.isdigit():
                raise self.fail(column, "must be file.c:function:cmd_arg items")
            out.append(ReportedCore(file, function, int(index)))
        return tuple(out)


def _interface(where: str, cells: list[str]) -> Interface:
    r = _Row(where, cells)
    struct, field = r.ident("struct"), r.ident("field")
    if not struct or not field:
        raise r.fail("struct" if not struct else "field", "must be a C identifier")
    if not r.cells["cmd_arg"].isdigit():
        raise r.fail("cmd_arg", "must be a 0-based index")
    dispatch = r.text("dispatch")
    if dispatch and not _FUNCTION_IN_FILE.fullmatch(dispatch):
        raise r.fail("dispatch", "must be file.c:function")
    embedded_in = r.text("embedded_in")
    if embedded_in and not re.fullmatch(r"[A-Za-z_]\w*\.[A-Za-z_]\w*", embedded_in):
        raise r.fail("embedded_in", "must be struct.member")
    beside = r.text("compat_beside")
    member, eq, function = beside.partition("=")
    if beside and not (eq and _IDENT.fullmatch(member) and _IDENT.fullmatch(function)):
        raise r.fail("compat_beside", "must be member=function")
    by_core = r.text("compat_by_core")
    if by_core and by_core != "all" and not re.fullmatch(r"[A-Z][A-Za-z0-9]*", by_core):
        raise r.fail("compat_by_core", "must be all or a class of commands (V, SIOC)")
    callers = r.text("compat_callers")
    if bool(callers) != (by_core not in ("", "all")):
        raise r.fail("compat_callers", "must say who sees the change exactly when compat_by_core is a class")
    sentence = r.text("dispatch_sentence")
    if re.sub(re.escape(PLACEHOLDER), "", sentence).count("{"):
        raise r.fail("dispatch_sentence", f"may hold no placeholder but {PLACEHOLDER}")
    return Interface(
        struct, field, int(r.cells["cmd_arg"]), r.choice("to", ERRNOS),
        r.yes_no("keep_enoioctlcmd"), dispatch, embedded_in, r.idents("kept_hooks"),
        r.ident("compat_field"), r.idents("compat_pass"),
        (member, function) if beside else None, by_core, callers, r.filters("core_filters"),
        r.yes_no("subcommand"), r.ident("einval_without"), r.text("enotty_by"),
        r.text("forward"), sentence, r.text("reached_only"), r.cores("reported_cores"),
        r.errnos("also_from", ALSO_FROM))


def parse(text: str, where: str = "interfaces.tsv") -> list[Interface]:
    """The rows of a table's text, checked; UsageError names the bad line."""
    lines = text.splitlines()
    if not lines or tuple(lines[0].split("\t")) != HEADER:
        raise UsageError(f"{where}:1: header must be the {len(HEADER)} tab-separated columns "
                         f"{' '.join(HEADER)}")
    out: list[Interface] = []
    seen: dict[str, Interface] = {}
    line_of: dict[str, int] = {}
    for lineno, line in enumerate(lines[1:], start=2):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) != len(HEADER):
            raise UsageError(f"{where}:{lineno}: expected {len(HEADER)} tab-separated fields, "
                             f"got {len(cells)}")
        iface = _interface(f"{where}:{lineno}", cells)
        if iface.name in seen:
            raise UsageError(f"{where}:{lineno}: {iface.name} listed twice")
        same = [o for o in seen.values() if o.struct == iface.struct]
        if same and same[0].embedded_in != iface.embedded_in:
            raise UsageError(f"{where}:{lineno}: embedded_in of {iface.name} differs from "
                             f"{same[0].name}'s")
        seen[iface.name] = iface
        line_of[iface.name] = lineno
        out.append(iface)
    for iface in out:
        # the core's function is the dispatch of the missing member's row
        if iface.einval_without and f"{iface.struct}.{iface.einval_without}" not in seen:
            raise UsageError(f"{where}:{line_of[iface.name]}: einval_without names "
                             f"{iface.struct}.{iface.einval_without}, which is no row")
    return out


YES_NO = ("keep_enoioctlcmd", "subcommand")


def format_row(**cells: str) -> str:
    """One line of the table: the cells given by column name, the others
    empty (`-`, or `no` in a yes/no column)."""
    unknown = set(cells) - set(HEADER)
    if unknown:
        raise ValueError(f"no such column: {', '.join(sorted(unknown))}")
    values = {c: cells.get(c, "no" if c in YES_NO else EMPTY) for c in HEADER}
    return "\t".join(values.values()) + "\n"


def read(path: Path) -> list[Interface]:
    """The rows of the table at path; UsageError when it is unreadable or malformed."""
    try:
        text = path.read_text()
    except OSError as err:
        raise UsageError(f"{path}: {err.strerror}") from None
    return parse(text, str(path))


@functools.lru_cache(maxsize=1)
def table() -> tuple[Interface, ...]:
    """The committed table's rows, in file order (the rules' order of
    preference when one function serves two interfaces)."""
    return tuple(read(TABLE))


@functools.lru_cache(maxsize=1)
def by_name() -> dict[str, Interface]:
    return {i.name: i for i in table()}


def row(name: str) -> Interface | None:
    """The row of struct.field, or None for an interface the table lacks."""
    return by_name().get(name)


def embedded_ops(rows: tuple[Interface, ...] | list[Interface]) -> dict[tuple[str, str], str]:
    """(container struct, member) -> the ops structure it holds, sorted."""
    pairs = {i.embedded_in.partition(".")[::2]: i.struct for i in rows if i.embedded_in}
    return dict(sorted(pairs.items()))


def kept_hooks(rows: tuple[Interface, ...] | list[Interface]) -> tuple[str, ...]:
    """The kept hooks of every row, in table order, each once."""
    return tuple(dict.fromkeys(h for i in rows for h in i.kept_hooks))


def member_tokens() -> tuple[bytes, ...]:
    """`ioctl` plus every member of the table whose name lacks it
    (vidioc_default, ndo_siocdevprivate): a file that names none of these
    binds no handler."""
    fields = {i.field.encode() for i in table()}
    return (b"ioctl", *sorted(f for f in fields if b"ioctl" not in f))
