#!/usr/bin/python3
"""Build a tiny kernel with vivid and vimc, boot it in QEMU, run the selftests.

  qemu_run.py [--kdir DIR] [--series media|none] [--series-dir DIR]
              [--mutant einval] [--timeout S]

--series media (the default) applies the committed media series
(generated-patches/linux-<version>/media/, or --series-dir, e.g. the media/
folder of `make patches OUT=...`): the run a new user expects to pass.
--series none boots the tree as it is, which fails by design on 6.12 (vivid's
framebuffer answers EINVAL).  --mutant einval also applies
mutant-einval.patch, a negative control that must fail.
Everything large lives in <cache>/qemu/: one work tree (a hard-link copy of
KDIR), one build folder, ccache, console logs and per-run results.  Exit
status: 0 pass, 1 fail, 2 bad usage.
"""
from __future__ import annotations

import argparse
import shutil
import fcntl
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO / "tools"))

from enotty.kernel import tree  # noqa: E402
from enotty.errors import UsageError  # noqa: E402

import qemu_kernel  # noqa: E402
import qemu_tap  # noqa: E402
import qemu_tree  # noqa: E402

MUTANTS = {"einval": HERE / "mutant-einval.patch"}
DEFAULT_TIMEOUT = 600


def run_label(series: str, mutant: str | None) -> str:
    """The name a run's results are stored under: none, media, none+einval."""
    return f"{series}+{mutant}" if mutant else series


def default_series_dir(source: Path, series: str) -> Path:
    """Where `make patches` commits a series for this tree's version."""
    return REPO / "generated-patches" / f"linux-{tree.kernel_version(source)}" / series


def patch_set(source: Path, series: str, mutant: str | None,
              series_dir: Path | None = None) -> list[Path]:
    """The patches for a run, in order: the series, then the mutant."""
    patches: list[Path] = []
    if series != "none":
        folder = series_dir or default_series_dir(source, series)
        if not folder.is_dir():
            raise UsageError(f"no {series} series at {folder} (run `make patches` first, "
                             "or SERIES=none for the pristine kernel)")
        patches += qemu_tree.series_patches(folder)
    if mutant:
        patches.append(MUTANTS[mutant])
    return patches


def save_json(path: Path, data: object) -> None:
    qemu_tree.replace_file(path, (json.dumps(data, indent=1, sort_keys=True) + "\n").encode())


def load_json(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def report(label: str, text: str, results: Path) -> None:
    """TAP summary per selftest binary, compliance totals, changes vs other runs."""
    secs = qemu_tap.sections(text)
    for sec in secs:
        if sec.kind == "selftest":
            tap = qemu_tap.parse_tap(sec.lines)
            bad = [n for n, s in tap.cases.items() if s in ("fail", "error")]
            t = tap.totals or {}
            print(f"{sec.name}: pass:{t.get('pass', '?')} fail:{t.get('fail', '?')} "
                  f"skip:{t.get('skip', '?')} error:{t.get('error', '?')}")
            for name in bad:
                print(f"  not ok {name}")
        elif sec.kind == "compliance":
            res = qemu_tap.parse_compliance(sec.lines)
            print(f"v4l2-compliance {sec.name}: total {res.total} failed {res.failed} "
                  f"warnings {res.warnings}; test invalid ioctls: {res.invalid_ioctls}")
    # Before/after: a patched or mutant run against the pristine one, the
    # pristine run against the patched one.
    other = "media" if label == "none" else "none"
    data = load_json(results / f"{other}.json")
    if data and "cases" in data:
        changed = qemu_tap.changed_cases(data["cases"], qemu_tap.selftest_cases(secs))
        print(f"changed from {other} to {label}: {len(changed)} case(s)")
        for name, before, after in changed:
            print(f"  {name}: {before} -> {after}")


def run(kdir: str | None, series: str, mutant: str | None, timeout: int, kvm: bool,
        series_dir: Path | None = None) -> int:
    source = tree.resolve(kdir, need_kernel=True)
    label = run_label(series, mutant)
    if series_dir is not None and series == "none":
        raise UsageError("--series-dir needs --series media")
    patches = patch_set(source, series, mutant, series_dir)
    cache = tree.cache_dir() / "qemu"
    cache.mkdir(parents=True, exist_ok=True)
    lock = open(cache / "lock", "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print(f"qemu-test: waiting for another run to release {cache / 'lock'}", file=sys.stderr)
        fcntl.flock(lock, fcntl.LOCK_EX)
    work, build = cache / "tree", cache / "build"
    logs = cache / "logs"
    logs.mkdir(exist_ok=True)
    build_log = logs / f"build-{label}.log"
    build_log.unlink(missing_ok=True)

    t0 = time.monotonic()
    if qemu_tree.ensure_work_tree(source, work):
        # A new source: objects from another tree must not survive.
        shutil.rmtree(build, ignore_errors=True)
        (cache / "touched.txt").unlink(missing_ok=True)
    # The test is built from the tree's own tools/testing/selftests.
    patches = qemu_kernel.with_selftest(source, patches, cache / "selftest.patch")
    changed = qemu_tree.apply_patch_set(source, work, patches, cache / "touched.txt")
    print(f"qemu-test: {label}: {len(patches)} patch(es), {len(changed)} file(s) rewritten")
    try:
        bzimage = qemu_kernel.build_kernel(work, build, cache / "ccache", build_log)
        selftests = qemu_kernel.build_selftests(work, build, cache / "selftest", build_log,
                                                cache / "ccache")
        initramfs = qemu_kernel.build_initramfs(selftests, cache / "initramfs.cpio")
    except qemu_kernel.BuildError as err:
        print(f"qemu-test: FAIL {label}: build failed: {err}", file=sys.stderr)
        return 1
    t_build = time.monotonic() - t0

    console = logs / f"console-{label}.log"
    t1 = time.monotonic()
    rc = qemu_kernel.boot(bzimage, initramfs, console, timeout, kvm=kvm)
    t_boot = time.monotonic() - t1
    text = console.read_text(errors="replace") if console.is_file() else ""
    print(f"qemu-test: console log: {console}")
    print(f"qemu-test: build {t_build:.0f} s, boot+tests {t_boot:.0f} s")

    results = cache / "results"
    pristine = load_json(results / "none.json") if label != "none" else None
    baseline = pristine.get("compliance_failures") if pristine else None
    verdict = qemu_tap.judge(text, rc, qemu_kernel.SELFTESTS, baseline)
    report(label, text, results)
    save_json(results / f"{label}.json", {
        "label": label, "ok": verdict.ok, "reasons": verdict.reasons,
        "cases": qemu_tap.selftest_cases(qemu_tap.sections(text)),
        "compliance_failures": qemu_tap.compliance_failures(text),
        "qemu_rc": rc, "build_seconds": round(t_build), "boot_seconds": round(t_boot),
        "console": str(console),
    })
    for reason in verdict.reasons:
        print(f"  {reason}")
    print(f"qemu-test: {'PASS' if verdict.ok else 'FAIL'} {label} "
          f"({len(verdict.reasons)} problem(s)); console log: {console}")
    return 0 if verdict.ok else 1


def parse_args(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kdir", help="kernel tree (read only); default: Debian's linux-source-6.12")
    ap.add_argument("--series", choices=("media", "none"), default="media",
                    help="media (default): the committed media series; none: the pristine tree")
    ap.add_argument("--series-dir", type=Path,
                    help="folder of the series' NNNN-*.patch files "
                         "(default: generated-patches/linux-<version>/<series>)")
    ap.add_argument("--mutant", choices=sorted(MUTANTS))
    ap.add_argument("--timeout", type=int, default=DEFAULT_TIMEOUT,
                    help="seconds before the guest counts as hung (default 600)")
    ap.add_argument("--kvm", action="store_true",
                    help="use KVM (only where a probe boot showed that it works)")
    return ap.parse_args(argv)


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    try:
        return run(args.kdir, args.series, args.mutant, args.timeout, args.kvm,
                   args.series_dir)
    except UsageError as err:
        print(f"qemu-test: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
