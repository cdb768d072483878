"""`make qemu-test`: build a tiny kernel with vivid and vimc as modules,
install the media kselftest with the kernel's `make kselftest-install`,
boot it in QEMU and run it through run_kselftest.sh.

  python3 -m enotty qemu-test [--kdir DIR] [--series media|none]
              [--series-dir DIR] [--mutant einval] [--timeout S] [--kvm]

--series media (the default) applies the committed media series
(generated-patches/linux-<version>/media/, or --series-dir, e.g. the media/
folder of `make patches OUT=...`): the run a new user expects to pass.
--series none boots the tree as it is, which fails by design on 6.12 (vivid's
framebuffer answers EINVAL).  --mutant einval also applies
selftests/qemu/mutant-einval.patch, a negative control that must fail.
Everything large lives in <cache>/qemu/: one work tree (a hard-link copy of
KDIR), one build folder, ccache, console logs and per-run results.  Exit
status: 0 pass, 1 fail, 2 bad usage.
"""
from __future__ import annotations

import fcntl
import json
import shutil
import sys
import time
from pathlib import Path

from ..kernel import tap, tree
from ..errors import UsageError
from ..kernel import qemu
from ..kernel.build import BuildError
from ..requests import QemuTestRequest
from ..kernel.worktree import WorkTree, replace_file, series_patches
from . import console as guest_console
from . import guest

REPO = Path(__file__).resolve().parents[3]
MUTANTS = {"einval": guest.GUEST / "mutant-einval.patch"}


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
        patches += series_patches(folder)
    if mutant:
        patches.append(MUTANTS[mutant])
    return patches


def save_json(path: Path, data: object) -> None:
    replace_file(path, (json.dumps(data, indent=1, sort_keys=True) + "\n").encode())


def load_json(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def report(label: str, text: str, results: Path) -> None:
    """run_kselftest.sh's verdicts, TAP summary per selftest program,
    compliance totals, changes vs other runs."""
    secs = guest_console.sections(text)
    for sec in secs:
        if sec.kind == "kselftest":
            for test, status in guest_console.kselftest_results(sec.lines).items():
                print(f"{sec.name}: {test}: {status}")
    for name, lines in guest_console.programs(secs):
        result = tap.read(lines)
        bad = [n for n, s in result.cases.items() if s in ("fail", "error")]
        t = result.totals or {}
        print(f"{name}: pass:{t.get('pass', '?')} fail:{t.get('fail', '?')} "
              f"skip:{t.get('skip', '?')} error:{t.get('error', '?')}")
        for case in bad:
            print(f"  not ok {case}")
    for sec in secs:
        if sec.kind == "compliance":
            res = guest_console.parse_compliance(sec.lines)
            print(f"v4l2-compliance {sec.name}: total {res.total} failed {res.failed} "
                  f"warnings {res.warnings}; test invalid ioctls: {res.invalid_ioctls}")
    # Before/after: a patched or mutant run against the pristine one, the
    # pristine run against the patched one.
    other = "media" if label == "none" else "none"
    data = load_json(results / f"{other}.json")
    if data and "cases" in data:
        changed = guest_console.changed_cases(data["cases"], guest_console.selftest_cases(secs))
        print(f"changed from {other} to {label}: {len(changed)} case(s)")
        for name, before, after in changed:
            print(f"  {name}: {before} -> {after}")


def command(req: QemuTestRequest) -> int:
    """Build, boot and judge one run; 0 pass, 1 fail."""
    source = req.tree.root
    label = run_label(req.series, req.mutant)
    if req.series_dir is not None and req.series == "none":
        raise UsageError("--series-dir needs --series media")
    patches = patch_set(source, req.series, req.mutant, req.series_dir)
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
    wt = WorkTree(source, work, manifest_path=cache / "touched.txt")
    if wt.ensure():
        # A new source: objects from another tree must not survive.
        shutil.rmtree(build, ignore_errors=True)
        (cache / "touched.txt").unlink(missing_ok=True)
    # The test is built from the tree's own tools/testing/selftests.
    patches = guest.with_selftest(source, patches, cache / "selftest.patch")
    changed = wt.apply(patches)
    guest.set_executables(work, patches)
    print(f"qemu-test: {label}: {len(patches)} patch(es), {len(changed)} file(s) rewritten")
    try:
        bzimage = guest.build_kernel(work, build, cache / "ccache", build_log)
        modules = guest.install_modules(work, build, cache / "modules", build_log)
        kselftest = guest.install_kselftest(work, build, cache / "kselftest", build_log, cache / "ccache")
        initramfs = guest.build_initramfs(kselftest, modules, cache / "initramfs.cpio")
    except BuildError as err:
        print(f"qemu-test: FAIL {label}: build failed: {err}", file=sys.stderr)
        for line in err.tail:
            print(line, file=sys.stderr)
        return 1
    t_build = time.monotonic() - t0

    console = logs / f"console-{label}.log"
    t1 = time.monotonic()
    config = guest.qemu_config(bzimage, initramfs, console, kvm=req.kvm)
    ended = qemu.boot(config, req.timeout)
    rc = ended.rc
    if rc not in (None, 0, 1) and ended.output:
        sys.stderr.write(ended.output[-2000:])
    t_boot = time.monotonic() - t1
    text = qemu.console_text(config)
    print(f"qemu-test: console log: {console}")
    print(f"qemu-test: build {t_build:.0f} s, boot+tests {t_boot:.0f} s")

    results = cache / "results"
    pristine = load_json(results / "none.json") if label != "none" else None
    baseline = pristine.get("compliance_failures") if pristine else None
    verdict = guest_console.judge(text, rc, guest.SELFTESTS, baseline)
    report(label, text, results)
    save_json(results / f"{label}.json", {
        "label": label, "ok": verdict.ok, "reasons": verdict.reasons,
        "cases": guest_console.selftest_cases(guest_console.sections(text)),
        "compliance_failures": guest_console.compliance_failures(text),
        "qemu_rc": rc, "build_seconds": round(t_build), "boot_seconds": round(t_boot),
        "console": str(console),
    })
    for reason in verdict.reasons:
        print(f"  {reason}")
    print(f"qemu-test: {'PASS' if verdict.ok else 'FAIL'} {label} "
          f"({len(verdict.reasons)} problem(s)); console log: {console}")
    return 0 if verdict.ok else 1
