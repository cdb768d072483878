"""The handler model: a series converts a handler whole, or not at all.

A maintainer reviews a handler's contract ("a command this driver does not
know fails with ENOTTY"), not a line.  The sites the rules find are grouped
by the handler user space calls (the ops-table function, `entry`, for a
helper's site) and each handler is checked for an unknown-command exit the
series would leave with its old answer:

- an #if twin that keeps -EINVAL where the converted branch changes
  (sis: only the branch Coccinelle parsed changes);
- a check before the dispatch that answers every unknown command first:
  a command normaliser whose miss stays, `if (cmd)`, or a check of the
  state that answers the old errno itself (hfi1 before a context is
  assigned, ppdev before PPCLAIM: only testing the command first, as
  mainline pidfs now does, would make the answer complete, and that moves
  code a known command runs through).  A check of the argument
  (rpmsg_ctrl's copy_from_user(), a NULL argument) keeps no handler out: an
  unknown command with a valid argument gets past it;
- a direction or size check of the same handler that stays while another
  is converted (usblp: GET_DEVICE_ID and GET_PROTOCOLS would answer the
  same mistake differently);
- a final `return -EINVAL;` of a function whose other exit is converted
  (evdev: the type guard converted, the fall-through after the _IOC_NR
  chain not);
- a site of the handler that another reason keeps out of the series (an
  in-tree test expects the old answer).

Such a handler is left out whole, with one line saying why.  A handler
whose every site user space could see is kept out for such a reason (an
in-tree test, a file no configuration compiles) is left out too: its
sites carry that reason already, and handlers.tsv says it (`held`).  So is a site
whose line user space cannot reach today (the answer of a missing operation
that every in-tree driver provides, an exit behind a check that answers
first): it changes nothing anyone sees, and the exits users do hit are the
operations' own.
"""
from __future__ import annotations

import csv
import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, TextIO

from . import consumers as consumers_table
from . import effects, operations
from .consumers import Consumer
from .kept_commands import KeptAnswer, joined, readers_read, unkeepable
from ..find.sites import Site
from ..find import ctext, interfaces
from ..kernel import kconfig
from ..kernel.tree import kernel_version

COLUMNS = ("file", "handler", "functions", "sites", "series", "verdict", "left")
# User-space programs that read EINVAL after a known command a driver has
# no case for (tape390_crypt: "Kernel does not support tape encryption"):
# a handler whose converted default such a command reaches stays as it is.
CONSUMERS = consumers_table.TABLE

# Guard kinds (effects.guards) that answer an unknown command before the
# dispatch whatever the state of the device and the argument.  An argument
# check (copy_from_user() of a header -> -EFAULT, a NULL argument) is none:
# an unknown command with a valid argument gets past it and then answers
# ENOTTY, as under the V4L2 core, which copies the argument first too; the
# commit message says which check still answers first.
_FIRST_ANSWERS = ("command normaliser", "every command", "unknown-command answer")
# Why a state check that answers first is left out rather than fixed: the
# fix moves a test that known commands run through (7.2's pidfd_ioctl()
# tests pidfs_ioctl_valid(cmd) before anything else), a patch of its own
# that a reviewer judges per driver.
# A check the handler makes before its dispatch, said with its line and
# condition: ppdev's `(pp->flags & PP_CLAIMED) == 0` runs after a first
# switch on the command, so "before the command is looked at" was untrue.
_CHECK_FIRST = "a check before the dispatch ("
_STATE_FIX = "; testing the command first, as pidfd_ioctl() does, is a change of its own"
# So is one that answers the old errno (toshiba's `!argp`, aspeed-lpc-ctrl's
# `map.flags != 0` on the struct it copied), as issue 31 asks: reviewers had
# called these half conversions, so the message names the check and what it
# still answers.
_IOC_CHECK = re.compile(r"\b_IOC_(DIR|SIZE)\s*\(")
# Cores whose own answers the scan lists (interfaces.tsv, reported_cores) but
# no driver series may change: (file, function) -> why.
CORES = {
    ("drivers/gpu/drm/drm_ioctl.c", "drm_ioctl"):
        "the DRM core's table miss answers for every GPU driver (a core patch for dri-devel,"
        " not a driver series; drm_ioctl.c records user space that reads EINVAL, drm_getclient())",
    # a review (2026-12-06) rejected the conversion: known commands fall
    # into the default, and the 32-bit answer decides whether
    # vcc_compat_ioctl() translates the command at all
    ("net/atm/resources.c", "atm_dev_ioctl"):
        "ATM_SETLOOP and ATM_SETCIRANGE fall through into the default that answers -EINVAL without"
        " the driver's operation, and on the 32-bit path only -ENOIOCTLCMD would let"
        " vcc_compat_ioctl() translate the command; that is a change of its own for the ATM core",
}
# an #else that answers with anything but the new answers
_ANSWER_BY_ITSELF = re.compile(r"(?!ENOTTY$|ENOIOCTLCMD$)E[A-Z0-9]+")


@dataclass(frozen=True)
class Handler:
    """One handler and the unknown-command exits the series leaves alone."""
    file: str
    name: str                  # the function user space reaches through the ops table
    sites: tuple[Site, ...]
    left: tuple[str, ...]      # why the handler is not converted whole; () when it is
    module: str = ""           # what kbuild builds its file into (kconfig.module_name): evdev, xen-evtchn
    # why every site user space could see is kept out before the model
    # (analysis: an in-tree test, a toolchain this machine lacks); only
    # handlers.tsv reads it, as the sites' own reasons already explain them
    held: tuple[str, ...] = ()
    # sites no user-space call reaches, each with why (_unseen): every
    # uacce_ops sets .ioctl, so uacce_fops_unl_ioctl()'s -EINVAL answers no one
    unseen: tuple[tuple[Site, str], ...] = ()
    # sentences the message of a patch converting it must carry: what the
    # conversion leaves as it was (dma-heap's lookup by number alone)
    caveats: tuple[str, ...] = ()
    # its sites whose old answer stays for the known commands a program
    # reads it for (_consumed()), each with those commands
    kept: tuple[tuple[Site, KeptAnswer], ...] = ()

    @property
    def complete(self) -> bool:
        return not self.left

    def reason(self) -> str:
        return f"{self.file}: {self.name}() left out: " + "; ".join(self.left)


def handler_of(site: Site) -> str:
    return handlers_of(site)[0][1]


def handlers_of(site: Site) -> list[tuple[str, str]]:
    """(file, function) of the handler user space reaches the site through:
    the first entry, in the site's file; for a helper in a header
    (effects.header_entries()), every `file:function` entry, each a
    handler of its own file that the one site converts."""
    entry = site.effects.entry if site.effects else "-"
    if entry in ("-", "", "unknown"):
        return [(site.file, site.function)]
    names = entry.split(",")
    if ":" not in names[0]:
        return [(site.file, names[0])]
    return [(file, name) for file, _, name in (e.rpartition(":") for e in names)]


def _guards(site: Site) -> list[tuple[int, str, str, str]]:
    return site.effects.guard_items() if site.effects else []


def _answers_first(kind: str, errno: str, site: Site) -> bool:
    """A check before the dispatch that keeps the handler out: one that
    answers every command, or the site's old errno for a state it refuses."""
    return kind in _FIRST_ANSWERS or (kind == "state check" and errno == site.from_
                                      and errno in effects.OLD_ANSWERS)


def _twin(site: Site) -> str:
    branches = site.effects.branches if site.effects else "all"
    if branches.startswith(("#", "other definition")):
        return re.sub(r" at line \d+", "", branches)
    return ""


def _unreachable(site: Site) -> str:
    """Why no unknown command reaches the site past a check that answers
    every command first (atomisp's `if (cmd) return -EINVAL;`), or ''."""
    e = site.effects
    if e is None or e.visible != "unreachable":
        return ""
    checks = [(line, text) for line, text, _errno, kind in _guards(site) if kind in _FIRST_ANSWERS]
    where = f" (line {checks[0][0]}: `{checks[0][1]}`)" if checks else ""
    return f"a check before it{where} answers every unknown command first"


def _core_filtered(tree: effects.Tree, site: Site) -> str:
    """Why a member its core calls (interfaces.tsv dispatch: ndo_tunnel_ctl,
    called by ip_tunnel_siocdevprivate()) gets known commands only in this
    file: the file does not bind the core itself, and calls it only under
    case labels of its own switch (sit's ipip6_tunnel_siocdevprivate() hands
    ip_tunnel_siocdevprivate() SIOCGETTUNNEL..SIOCDELTUNNEL, so
    ipip6_tunnel_ctl()'s default answers no one: a reviewer); '' otherwise."""
    row = interfaces.row(site.interface)
    cf = tree.file(site.file)
    if row is None or ":" not in row.dispatch or cf is None:
        return ""
    core = row.dispatch.rpartition(":")[2]
    code = cf.code
    if core not in code or re.search(r"=\s*&?\s*%s\b" % core, code):
        return ""
    calls_core = re.compile(r"\b%s\s*\(" % core)
    callers = []
    for fn in effects.functions(cf):
        body = code[fn.body:fn.end]
        if fn.name == core or not calls_core.search(body):
            continue
        calling = effects.arms_matching(code, fn, calls_core)
        outside = len(calls_core.findall(body)) > len(calling)
        if outside or not calling or any("default" in labels for labels in calling):
            return ""
        callers.append(fn.name)
    if not callers:
        return ""
    return (f"{' and '.join(f'{n}()' for n in callers)} hands {core}() only the commands {'it has' if len(callers) == 1 else 'they have'}"
            f" cases for, so no unknown command reaches the {site.interface.partition('.')[2]} of this file")


def _without_operation(tree: effects.Tree, site: Site, functions: set[str]) -> tuple[str, str]:
    """A site that answers only where the vector behind its dispatcher has
    no operation (effects' reach no-operation): (why no one sees it, why
    the handler is left out); ('', '') when a vector lacks the operation
    and nothing keeps the line (atm_dev_ioctl(): solos-pci's fpga_ops has
    no ioctl, and usbatm's answers -ENOIOCTLCMD, which it maps to ENOTTY).
    functions: the functions of the output's sites."""
    e = site.effects
    if e is None or e.reach != "no-operation":
        return "", ""
    cf = tree.file(site.file)
    fn = effects.function_at(cf, site.function, site.line) if cf else None
    operation = effects.missing_operation(cf, fn, site.line) if cf and fn else ""
    found = operations.providers(tree, cf, fn, operation) if cf and fn and operation else None
    if found is None:
        return (f"{site.function}() answers -{site.from_} here only where {operation or 'the operation'} is "
                "missing; which of its providers lack it was not read, so the line is left as it is"), ""
    if not found.lacking:
        ops = sorted({v.operation for v in found.providing})
        return (f"every {found.type} in the tree sets .{found.member} ({operations.names(found.vectors)}), "
                f"so {site.function}() hands each command it has no case for to "
                f"{ops[0] + '()' if len(ops) == 1 else 'that operation'} and never answers with this "
                f"-{site.from_}"), ""
    kept = [v for v in found.providing
            if v.operation not in functions and own_answer_of(tree, v) in effects.OLD_ANSWERS]
    if not kept:
        return "", ""
    answers = ", ".join(f"{v.operation}() of {v.name}" for v in kept)
    return "", (f"{site.function}() answers this -{site.from_} only for a {found.type} without "
                f".{found.member}: {operations.names(found.lacking)}; on the others the operation answers "
                f"unknown commands itself with -{site.from_} ({answers}) and no site of this output is in "
                f"{'it' if len(kept) == 1 else 'them'}, so converting this line alone would change "
                f"{' and '.join(v.name for v in found.lacking)} only")


def own_answer_of(tree: effects.Tree, vector: operations.Vector) -> str:
    return operations.own_answer(tree, vector.file, vector.operation)


def read_consumers(path: Path = CONSUMERS) -> dict[str, list[Consumer]]:
    """Every row of consumers.tsv by command, whatever tree it holds on;
    no file, no consumers."""
    out: dict[str, list[Consumer]] = {}
    for c in consumers_table.read(path):
        out.setdefault(c.command, []).append(c)
    return out


def _consumed(site: Site, consumers: dict[str, list[Consumer]]) -> tuple[str, KeptAnswer | None]:
    """Why a command that reaches the converted line must keep its answer
    ('' when none must), and, when every such consumer reads it for known
    commands it names, those commands: the handler is converted with them
    kept instead of left out."""
    keepers: list[tuple[Consumer, tuple[str, ...]]] = []
    # a row whose command is the handler's source file: the consumer sends
    # it unknown commands (an in-tree test asserting errno 22), or the known
    # commands its `commands` cell names (tools/iio and iio_ioctl())
    for c in consumers.get(site.file, ()):
        if c.keep:
            keepers.append((c, c.commands))
    names = site.effects.uncased_commands() if site.effects else []
    for name in names:
        for c in consumers.get(name, ()):
            if c.keep:
                keepers.append((c, (name,)))
    if not keepers:
        return "", None
    if all(named for _c, named in keepers):
        commands = tuple(dict.fromkeys(n for _c, named in keepers for n in named))
        readers = tuple(dict.fromkeys(c.who for c, _named in keepers))
        return "", KeptAnswer(commands, site.from_, readers)
    c, _named = next(k for k in keepers if not k[1])
    who = c.who
    if c.command != site.file:
        return f"{c.command} reaches it and {who} reads its EINVAL", None
    if site.from_ == "EINVAL":
        return f"{who} expects EINVAL for an unknown command", None
    return f"its -{site.from_} is read by {who}", None


_ASKS_FIRST = re.compile(r"\bif\s*\(\s*!\s*(\w+)\s*\(\s*(\w+)\s*\)\s*\)\s*return\s+-\s*ENOIOCTLCMD\s*;")


def _validity_first(tree: effects.Tree, site: Site) -> str:
    """A leaf -ENOIOCTLCMD that the handler answers right after testing
    the command with a predicate of its own, before anything else
    (pidfd_ioctl() with pidfs_ioctl_valid(), ns_ioctl() with
    nsfs_ioctl_valid() in 7.2): upstream's deliberate unknown-command
    answer, which the VFS already turns into ENOTTY, so not even a
    CLEANUP=1 patch touches it."""
    if not effects.is_leaf(site):
        return ""
    found = _function(tree, site.file, site.function, site.line)
    if found is None:
        return ""
    cf, fn, body = found
    m = _ASKS_FIRST.search(body)
    if not m or m.group(2) != effects.cmd_param(fn) or cf.line_of(fn.body + m.end()) != site.line:
        return ""
    before = ctext.blank_lexemes(body[1:m.start()])
    predicate = re.search(r"\bbool\s+%s\s*\(" % re.escape(m.group(1)), cf.code)
    if not predicate or re.search(r"\b(if|return|switch)\b", before):
        return ""
    return (f"{site.function}() tests the command with {m.group(1)}() before anything else and answers "
            "-ENOIOCTLCMD on purpose for every command that fails it; vfs_ioctl() already turns that "
            "into ENOTTY, so the line stays as upstream wrote it")


def _ioc_checks_left(tree: effects.Tree, file: str, fn_name: str, sites: list[Site]) -> str:
    """'N of M' when the series converts some _IOC_DIR/_IOC_SIZE checks of
    fn and leaves others of the same function."""
    converted = {s.line for s in sites if s.function == fn_name and
                 s.rule == "ioctl_ioc_guard" and _IOC_CHECK.search(_line(tree, file, s.line, 2))}
    if not converted:
        return ""
    cf = tree.file(file)
    fn = effects.function_at(cf, fn_name, min(converted)) if cf else None
    if cf is None or fn is None:
        return ""
    checks = []
    for m in re.finditer(r"\bif\s*\(", cf.code[fn.body:fn.end]):
        start = fn.body + m.end() - 1
        close = ctext.match_close(cf.code, start)
        # a check that refuses: its branch answers an errno (usblp's
        # `if (length > _IOC_SIZE(cmd))` only truncates)
        refuses = re.match(r"\s*\{?\s*(?:\w+\s*=\s*|return\s+)\(?\s*-\s*E[A-Z0-9]+",
                           cf.code[close + 1:close + 120]) if close > 0 else None
        if refuses and _IOC_CHECK.search(cf.code[start:close]):
            checks.append(cf.line_of(start))
    # a converted line is the return under the check, one or two lines on
    done = [c for c in checks if any(0 < line - c <= 3 for line in converted)]
    if len(done) < len(checks):
        return f"{len(done)} of {len(checks)} direction and size checks of {fn_name}() would change"
    return ""


def _line(tree: effects.Tree, file: str, line: int, before: int) -> str:
    cf = tree.file(file)
    if cf is None:
        return ""
    return "\n".join(cf.line_text(n) for n in range(max(1, line - before), line + 1))


def _function(tree: effects.Tree, file: str, fn_name: str, line: int
              ) -> tuple[effects.CFile, effects.Function, str] | None:
    """The file, the function fn_name around line and its body, or None."""
    cf = tree.file(file)
    fn = effects.function_at(cf, fn_name, line) if cf else None
    if cf is None or fn is None:
        return None
    return cf, fn, cf.code[fn.body:fn.end]


def _final_return_left(tree: effects.Tree, file: str, fn_name: str, lines: set[int]) -> str:
    """The function's last statement is `return -EINVAL;` (or -ENOSYS) and
    the series leaves it while it converts another exit of the function."""
    found = _function(tree, file, fn_name, min(lines))
    if found is None:
        return ""
    cf, fn, body = found
    body = body.rstrip()
    if re.search(r"\bdefault\s*:", body):
        return ""      # the default answers unknown commands; the final return is someone else's
    m = re.search(r"\breturn\s+\(?\s*-\s*(EINVAL|ENOSYS)\s*\)?\s*;\s*}?$", body)
    if not m:
        return ""
    line = cf.line_of(fn.body + m.start())
    if line in lines:
        return ""
    return f"the final -{m.group(1)} of {fn_name}() would stay"


_CALL_UNLESS = re.compile(r"\bif\s*\((?P<cond>[^;{}]*?)\)\s*(?P<var>\w+)\s*=\s*(?P<call>\w+)\s*\([^;]*\)\s*;"
                         r"\s*else\b(?P<other>[^;]*;)")


def _dispatch_refused(tree: effects.Tree, file: str, fn_name: str, line: int) -> tuple[str, str]:
    """(why the handler stays out, or what its message must say): the
    function keeps its -EINVAL initialiser for every command when a state
    check refuses the dispatch: nbd_ioctl() calls __nbd_ioctl() only on a
    device not bound through netlink (or for two named commands).  A return
    above the check answers before it: nbd's guard of the command's type
    gives every foreign command its answer whatever the state, and the
    message says which commands still get -EINVAL (a reviewer)."""
    found = _function(tree, file, fn_name, line)
    if found is None:
        return "", ""
    cf, fn, body = found
    for m in _CALL_UNLESS.finditer(body):
        var, other = m.group("var"), m.group("other")
        if re.search(r"\b%s\s*=" % re.escape(var), other) or \
                not re.search(r"\b%s\s*=\s*-\s*EINVAL\s*;" % re.escape(var), body[:m.start()]):
            continue
        if line < cf.line_of(fn.body + m.start()) and re.search(r"\breturn\b", cf.line_text(line)):
            cond = " ".join(m.group("cond").split())
            return "", (f"A command that passes the check this patch changes still gets -EINVAL "
                        f"from {fn_name}() unless `{cond}` holds, an unknown one included.")
        return (f"{fn_name}() calls {m.group('call')}() only when a check of the state passes, "
                "and answers -EINVAL to every other command first"), ""
    return "", ""


_NUMBER_ONLY = re.compile(r"\b_IOC_NR\s*\(")


def _number_only(tree: effects.Tree, file: str, fn_name: str, line: int) -> str:
    """The handler picks its command from a table by _IOC_NR alone and no
    function of the file looks at _IOC_TYPE: a command of another type
    whose number is in the table is taken for the table's (dma-heap).  The
    converted bound answers every command past the table all the same, so
    this is said in the message, not a reason to leave the handler out."""
    found = _function(tree, file, fn_name, line)
    if found is None:
        return ""
    cf, fn, body = found
    cmd = effects.cmd_param(fn)
    # cxlflash names its commands in a switch first: only the index is by number
    compared = re.search(r"\bswitch\s*\(\s*%s\s*\)|\b%s\s*[!=]=|[!=]=\s*%s\b"
                         % ((re.escape(cmd),) * 3), body)
    if _NUMBER_ONLY.search(body) and re.search(r"\[\s*\w+\s*\]", body) and not compared \
            and not re.search(r"\b_IOC_TYPE\s*\(", cf.code):
        nr = re.search(r"\b(\w+)\s*=\s*_IOC_NR\s*\(", body)
        table = re.search(r"\b(\w+)\s*\[\s*%s\s*\]" % re.escape(nr.group(1)), body) if nr else None
        where = f"in {table.group(1)}[] " if table else ""
        return ("The exception is a command of another type with the number of a known one: "
                f"{fn_name}() looks a command up {where}by its number alone, so such a command "
                "still runs the known one, as before.")
    return ""


def _handed_on(tree: effects.Tree, file: str, fn_name: str, line: int, converted: set[str]) -> str:
    """A converted type guard in a function whose default hands the other
    commands of its own type to a function the series leaves
    (kvm_vcpu_ioctl(): default: r = kvm_arch_vcpu_ioctl(filp, ioctl, arg);
    an unused KVM number still gets the arch's -EINVAL)."""
    found = _function(tree, file, fn_name, line)
    if found is None:
        return ""
    _cf, fn, body = found
    cmd = effects.cmd_param(fn)
    for m in re.finditer(r"\bdefault\s*:", body):
        arm = re.split(r"\bbreak\s*;|\bcase\b", body[m.end():], maxsplit=1)[0]
        # the value of a call that is given the command is the answer
        call = re.search(r"(?:\breturn\s+|\b\w+\s*=\s*)([A-Za-z_]\w*)\s*\([^;]*\b%s\b" % re.escape(cmd), arm)
        if call and call.group(1) not in converted:
            return f"{fn_name}() hands the other commands of its own type to {call.group(1)}(), which keeps its answer"
    return ""


def _caller_twin(tree: effects.Tree, root: Path, file: str, fn_name: str) -> str:
    """A caller in the same folder that calls fn under an #if whose other
    branch answers by itself (rfcomm_sock_ioctl(): #ifdef
    CONFIG_BT_RFCOMM_TTY err = rfcomm_dev_ioctl(..); #else err = -EOPNOTSUPP;):
    in that configuration the unknown command never reaches fn."""
    folder = Path(file).parent
    call = re.compile(r"\b%s\s*\(" % re.escape(fn_name))
    for path in sorted((root / folder).glob("*.c")):
        rel = str(folder / path.name)
        cf = tree.file(rel)
        if cf is None or not call.search(cf.code):
            continue
        for m in call.finditer(cf.code):
            line = cf.line_of(m.start())
            if effects.function_at(cf, fn_name, line) is not None and rel == file:
                continue        # its own definition
            for group in effects.conditional_groups(cf, max(1, line - 40), line + 40):
                mine = [b for b in group if b[0] < line < b[1]]
                if not mine:
                    continue
                answered = effects.other_branch_answer(cf, group, mine[0], _ANSWER_BY_ITSELF)
                if answered:
                    cfg = effects.absent_when(mine[0][2], negate=mine[0] != group[0])
                    when = f"with {cfg}, " if cfg != "config" else "in another configuration "
                    return f"{when}{path.name} answers -{answered[1]} instead of calling {fn_name}()"
    return ""


def model(sites: Iterable[Site], root: Path, kept_out: dict[Site, str] | None = None,
          consumers: dict[str, list[Consumer]] | None = None,
          dead: dict[Site, str] | None = None) -> list[Handler]:
    """Every handler of the sites, with what a series converting them would
    leave, or the known command whose user-space consumer it would break.
    dead: sites in files no configuration of the tree compiles, with why:
    no kernel built from the tree has them, so no one sees them change."""
    kept_out = kept_out or {}
    dead = dead or {}
    # the rows that hold on this tree: its own copy of each in-tree test decides
    consumers = consumers_table.holding(root, kernel_version(root)) if consumers is None else consumers
    tree = effects.Tree(root)
    groups: dict[tuple[str, str], list[Site]] = {}
    sites = list(sites)
    all_functions = {s.function for s in sites}
    for s in sites:
        for key in handlers_of(s):
            groups.setdefault(key, []).append(s)
    out = []
    for (file, name), group in sorted(groups.items()):
        unseen: dict[Site, str] = {}
        kept_by_operations: list[str] = []
        for s in group:
            quiet, keep = _without_operation(tree, s, all_functions)
            why_unseen = dead.get(s) or quiet or _unreachable(s) or _core_filtered(tree, s)
            if why_unseen:
                unseen[s] = why_unseen
            if keep and keep not in kept_by_operations:
                kept_by_operations.append(keep)
        seen = [s for s in group if s not in unseen and not (s.effects and s.effects.visible == "invisible")]
        visible = [s for s in seen if s not in kept_out]
        held = sorted({kept_out[s] for s in seen if s in kept_out})
        left: list[str] = []
        caveats: list[str] = []
        kept: list[tuple[Site, KeptAnswer]] = []
        if (file, name) in CORES:
            left.append(CORES[(file, name)])
        left += kept_by_operations
        for s in group:
            why = _validity_first(tree, s)
            if why and why not in left:
                left.append(why)
        if visible:
            for s in visible:
                twin = _twin(s)
                if twin and twin not in left:
                    left.append(twin)
            lines = {s.line for s in group}
            # A state check that answers the handler's own old errno first
            # (hfi1 before HFI1_IOCTL_ASSIGN_CTXT, ppdev before PPCLAIM) leaves
            # an unknown command on a fresh fd with EINVAL: the pidfs shape.
            # iio_ioctl()'s -ENODEV for a device that is gone is no such
            # answer, though its converted exit said -ENODEV too.
            answering = [(line, text, errno, kind, s) for s in visible
                         for line, text, errno, kind in _guards(s) if line not in lines]
            first = sorted({(kind, errno) for _line, _text, errno, kind, s in answering
                            if _answers_first(kind, errno, s)})
            if first:
                kinds = sorted({k for k, _e in first})
                checks = sorted({(line, text) for line, text, errno, kind, s in answering
                                 if (kind, errno) in first})
                named = "; ".join(f"line {line}: `{text}`" for line, text in checks)
                left.append(_CHECK_FIRST + ", ".join(kinds) + f"; {named}) answers "
                            + ", ".join(sorted({f"-{e}" for _k, e in first})) + " first"
                            + (_STATE_FIX if "state check" in kinds else ""))
            functions = {s.function for s in group}
            for fn_name in sorted({s.function for s in visible}):
                why = _caller_twin(tree, root, file, fn_name)
                if why and why not in left:
                    left.append(why)
            for s in visible:
                why, caveat = _dispatch_refused(tree, s.file, s.function, s.line)
                if why and why not in left:
                    left.append(why)
                if caveat and caveat not in caveats:
                    caveats.append(caveat)
                caveat = _number_only(tree, s.file, s.function, s.line)
                if caveat and caveat not in caveats:
                    caveats.append(caveat)
            for s in visible:
                if s.rule == "ioctl_ioc_guard":
                    why = _handed_on(tree, s.file, s.function, s.line, functions)
                    if why and why not in left:
                        left.append(why)
            for where, fn_name in sorted({(s.file, s.function) for s in visible}):
                fn_lines = {s.line for s in group if (s.file, s.function) == (where, fn_name)}
                for why in (_ioc_checks_left(tree, where, fn_name, [s for s in visible if s.file == where]),
                            _final_return_left(tree, where, fn_name, fn_lines)):
                    if why and why not in left:
                        left.append(why)
            for s in visible:
                why, answer = _consumed(s, consumers)
                if answer is not None:
                    cannot = unkeepable(_text(root, s.file), s, root, answer.commands)
                    if cannot:
                        why = (f"{readers_read(answer)} its -{answer.errno} for {joined(list(answer.commands))}, "
                               f"which cannot be kept by name: {cannot}")
                    else:
                        kept.append((s, answer))
                if why and why not in left:
                    left.append(why)
            if held:
                left.append("another site of it stays: " + held[0])
        out.append(Handler(file, name, tuple(group), tuple(left), kconfig.module_name(root, file),
                           () if visible else tuple(held), tuple(sorted(unseen.items(), key=lambda i: i[0].sort_key())),
                           tuple(caveats), tuple(kept)))
    return out


def modules(handlers: Iterable[Handler]) -> dict[str, str]:
    """file -> the module its handlers are built into, for the cover letters."""
    return {h.file: h.module for h in handlers if h.module}


def left_out(handlers: Iterable[Handler]) -> dict[Site, str]:
    """The sites no series carries, and why: every site of an incomplete
    handler, and each site whose change no one can see."""
    out: dict[Site, str] = {}
    for h in handlers:
        for s in h.sites:
            if h.left:
                out[s] = h.reason()
            elif s in dict(h.unseen):
                out[s] = f"{s.file}: {dict(h.unseen)[s]}"
    return out


def write_tsv(handlers: Iterable[Handler], series_of: dict[Site, str], fh: TextIO) -> None:
    """handlers.tsv: one row per handler; `left` is empty for a handler a
    series converts whole and for one whose change no user can see ("no
    change"); a handler kept out by its own checks or by its sites'
    (an in-tree test) is "left out" with the reason."""
    w = csv.writer(fh, delimiter="\t", lineterminator="\n")
    w.writerow(COLUMNS)
    for h in handlers:
        names = sorted({series_of[s] for s in h.sites if series_of.get(s, "-") != "-"})
        in_series = [s for s in h.sites if series_of.get(s, "-") != "-"]
        why = h.left or h.held
        verdict = "left out" if why else ("converted" if in_series else "no change")
        w.writerow([h.file, h.name, ",".join(sorted({s.function for s in h.sites})),
                    ",".join(str(s.line) for s in sorted(h.sites, key=Site.sort_key)),
                    ",".join(names) or "-", verdict, "; ".join(why) or "-"])


def read_tsv(fh: TextIO) -> list[dict[str, str]]:
    return list(csv.DictReader(fh, delimiter="\t"))


def named_in_subject(patch_sites: Iterable[Site], model: Iterable[Handler]) -> list[str]:
    """The patch's handlers (up to two) when a handler of one of its files
    is left out, so that the subject does not promise that one: [] else."""
    mine = list(patch_sites)
    files = {s.file for s in mine}
    names = list(dict.fromkeys(handler_of(s) for s in mine))
    kept = any(not h.complete and h.left and h.sites and h.file in files and h.name not in names
               for h in model)
    return names if kept and len(names) <= 2 else []


def _text(root: Path, rel: str) -> str:
    path = root / rel
    return path.read_text(errors="replace") if path.is_file() else ""


def kept_answers(model: Iterable[Handler]) -> dict[Site, KeptAnswer]:
    """The sites of the handlers converted whole whose old answer stays
    for commands a program reads it for."""
    return {s: answer for h in model if h.complete for s, answer in h.kept}


def without_kept(patch_sites: Iterable[Site], answers: dict[Site, KeptAnswer]) -> list[Site]:
    """The sites as the message tells of them: a kept command (answers:
    kept_answers()) is no longer among the uncased commands that get the
    new answer."""
    out = []
    for s in patch_sites:
        answer = answers.get(s)
        if answer is not None and s.effects is not None and s.effects.uncased not in ("-", "unknown"):
            cells = [f"{n}[{when}]" if when else n for n, when in s.effects.uncased_items()
                     if n not in answer.commands]
            s = dataclasses.replace(s, effects=dataclasses.replace(s.effects, uncased=",".join(cells) or "-"))
        out.append(s)
    return out


def kept_answer_sentences(patch_sites: Iterable[Site], answers: dict[Site, KeptAnswer]) -> list[str]:
    """A sentence for each old answer a patch keeps for named commands
    (answers: kept_answers())."""
    out: list[str] = []
    for s in patch_sites:
        answer = answers.get(s)
        if answer is None:
            continue
        one = len(answer.commands) == 1
        # sit's SIOCGET6RD reaches the line only with CONFIG_IPV6_SIT_6RD=n
        conditions = {when for n, when in (s.effects.uncased_items() if s.effects else [])
                      if n in answer.commands and when}
        when = f"With {conditions.pop()}, " if len(conditions) == 1 and "=" in next(iter(conditions)) else ""
        said = (f"{when}{joined(list(answer.commands))} {'keeps' if one else 'keep'} -{answer.errno} in "
                f"{s.function}(): {readers_read(answer)} that answer for {'it' if one else 'them'}.")
        if said not in out:
            out.append(said)
    return out


def caveats(patch_sites: Iterable[Site], model: Iterable[Handler]) -> list[str]:
    """The caveats of the converted handlers a patch changes."""
    keys = {key for s in patch_sites for key in handlers_of(s)}
    return [c for h in model if (h.file, h.name) in keys and h.complete for c in h.caveats]


def kept_siblings(patch_sites: Iterable[Site], model: Iterable[Handler]) -> list[str]:
    """Sentences for the handlers left out whole beside a patch's: in the
    same file (userfaultfd_ioctl() beside userfaultfd_dev_ioctl()), or of
    the same interface in the same folder (tape_34xx_ioctl() beside
    tape_3590_ioctl(), both the tape discipline's ioctl_fn), so that the
    message says which devices keep their answer and why."""
    mine = list(patch_sites)
    model = list(model)
    # a small family of alternatives (two tape disciplines), not the many
    # unrelated drivers of one folder that share file_operations
    count: dict[str, int] = {}
    for h in model:
        for i in {s.interface for s in h.sites}:
            count[i] = count.get(i, 0) + 1
    interfaces = {(s.interface, s.file.rpartition("/")[0]) for s in mine if count.get(s.interface, 0) <= 3}
    names = {handler_of(s) for s in mine}
    files = {s.file for s in mine}
    out = []
    for h in model:
        if h.complete or h.name in names or not h.sites:
            continue
        s = h.sites[0]
        if (h.file in files or (s.interface, h.file.rpartition("/")[0]) in interfaces) and h.left:
            out.append(f"{h.name}() keeps -{s.from_}: {_both_exits(h, h.left[0])}.")
    return sorted(set(out))


def helped_consumers(patch_sites: Iterable[Site],
                     rows: Iterable[Consumer] | None = None) -> list[tuple[str, list[str]]]:
    """(program, commands) for the programs outside the kernel that take
    ENOTTY from a command the patch's handlers have no case for as "not
    supported", where EINVAL was an error (consumers.tsv rows with keep=no:
    systemd's hardware watchdog and cpwd's WDIOC_SETTIMEOUT, a reviewer asked
    that it be said; messages.helped_sentences() words them).  A row its own
    words call unreached is left out."""
    uncased = {c for s in patch_sites for c in (s.effects.uncased_commands() if s.effects else [])}
    by_who: dict[str, list[str]] = {}
    for c in consumers_table.read() if rows is None else rows:
        if not c.keep and not c.cased and c.evidence == "program" and c.command in uncased \
                and "not reached" not in c.consumer:
            by_who.setdefault(c.who, []).append(c.command)
    return [(who, sorted(set(cmds))) for who, cmds in sorted(by_who.items())]


# The exit a site's rule found, in words: what answers an unknown command
# that gets past the checks before the dispatch.
_EXIT_WORDS = {
    **{rule: "the -{errno} it sets before its switch" for rule in effects.INITIALISERS},
    "ioctl_default_return": "the default of its switch",
    "ioctl_default_assign": "the default of its switch",
    "ioctl_if_chain": "the return after its tests of the command",
    "ioctl_cmd_state_split": "the test that joins the command with a state",
    "ioctl_cmd_range_split": "the test that joins its command range with a state",
    "ioctl_valid_first": "the check of the state that its test of the command would precede",
}


def _both_exits(h: Handler, why: str, by: str = "this patch") -> str:
    """why, the reason a left-out handler keeps its answer; when it is a
    check that answers first (userfaultfd_ioctl()'s test of an initialised
    context), the exit behind it is named too: the handler keeps both."""
    if not why.startswith(_CHECK_FIRST):
        return why
    # mails quote the check, not its line: a line number rots on the next rebase
    why = re.sub(r"\bline \d+: ", "", why)
    head, sep, tail = why.partition(_STATE_FIX)
    exits = list(dict.fromkeys(_EXIT_WORDS.get(s.rule, "its own answer after the dispatch").format(errno=s.from_)
                               for s in h.sites))
    return (f"{head}, and {' and '.join(exits)} answers an unknown command that passes it; "
            f"{by} changes neither{sep and ' (' + sep.lstrip('; ') + ')'}")


# A Rust ioctl function whose catch-all arm answers -EINVAL (rust_binder's
# Process::ioctl() in drivers/android/binder/process.rs): Coccinelle reads
# no Rust, so no series converts it, and a cover letter that names its
# module must not say that the module's handlers all change.
_RUST_FN = re.compile(r"\bfn\s+(\w*ioctl\w*)\s*(?:<[^>]*>)?\s*\(")
_RUST_EINVAL_ARM = re.compile(r"\b_\s*=>\s*(?:return\s+)?Err\s*\(\s*EINVAL\b")
_RUST_IMPL = re.compile(r"^impl(?:<[^>]*>)?\s+(?:[\w:]+\s+for\s+)?(\w+)", re.M)


def rust_ioctls(root: Path, module: str, folder: str) -> list[str]:
    """`Type::function() in path` of each Rust ioctl function of module
    (built from folder's Makefile as `module-y := ... x.o`, x.rs its crate
    root, the crate's .rs files beside it) whose catch-all match arm
    answers -EINVAL, but for those another one calls (Process::ioctl()'s
    ioctl_write_only()): the entries, in the order of the files."""
    here = root / folder
    makefile = here / "Makefile"
    if not makefile.is_file():
        return []
    text = makefile.read_text(errors="replace").replace("\\\n", " ")
    m = re.search(r"^%s-(?:y|objs)\s*[:+]?=(.*)$" % re.escape(module), text, re.M)
    objects = m.group(1).split() if m else []
    if not any((here / obj).with_suffix(".rs").is_file() for obj in objects if obj.endswith(".o")):
        return []
    found: list[tuple[str, str, str]] = []     # (name, owner and place, body)
    for path in sorted(here.glob("*.rs")):
        code = path.read_text(errors="replace")
        for fn in _RUST_FN.finditer(code):
            open_brace = code.find("{", fn.end())
            if open_brace < 0:
                continue
            body = code[open_brace:effects.match_close(code, open_brace) + 1]
            if not _RUST_EINVAL_ARM.search(body):
                continue
            impls = [i.group(1) for i in _RUST_IMPL.finditer(code, 0, fn.start())]
            owner = f"{impls[-1]}::" if impls else ""
            found.append((fn.group(1), f"{owner}{fn.group(1)}() in {path.relative_to(root)}", body))
    called = {name for name, _w, _b in found
              if any(re.search(r"\b%s\s*\(" % re.escape(name), body) for other, _w, body in found if other != name)}
    return [words for name, words, _b in found if name not in called]


def kept_in_modules(root: Path, model: Iterable[Handler], sites: Iterable[Site],
                    module_of: dict[str, str]) -> dict[str, list[tuple[str, str]]]:
    """module -> (name, why) of each ioctl handler of a module the sites
    change that the series leaves as it is: a handler of the model left out
    (userfaultfd_ioctl() beside userfaultfd_dev_ioctl()) and a Rust one
    (rust_ioctls()), so that a cover letter does not say they change."""
    sites = list(sites)
    mine = {key for s in sites for key in handlers_of(s)}
    folders: dict[str, set[str]] = {}
    for s in sites:
        if module_of.get(s.file):
            folders.setdefault(module_of[s.file], set()).add(s.file.rpartition("/")[0])
    out: dict[str, list[tuple[str, str]]] = {}
    for h in model:
        if h.module in folders and h.left and (h.file, h.name) not in mine and h.sites:
            out.setdefault(h.module, []).append(
                (f"{h.name}()", f"{h.name}() keeps -{h.sites[0].from_}: {_both_exits(h, h.left[0], 'this series')}"))
    for module, dirs in sorted(folders.items()):
        for folder in sorted(dirs):
            for words in rust_ioctls(root, module, folder):
                out.setdefault(module, []).append(
                    (words, f"{words} is Rust, which Coccinelle does not read, and still answers an unknown command with -EINVAL"))
    return out

