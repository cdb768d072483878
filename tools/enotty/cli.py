"""The command line: `python3 -m enotty COMMAND`.

The only module that sees argparse (kunit.py's way): each command parses
its arguments once into a typed request (enotty.requests) and hands that to
one function of a lower module.  stdout carries the command's product only
(the report TSV); progress, warnings and errors go to stderr.  Every failure
a user can cause or meet ends in one line `enotty: ...` and a non-zero exit
status (2 bad input, 1 a tool or the environment failed, 130 interrupted);
no traceback reaches the user (ENOTTY_DEBUG=1 shows it).
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import NoReturn

import enotty

from .measure import bench, candidates, coccicheck, compare, generated
from . import console, patches
from .judge import effects, selftest_search
from .find import facts, rules, scan, sites
from .write import mailout, output
from .render import series
from .kernel import tree
from .audit import run as audit_run
from .errors import ToolError, UsageError
from .qemutest import run as qemu_test
from .requests import (QEMU_TEST_MUTANTS, QEMU_TEST_SERIES, AuditRequest, BenchRequest, CoccicheckRequest,
                       CompareRequest, Identity, KernelTree, MailoutRequest, PatchesRequest, QemuTestRequest, ScanRequest,
                       VerifyGeneratedRequest, default_jobs)

warn = console.warn


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # argparse prints the whole usage; the project's rule is one line.
        raise UsageError(f"{message} (try: {self.prog} --help)")


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}")
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more: {text!r}")
    return value


# ---------------------------------------------------------------- shared pieces

KVER_HELP = ("the Debian tree when no --kdir: newest (default: the newest linux-source Debian"
             " publishes, fetched by apt into the cache) or 6.12 (Debian 12's linux-source-6.12)")


def add_kver_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--kver", choices=tree.KVERS, help=KVER_HELP)


def add_tree_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--kdir", metavar="DIR",
                        help="tree to scan: a kernel tree or any folder of C files"
                             " (default: a Debian tree, see --kver)")
    add_kver_option(parser)
    parser.add_argument("--subdir", metavar="SUBDIR",
                        help="only this folder of the tree (paths stay relative to KDIR)")


def add_scan_options(parser: argparse.ArgumentParser) -> None:
    add_jobs_option(parser)
    parser.add_argument("--timeout", type=_positive_int, default=scan.DEFAULT_TIMEOUT, metavar="S",
                        help=f"spatch time limit per file in seconds (default: {scan.DEFAULT_TIMEOUT})")
    parser.add_argument("--no-cache", action="store_true",
                        help="rescan every file instead of reusing the per-file cache")
    parser.add_argument("--verbose", action="store_true",
                        help="also list the files spatch parsed only in part where no site can hide")
    add_facts_option(parser)


def add_jobs_option(parser: argparse.ArgumentParser,
                    what: str = "spatch processes in parallel") -> None:
    parser.add_argument("--jobs", type=_positive_int, metavar="N",
                        help=f"{what} (default: the usable CPUs)")


def add_facts_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-facts", action="store_true",
                        help="skip phase 1 (handlers and helpers found across files):"
                             " per-file discovery only, as before issue 9")


def kernel_tree(args: argparse.Namespace, need_kernel: bool = False) -> KernelTree:
    scan.spatch_binary()          # before anything slow, e.g. unpacking the default tree
    return tree.load(args.kdir, args.subdir, need_kernel, args.kver)


def scan_request(args: argparse.Namespace) -> ScanRequest:
    # --no-cache: the tree's stored results do not answer (every stage asks its tree)
    kernel = dataclasses.replace(kernel_tree(args), use_cache=not args.no_cache)
    return ScanRequest(tree=kernel, subdir=args.subdir, jobs=args.jobs or default_jobs(),
                       timeout=args.timeout, verbose=args.verbose, across_files=not args.no_facts)


def parsed_signoff(signoff: str) -> Identity:
    try:
        return Identity.parse(signoff)
    except ValueError:
        raise UsageError(f"--signoff must be 'Name <mail>', got {signoff!r}")


def identity(signoff: str | None) -> Identity:
    """From: and Signed-off-by: --signoff, else the sender's git config."""
    if signoff:
        return parsed_signoff(signoff)
    values = []
    for key in ("user.name", "user.email"):
        res = subprocess.run(["git", "config", key], capture_output=True, text=True, check=False)
        values.append(res.stdout.strip())
    if not all(values):
        raise UsageError("no identity for Signed-off-by: pass --signoff 'Name <mail>' "
                         "(make patches SIGNOFF=...) or set git config user.name and user.email")
    return Identity(values[0], values[1])


def patches_request(args: argparse.Namespace) -> PatchesRequest:
    """The request, refused before any work when its tree cannot be split
    (PatchesRequest) or its OUT is not this tool's to replace (the write
    stage checks OUT again when it swaps the new output in)."""
    scan_req = scan_request(args)
    ident = identity(args.signoff)
    out = Path(args.out).expanduser().absolute() if args.out else scan_req.tree.default_out
    if not args.out:
        say_new_version(scan_req.tree)
    req = PatchesRequest(scan=scan_req, out=out, identity=ident, build=not args.no_build,
                         cleanups=args.cleanups,
                         audit_from=out if (out / "audit.tsv").is_file() else None)
    output.check_destination(req.out)
    return req


def say_new_version(kernel: KernelTree) -> None:
    """One line when Debian's newest tree is not the one the committed
    output was made from: the new version's folder is written beside it."""
    if kernel.kver != "newest" or kernel.default_out.exists():
        return
    committed = sorted((p for p in kernel.default_out.parent.glob("linux-*")
                        if not p.name.startswith("linux-6.12.")),
                       key=lambda p: [int(x) for x in re.findall(r"\d+", p.name)])
    if committed:
        warn(f"Debian now serves Linux {kernel.version}; the committed output is {committed[-1].name}:"
             f" writing {kernel.default_out.name} beside it")


# ---------------------------------------------------------------- commands

def cmd_report(args: argparse.Namespace) -> int:
    """The sites as TSV on stdout."""
    result = scan.scan(scan_request(args), listener=console.scan_listener())
    sites.write_tsv(result.sites, sys.stdout)
    sys.stdout.flush()
    return 0


def cmd_patches(args: argparse.Namespace) -> int:
    """Verified, mail-ready series per subsystem (git format-patch) into OUT."""
    return patches.command(patches_request(args))


def cmd_mailout(args: argparse.Namespace) -> int:
    """git send-email over one series folder (a dry run unless --send)."""
    out = Path(args.out).expanduser().absolute() if args.out else tree.load(None).default_out
    return mailout.command(MailoutRequest(out=out, series=args.series, send=args.send,
                                          sender=parsed_signoff(args.signoff) if args.signoff else None))


def cmd_bench(args: argparse.Namespace) -> int:
    """Time our scan, cold and warm, against make coccicheck on the same tree."""
    return bench.command(BenchRequest(
        tree=kernel_tree(args), subdir=args.subdir, jobs=args.jobs or default_jobs(),
        across_files=not args.no_facts, coccicheck=not args.no_coccicheck,
        coccicheck_timeout=args.coccicheck_timeout))


def _modes(text: str) -> tuple[str, ...]:
    modes = tuple(m.strip() for m in text.split(",") if m.strip())
    unknown = [m for m in modes if m not in coccicheck.MODES]
    if unknown or not modes:
        raise argparse.ArgumentTypeError(
            f"modes are {','.join(coccicheck.MODES)}, got {text!r}")
    return modes


def cmd_coccicheck(args: argparse.Namespace) -> int:
    """Run the rule file alone under make coccicheck in each mode and compare
    the sites each mode prints with the scan's (exit 1 when they differ)."""
    return coccicheck.main(CoccicheckRequest(
        tree=kernel_tree(args, need_kernel=True), subdir=args.subdir, modes=args.modes,
        jobs=args.jobs or default_jobs(), timeout=args.timeout, facts=args.facts))


def cmd_verify_generated(args: argparse.Namespace) -> int:
    """Rerun the tree; fail when the committed generated-patches/ differ."""
    kernel = tree.load(args.kdir) if args.kdir else None
    if args.out:
        outs = [Path(args.out).expanduser().absolute()]
    elif kernel:
        outs = [kernel.default_out]
    else:   # every committed output, each with the Debian tree its run.json names
        outs = sorted(generated.committed_outputs())
        if not outs:
            raise UsageError("generated-patches/ holds no linux-* output to verify")
    return max(generated.verify_generated(VerifyGeneratedRequest(tree=kernel, committed=out))
               for out in outs)


def cmd_compare(args: argparse.Namespace) -> int:
    """For each handler of an older output: removed, moved, converted
    upstream (and to what) or still needed in the newer tree; and which
    handlers are new (markdown on stdout, or --tsv)."""
    return compare.command(CompareRequest(old=_path(args.old), new=_path(args.new),
                                          new_kdir=_path(args.new_kdir), old_kdir=_path(args.old_kdir),
                                          tsv=args.tsv))


def cmd_candidates(args: argparse.Namespace) -> int:
    """Candidate unknown-command answers found without the rules (a measuring stick for recall)."""
    root = tree.resolve(args.kdir, args.subdir, kver=args.kver)
    candidates.write_tsv(candidates.find(root, args.subdir), sys.stdout)
    return 0


def cmd_facts(args: argparse.Namespace) -> int:
    """The targets the per-file rules cannot see on their own (phase 1 of the scan)."""
    start = time.monotonic()
    root = tree.resolve(args.kdir, kver=args.kver)
    targets = facts.extra_targets(root, sorted(tree.c_files(root)), args.jobs or default_jobs())
    facts.write_tsv((t for rel in sorted(targets) for t in targets[rel]), sys.stdout)
    if args.time:
        warn(f"phase 1 took {time.monotonic() - start:.1f} s")
    return 0


def cmd_effects(args: argparse.Namespace) -> int:
    """What each site of a sites.tsv changes for user space (or its in-tree tests)."""
    try:
        with open(args.sites) as fh:
            rows = sites.read_tsv(fh)
    except (OSError, ValueError) as err:
        raise UsageError(f"{args.sites}: {err}") from None
    root = tree.resolve(args.kdir, kver=args.kver)
    found = effects.analyse_sites(rows, root)
    labelled = [dataclasses.replace(s, effects=found[s]) for s in rows]
    if args.summary:
        sys.stdout.write(effects.summary(found))
    elif args.tests:
        for s, hits in selftest_search.search(labelled, root).items():
            for hit in hits:
                print(f"{s.file}:{s.line}\t{s.function}\t{hit.cell()}")
    else:
        if not rows or not rows[0].series:
            raise UsageError(f"{args.sites}: needs the subsystem and series columns")
        sites.write_tsv(labelled, sys.stdout, sites.EFFECT_COLUMNS)
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    """Assemble cocci/ioctl_enotty.cocci from its sources (sync), or check it (check)."""
    return rules.command(args.action)


def _path(text: str | None) -> Path | None:
    return Path(text).expanduser().absolute() if text else None


def cmd_qemu_test(args: argparse.Namespace) -> int:
    """Build a tiny kernel with vivid and vimc, boot it in QEMU, run the
    ioctl_errno selftests and v4l2-compliance (exit 1 when the run fails)."""
    return qemu_test.command(QemuTestRequest(
        tree=tree.load(args.kdir, need_kernel=True, kver=args.kver), series=args.series,
        series_dir=_path(args.series_dir), mutant=args.mutant, timeout=args.timeout, kvm=args.kvm))


def _mutants(text: str) -> tuple[str, ...]:
    return tuple(m for m in text.split(",") if m)


def cmd_audit(args: argparse.Namespace) -> int:
    """One audit kernel booted pristine and with the series applied: the
    ioctl probe's answers before and after into audit.tsv and AUDIT.md
    (exit 1 when the verdict finds problems)."""
    return audit_run.command(AuditRequest(
        tree=tree.load(args.kdir, need_kernel=True, kver=args.kver), series=args.series,
        patches=_path(args.patches), out=_path(args.out), mutants=args.mutant, logs=_path(args.logs),
        timeout=args.timeout, probe_timeout=args.probe_timeout, jobs=args.jobs or default_jobs(),
        probe_bin=_path(args.probe_bin)))


def add_boot_tree_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--kdir", metavar="DIR",
                        help="kernel tree to build and boot (read only); default: a Debian tree, see --kver")
    add_kver_option(parser)


def add_signoff_option(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--signoff", metavar="'NAME <MAIL>'",
                        help=f"{what} (default: git config user.name/user.email)")


def add_output_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", metavar="DIR",
                        help="output folder (default: generated-patches/linux-VERSION/)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="enotty", description=enotty.__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in (_add_report, _add_patches, _add_mailout, _add_bench, _add_coccicheck,
                _add_verify_generated, _add_compare, _add_candidates, _add_facts, _add_effects, _add_rules,
                _add_qemu_test, _add_audit):
        add(commands)
    return parser


def _add_report(commands: "argparse._SubParsersAction[_Parser]") -> None:
    report = commands.add_parser("report", help="print the sites as TSV on stdout",
                                 description=cmd_report.__doc__)
    add_tree_options(report)
    add_scan_options(report)
    report.set_defaults(run=cmd_report)


def _add_patches(commands: "argparse._SubParsersAction[_Parser]") -> None:
    patches_cmd = commands.add_parser("patches", help="write verified series per subsystem",
                                      description=cmd_patches.__doc__)
    add_tree_options(patches_cmd)
    add_scan_options(patches_cmd)
    add_output_options(patches_cmd)
    add_signoff_option(patches_cmd, "author and Signed-off-by")
    patches_cmd.add_argument("--no-build", action="store_true",
                             help="skip the x86_64 allmodconfig build check")
    patches_cmd.add_argument("--cleanups", action="store_true",
                             help="add a patch per series for the changes user space does not see"
                                  " (leaf -ENOIOCTLCMD -> -ENOTTY); left out by default")
    patches_cmd.set_defaults(run=cmd_patches)


def _add_mailout(commands: "argparse._SubParsersAction[_Parser]") -> None:
    mailout_cmd = commands.add_parser("mailout", help="git send-email one series",
                                      description=cmd_mailout.__doc__)
    mailout_cmd.add_argument("--series", metavar="NAME", help="the series folder name (e.g. media)")
    add_output_options(mailout_cmd)
    mailout_cmd.add_argument("--send", action="store_true", help="send for real (default: --dry-run)")
    add_signoff_option(mailout_cmd, "send as, and sign off as")
    mailout_cmd.set_defaults(run=cmd_mailout)


def _add_bench(commands: "argparse._SubParsersAction[_Parser]") -> None:
    bench_cmd = commands.add_parser("bench", help="time the scan against coccicheck",
                                    description=cmd_bench.__doc__)
    add_tree_options(bench_cmd)
    add_jobs_option(bench_cmd)
    add_facts_option(bench_cmd)
    bench_cmd.add_argument("--no-coccicheck", action="store_true",
                           help="time only our scan (coccicheck over the whole tree takes long)")
    bench_cmd.add_argument("--coccicheck-timeout", type=float, metavar="S",
                           help="stop coccicheck after S seconds and report that as a lower bound")
    bench_cmd.set_defaults(run=cmd_bench)


def _add_coccicheck(commands: "argparse._SubParsersAction[_Parser]") -> None:
    cc_cmd = commands.add_parser("coccicheck", help="the rule file alone under make coccicheck, each mode",
                                 description=cmd_coccicheck.__doc__)
    add_tree_options(cc_cmd)
    cc_cmd.add_argument("--modes", type=_modes, default=coccicheck.MODES, metavar="M,M",
                        help=f"the modes to run (default: {','.join(coccicheck.MODES)})")
    add_jobs_option(cc_cmd, "make coccicheck J=")
    cc_cmd.add_argument("--timeout", type=float, metavar="S",
                        help="stop one mode after S seconds (default: no limit)")
    cc_cmd.add_argument("--facts", action="store_true",
                        help="pass phase 1's rows (-D enotty_facts in SPFLAGS) and expect every site of the scan")
    cc_cmd.set_defaults(run=cmd_coccicheck)


def _add_verify_generated(commands: "argparse._SubParsersAction[_Parser]") -> None:
    verify_cmd = commands.add_parser("verify-generated", help="compare generated-patches/ with a rerun",
                                     description=cmd_verify_generated.__doc__)
    verify_cmd.add_argument("--kdir", metavar="DIR",
                            help="tree (default: the one the output's run.json names)")
    verify_cmd.add_argument("--out", metavar="DIR",
                            help="the output folder to check (default: generated-patches/linux-VERSION/)")
    verify_cmd.set_defaults(run=cmd_verify_generated)


def _add_compare(commands: "argparse._SubParsersAction[_Parser]") -> None:
    cmp_cmd = commands.add_parser("compare", help="what changed between two outputs, per handler",
                                  description=cmd_compare.__doc__)
    cmp_cmd.add_argument("--old", metavar="DIR", help="the older output (default: generated-patches/linux-6.12.*)")
    cmp_cmd.add_argument("--new", metavar="DIR",
                         help="the newer output (default: the newest other generated-patches/linux-*)")
    cmp_cmd.add_argument("--new-kdir", metavar="DIR",
                         help="the newer output's tree (default: its linux-source unpacked in the cache)")
    cmp_cmd.add_argument("--old-kdir", metavar="DIR",
                         help="the older output's tree, to tell a moved handler from a namesake in another"
                              " file (default: its linux-source in the cache, when unpacked)")
    cmp_cmd.add_argument("--tsv", action="store_true", help="a tab-separated table instead of markdown")
    cmp_cmd.set_defaults(run=cmd_compare)


def _add_candidates(commands: "argparse._SubParsersAction[_Parser]") -> None:
    cand = commands.add_parser("candidates", help="candidate sites found without the rules (TSV)",
                               description=cmd_candidates.__doc__)
    add_tree_options(cand)
    cand.set_defaults(run=cmd_candidates)


def _add_facts(commands: "argparse._SubParsersAction[_Parser]") -> None:
    facts_cmd = commands.add_parser("facts", help="phase-1 targets across files (TSV)",
                                    description=cmd_facts.__doc__)
    facts_cmd.add_argument("--kdir", metavar="DIR", help="tree (default: a Debian tree, see --kver)")
    add_kver_option(facts_cmd)
    add_jobs_option(facts_cmd, "processes for files not in the cache")
    facts_cmd.add_argument("--time", action="store_true", help="say on stderr how long it took")
    facts_cmd.set_defaults(run=cmd_facts)


def _add_effects(commands: "argparse._SubParsersAction[_Parser]") -> None:
    eff = commands.add_parser("effects", help="effect columns of a sites.tsv",
                              description=cmd_effects.__doc__)
    eff.add_argument("sites", metavar="SITES.TSV", help="a sites.tsv of make patches")
    eff.add_argument("--kdir", metavar="DIR", help="tree (default: a Debian tree, see --kver)")
    add_kver_option(eff)
    what = eff.add_mutually_exclusive_group()
    what.add_argument("--summary", action="store_true", help="verdict counts and the notable sites")
    what.add_argument("--tests", action="store_true", help="in-tree tests that expect the old answer")
    eff.set_defaults(run=cmd_effects)


def _add_rules(commands: "argparse._SubParsersAction[_Parser]") -> None:
    rules_cmd = commands.add_parser("rules", help="assemble or check the one rule file",
                                    description=cmd_rules.__doc__)
    rules_cmd.add_argument("action", choices=rules.ACTIONS,
                           help="sync: rewrite it; check: fail when stale; combined: print it")
    rules_cmd.set_defaults(run=cmd_rules)


def _add_qemu_test(commands: "argparse._SubParsersAction[_Parser]") -> None:
    qemu_cmd = commands.add_parser("qemu-test", help="the vivid selftests booted in QEMU",
                                   description=cmd_qemu_test.__doc__)
    add_boot_tree_option(qemu_cmd)
    qemu_cmd.add_argument("--series", choices=QEMU_TEST_SERIES, default="media",
                          help="media (default): the committed media series; none: the pristine tree")
    qemu_cmd.add_argument("--series-dir", metavar="DIR",
                          help="folder of the series' NNNN-*.patch files "
                               "(default: generated-patches/linux-<version>/<series>)")
    qemu_cmd.add_argument("--mutant", choices=QEMU_TEST_MUTANTS,
                          help="also apply selftests/qemu/mutant-NAME.patch (a negative control)")
    qemu_cmd.add_argument("--timeout", type=_positive_int, default=QemuTestRequest.timeout, metavar="S",
                          help=f"seconds before the guest counts as hung (default {QemuTestRequest.timeout})")
    qemu_cmd.add_argument("--kvm", action="store_true",
                          help="use KVM (only where a probe boot showed that it works)")
    qemu_cmd.set_defaults(run=cmd_qemu_test)


def _add_audit(commands: "argparse._SubParsersAction[_Parser]") -> None:
    audit_cmd = commands.add_parser("audit", help="QEMU before/after audit of the series",
                                    description=cmd_audit.__doc__)
    add_boot_tree_option(audit_cmd)
    audit_cmd.add_argument("--series", default=AuditRequest.series, metavar="all|NAME",
                           help="the series applied for the second boot (default: all)")
    audit_cmd.add_argument("--patches", metavar="DIR",
                           help="the version folder holding the series (default: generated-patches/linux-VERSION/)")
    audit_cmd.add_argument("--out", metavar="DIR", help="where audit.tsv and AUDIT.md go (default: --patches)")
    audit_cmd.add_argument("--mutant", type=_mutants, default=(), metavar="NAME[,NAME]",
                           help="also apply selftests/audit/mutant-NAME.patch (einval, untouched, epoll, "
                                "s390-untouched)")
    audit_cmd.add_argument("--logs", metavar="DIR", help="build and console logs (default <cache>/audit/logs)")
    audit_cmd.add_argument("--timeout", type=_positive_int, default=AuditRequest.timeout, metavar="S",
                           help=f"seconds per boot (default {AuditRequest.timeout})")
    audit_cmd.add_argument("--probe-timeout", type=_positive_int, default=AuditRequest.probe_timeout,
                           metavar="S", help="seconds for each probe binary inside the guest "
                                             f"(default {AuditRequest.probe_timeout})")
    add_jobs_option(audit_cmd, "make -j for the kernel")
    audit_cmd.add_argument("--probe-bin", metavar="DIR",
                           help="prebuilt ioctl_probe and ioctl_probe_32 (development)")
    audit_cmd.set_defaults(run=cmd_audit)


def _failed_command(err: subprocess.CalledProcessError) -> str:
    """`make ... failed (exit 2): <the last lines of its stderr>`."""
    cmd = err.cmd if isinstance(err.cmd, (list, tuple)) else str(err.cmd).split()
    name = " ".join(str(w) for w in cmd[:3]) + (" ..." if len(cmd) > 3 else "")
    stderr = err.stderr if isinstance(err.stderr, str) else (err.stderr or b"").decode(errors="replace")
    tail = [ln.strip() for ln in stderr.splitlines() if ln.strip()][-3:]
    return f"{name} failed (exit {err.returncode})" + (": " + " | ".join(tail) if tail else "")


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return args.run(args)
    except UsageError as err:
        warn(str(err))
        return 2
    except scan.ScanError as err:
        warn(f"spatch failed: {err}")
        return 1
    except ToolError as err:
        warn(str(err))
        return 1
    except series.SeriesError as err:
        warn(f"writing a series failed: {err}")
        return 1
    except subprocess.CalledProcessError as err:
        warn(_failed_command(err))
        return 1
    except KeyboardInterrupt:
        print("\nenotty: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # `... | head`: the reader left; say nothing more on a dead pipe.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as err:
        where = f": {err.filename}" if err.filename else ""
        warn(f"{err.strerror or err}{where}")
        return 1
    except Exception as err:   # the contract: no traceback reaches a user
        if os.environ.get("ENOTTY_DEBUG"):
            raise
        warn(f"internal error: {type(err).__name__}: {err} (ENOTTY_DEBUG=1 shows where)")
        return 1
