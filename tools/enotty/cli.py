"""The command line: `python3 -m enotty COMMAND`.

A command is one `cmd_NAME(args) -> int` function plus one entry in
`build_parser()`.  stdout carries the command's product only (the report
TSV); progress, warnings and errors go to stderr.  Bad input: one line
`enotty: ...` and exit status 2; ^C: exit status 130.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn

import enotty

from . import bench, generated, mailout, patches, scan, sites, tree
from .errors import UsageError
from .progress import Progress


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


def warn(message: str) -> None:
    print(f"enotty: {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- shared pieces

def add_tree_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--kdir", metavar="DIR",
                        help="tree to scan: a kernel tree or any folder of C files"
                             " (default: Debian's linux-source-6.12, unpacked into the cache)")
    parser.add_argument("--subdir", metavar="SUBDIR",
                        help="only this folder of the tree (paths stay relative to KDIR)")


def add_scan_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--jobs", type=_positive_int, metavar="N",
                        help="spatch processes in parallel (default: the usable CPUs)")
    parser.add_argument("--timeout", type=_positive_int, default=scan.DEFAULT_TIMEOUT, metavar="S",
                        help=f"spatch time limit per file in seconds (default: {scan.DEFAULT_TIMEOUT})")
    parser.add_argument("--no-cache", action="store_true",
                        help="rescan every file instead of reusing the per-file cache")
    parser.add_argument("--verbose", action="store_true",
                        help="also list the files spatch parsed only in part where no site can hide")


def run_scan(args: argparse.Namespace) -> scan.ScanResult:
    """Check the inputs, scan with progress on stderr, report failures there."""
    scan.spatch_binary()          # before anything slow, e.g. unpacking the default tree
    root = tree.resolve(args.kdir, args.subdir)
    scope = (root / args.subdir).resolve() if args.subdir else root
    if not scope.is_relative_to(root):
        raise UsageError(f"--subdir {args.subdir} is outside {root}")
    result = scan.scan(
        root, scope, jobs=args.jobs, timeout=args.timeout, use_cache=not args.no_cache,
        progress=lambda files, work: Progress(files, work), warn=warn)
    warn(f"{result.candidates} of {result.c_files} .c files may hold ioctl handlers"
         f" ({result.prefilter_seconds:.1f} s); {result.cached} from the cache,"
         f" {result.spatch_runs} scanned; {len(result.sites)} sites in"
         f" {len({s.file for s in result.sites})} files; {result.seconds:.1f} s")
    # getattr: callers may build args without the scan options (verify-generated).
    verbose = getattr(args, "verbose", False)
    if result.partial:
        warn(f"{len(result.partial)} files parsed in part; the code spatch skipped names no"
             f" ioctl member or errno, so no site is lost" + (":" if verbose else " (--verbose lists them)"))
        if verbose:
            for partial in result.partial:
                warn(f"  {partial.file}: {partial.reason}")
    if result.failed:
        warn(f"{len(result.failed)} files not fully scanned (sites in them may be missing):")
        for failure in result.failed:
            warn(f"  {failure.file}: {failure.status}: {failure.reason}")
    return result


# ---------------------------------------------------------------- commands

def cmd_report(args: argparse.Namespace) -> int:
    """The sites as TSV on stdout."""
    result = run_scan(args)
    sites.write_tsv(result.sites, sys.stdout)
    sys.stdout.flush()
    return 0


def cmd_patches(args: argparse.Namespace) -> int:
    """Verified, mail-ready series per subsystem (git format-patch) into OUT."""
    return patches.command(args, run_scan)


def cmd_mailout(args: argparse.Namespace) -> int:
    """git send-email over one series folder (a dry run unless --send)."""
    return mailout.command(args)


def cmd_bench(args: argparse.Namespace) -> int:
    """Time our scan, cold and warm, against make coccicheck on the same tree."""
    return bench.command(args)


def cmd_verify_generated(args: argparse.Namespace) -> int:
    """Rerun the tree; fail when the committed generated-patches/ differ."""
    return generated.verify_generated(args.kdir, run_scan)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="enotty", description=enotty.__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    report = commands.add_parser("report", help="print the sites as TSV on stdout",
                                 description=cmd_report.__doc__)
    add_tree_options(report)
    add_scan_options(report)
    report.set_defaults(run=cmd_report)

    patches_cmd = commands.add_parser("patches", help="write verified series per subsystem",
                                      description=cmd_patches.__doc__)
    add_tree_options(patches_cmd)
    add_scan_options(patches_cmd)
    patches.add_options(patches_cmd)
    patches_cmd.set_defaults(run=cmd_patches)

    mailout_cmd = commands.add_parser("mailout", help="git send-email one series",
                                      description=cmd_mailout.__doc__)
    mailout.add_options(mailout_cmd)
    mailout_cmd.set_defaults(run=cmd_mailout)

    bench_cmd = commands.add_parser("bench", help="time the scan against coccicheck",
                                    description=cmd_bench.__doc__)
    add_tree_options(bench_cmd)
    bench.add_options(bench_cmd)
    bench_cmd.set_defaults(run=cmd_bench)

    verify_cmd = commands.add_parser("verify-generated", help="compare generated-patches/ with a rerun",
                                     description=cmd_verify_generated.__doc__)
    verify_cmd.add_argument("--kdir", metavar="DIR", help="tree (default: Debian's linux-source-6.12)")
    verify_cmd.set_defaults(run=cmd_verify_generated)

    return parser


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
    except KeyboardInterrupt:
        print("\nenotty: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # `... | head`: the reader left; say nothing more on a dead pipe.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
