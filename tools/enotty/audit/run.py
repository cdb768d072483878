"""`make audit`: one audit kernel, two boots (pristine, series applied), the verdict.

  python3 -m enotty audit [--kdir DIR] [--series all|NAME] [--patches DIR] [--out DIR]
               [--mutant einval|untouched|epoll[,...]] [--timeout S]
               [--probe-timeout S] [--logs DIR] [--jobs N]

The kernel is configured for every series under --patches (default
generated-patches/linux-<version>/), so that one build folder serves every
SERIES=; --series picks the patches applied for the second boot.  audit.tsv
and AUDIT.md are written into a temporary folder inside --out (default:
the patches folder) and renamed into place only when the audit completed.
--mutant also applies selftests/audit/mutant-NAME.patch for the second
boot: negative controls the verdict must catch.  Both boots also run the
in-tree kselftests (kselftests.tsv) of the touched files after the probe.
Everything large lives in <cache>/audit/: the work tree, two build folders
(one per configuration: kernel_config.build_folder),
ccache, kernels by content and the console logs.  Exit status: 0 pass,
1 the verdict found problems, 2 bad input or a run that could not finish.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from ..kernel import kconfig, tree
from ..errors import UsageError
from ..kernel import initramfs
from ..kernel.build import BuildError, TinyKernel, run_logged
from ..kernel.qemu import QemuConfig, console_text
from ..kernel.qemu import boot as boot_qemu
from ..requests import AuditRequest
from ..kernel.worktree import WorkTree
from . import DATA, PROBE_DIR, bootlog, compare, kernel_config, kselftest_tap, kselftests, series_claims, table

REPO = Path(__file__).resolve().parents[3]
INIT_SCRIPT = DATA / "guest-init.sh"
PROBES = ("ioctl_probe", "ioctl_probe_32")
BUSYBOX = Path("/bin/busybox")
# Guest programs the setup steps run, with their shared libraries.
GUEST_TOOLS = {"macvtap": [Path("/bin/ip")]}
SCRATCH = "@SCRATCH/"
# @ACPI/NAME: selftests/audit/acpi/NAME.asl compiled by iasl (an SSDT for
# -acpitable, a device the firmware of a real machine would describe).
ACPI = "@ACPI/"
ACPI_DIR = DATA / "acpi"
FLOPPY_BYTES = 1474560
SCRATCH_BYTES = 4 << 20     # a power of two, as QEMU's sd-card wants
MUTANTS = {name: DATA / f"mutant-{name}.patch" for name in ("einval", "untouched", "epoll")}


class AuditError(Exception):
    """The run could not finish (build, boot, timeout): one line."""


def log_step(msg: str) -> None:
    print(f"audit: {msg}", flush=True)


def kernel_key(fragment: str, patches: list[Path]) -> str:
    """A kernel's identity: the configuration and the patch contents."""
    h = hashlib.sha256(kernel_config.BASE_FRAGMENT.read_bytes() + fragment.encode())
    for patch in patches:
        h.update(b"\0" + patch.read_bytes())
    return h.hexdigest()[:16]


def build_kernel(wt: WorkTree, kernel: TinyKernel, images: Path, key: str,
                 patches: list[Path]) -> tuple[Path, bool]:
    """The bzImage for source + patches, from the image cache or built;
    (image, built).  Only the files that differ from the last build recompile."""
    image = images / key / "bzImage"
    if image.is_file():
        return image, False
    changed = wt.apply(patches)
    log_step(f"building ({len(changed)} file(s) switched); log {kernel.log}")
    kernel.make("bzImage")
    tmp = images / f".{key}.tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    shutil.copy2(kernel.bzimage, tmp / "bzImage")
    if (images / key).exists():
        shutil.rmtree(images / key)
    tmp.rename(images / key)
    return image, True


def build_probes(out: Path, log: Path, env: dict[str, str]) -> list[Path]:
    """The probe, native and -m32, static (it needs only the C library's
    and the distribution's uapi headers)."""
    if not (PROBE_DIR / "Makefile").is_file():
        raise UsageError(f"{PROBE_DIR}/Makefile is missing: the audit needs the ioctl probe")
    out.mkdir(parents=True, exist_ok=True)
    for name in PROBES:
        (out / name).unlink(missing_ok=True)
    run_logged(["make", "-s", "-C", str(PROBE_DIR), f"O={out}", "CC=ccache gcc"], log, env)
    missing = [name for name in PROBES if not (out / name).is_file()]
    if missing:
        raise AuditError(f"the probe build made no {' or '.join(missing)}; log: {log}")
    return [out / name for name in PROBES]


def build_initramfs(probes: list[Path], setups: list[str], named: list[str], probe_timeout: int,
                    out: Path, tests: dict[str, Path] | None = None, test_list: str = "",
                    probe_setups: list[str] | None = None) -> Path:
    """An uncompressed newc cpio: busybox, /init, the probe, setup tools,
    and the kselftests (programs, and the list of what to run)."""
    if not BUSYBOX.is_file():
        raise UsageError(f"{BUSYBOX} is missing (package busybox-static)")
    with tempfile.TemporaryDirectory(prefix="enotty-audit-initramfs-") as tmp:
        root = Path(tmp)
        initramfs.start(root, BUSYBOX, INIT_SCRIPT)
        (root / "audit" / "probe").mkdir(parents=True)
        (root / "audit" / "setups").write_text("".join(f"{s}\n" for s in setups))
        (root / "audit" / "probe-timeout").write_text(f"{probe_timeout}\n")
        (root / "audit" / "probe-named").write_text("".join(f"{t}\n" for t in named))
        (root / "audit" / "probe-setups").write_text("".join(f"-s\n{s}\n" for s in probe_setups or []))
        for prog in probes:
            initramfs.copy_into(root, prog, f"/audit/probe/{prog.name}")
        (root / "audit" / "kselftests").mkdir()
        (root / "audit" / "kselftests" / "list").write_text(test_list)
        for name, prog in sorted((tests or {}).items()):
            initramfs.copy_into(root, prog, f"/audit/kselftests/{name}")
        for step in setups:
            for prog in GUEST_TOOLS.get(step, []):
                if not prog.is_file():
                    raise UsageError(f"{prog} is missing (setup step {step}; package iproute2)")
                # Into /usr/sbin: busybox's applet links stay in /sbin and /bin.
                initramfs.copy_program(root, prog, f"/usr/sbin/{prog.name}")
        # Same content, same bytes: boot_key() hashes the archive.
        return initramfs.pack(root, out)


def guest_options(rows: dict[str, table.Row], sources: list[str]) -> tuple[list[str], list[str], list[str]]:
    """(qemu argv groups, kernel parameters, setup steps) of the audited rows,
    each once, in table order."""
    qemu: list[str] = []
    cmdline: list[str] = []
    setups: list[str] = []
    groups: list[tuple[str, ...]] = []
    for source in sources:
        row = rows[source]
        # `-opt value` pairs: a pair repeated by two rows (lp and ppdev both
        # want -parallel null) is passed once.
        args = list(row.qemu)
        for i in range(0, len(args), 2):
            group = tuple(args[i:i + 2])
            if group not in groups:
                groups.append(group)
        cmdline += [c for c in row.cmdline if c not in cmdline]
        setups += [s for s in row.setup if s not in setups]
    for group in groups:
        qemu += list(group)
    return qemu, cmdline, setups


def _replace_names(qemu: list[str], token: str, path_of) -> list[str]:
    """The argv with each TOKEN/NAME (up to a ',', ';' or ' ') replaced by
    path_of(NAME): @SCRATCH/ images and @ACPI/ tables alike."""
    out = []
    for arg in qemu:
        while token in arg:
            start = arg.index(token)
            end = start + len(token)
            while end < len(arg) and arg[end] not in ",; ":
                end += 1
            arg = arg[:start] + str(path_of(arg[start + len(token):end])) + arg[end:]
        out.append(arg)
    return out


def scratch_images(qemu: list[str], folder: Path) -> list[str]:
    """Create the blank images @SCRATCH/NAME names; the argv with real paths."""
    def blank(name: str) -> Path:
        path = folder / name
        with open(path, "wb") as f:
            f.truncate(FLOPPY_BYTES if name.startswith("fd") else SCRATCH_BYTES)
        return path
    return _replace_names(qemu, SCRATCH, blank)


def acpi_tables(qemu: list[str], folder: Path, sources: Path = ACPI_DIR) -> list[str]:
    """Compile the tables @ACPI/NAME names; the argv with the .aml paths.
    The file name carries the table's hash: a boot is kept by its argv, and
    an edited table must not reuse the boot of the old one."""
    def compiled(name: str) -> Path:
        asl = sources / f"{name}.asl"
        if not asl.is_file():
            raise AuditError(f"{ACPI}{name}: no {asl}")
        with tempfile.TemporaryDirectory() as tmp:
            res = subprocess.run(["iasl", "-p", f"{tmp}/{name}", str(asl)],
                                 capture_output=True, text=True, check=False)
            aml = Path(tmp) / f"{name}.aml"
            if res.returncode != 0 or not aml.is_file():
                last = (res.stdout + res.stderr).strip().splitlines()[-1:] or ["no output"]
                raise AuditError(f"iasl {asl.name}: exit {res.returncode}: {last[0]}")
            data = aml.read_bytes()
        path = folder / f"{name}-{hashlib.sha256(data).hexdigest()[:16]}.aml"
        path.write_bytes(data)
        return path
    return _replace_names(qemu, ACPI, compiled)


def qemu_config(bzimage: Path, initrd: Path, console: Path, extra: list[str],
                cmdline: list[str]) -> QemuConfig:
    """The audit's boot: 1G, the table's devices and kernel parameters.
    SeaBIOS, not qboot: with qboot the sdhci-pci controller's interrupt
    never arrives (every MMC command times out), with SeaBIOS it does."""
    return QemuConfig(kernel=bzimage, initrd=initrd, console=console, memory="1G",
                      cmdline=tuple(cmdline), extra=tuple(extra))


def boot_key(kernel: str, initramfs: Path, extra: list[str], cmdline: list[str]) -> str:
    """A boot's identity: the kernel, the initramfs and the guest's options.
    The guest is deterministic enough for the probe's answers: the same
    boot is not repeated (a finished boot's console log is kept)."""
    h = hashlib.sha256(kernel.encode() + b"\0" + initramfs.read_bytes())
    # The whole command line with the per-run paths left out.
    h.update("\0".join(qemu_config(Path("K"), Path("I"), Path("C"), extra, cmdline).argv()).encode())
    return h.hexdigest()[:16]


def boot(label: str, bzimage: Path, initramfs: Path, console: Path, extra: list[str],
         cmdline: list[str], timeout: int, kept: Path | None = None) -> bootlog.Boot:
    """Boot once (or reuse kept, the console log of the same finished boot)."""
    if kept is not None and kept.is_file():
        log_step(f"the {label} boot is unchanged: reusing {kept}")
        shutil.copyfile(kept, console)
        return bootlog.parse_boot(kept.read_text(errors="replace"))
    config = qemu_config(bzimage, initramfs, console, extra, cmdline)
    log_step(f"booting the {label} kernel (console {console})")
    ended = boot_qemu(config, timeout)
    if ended.rc is None:
        raise AuditError(f"the {label} kernel did not finish within {timeout} s "
                         f"(hung boot or probe); console: {console}")
    # isa-debug-exit makes QEMU exit with 1; so does a QEMU that refused
    # its options, which then says why.
    if ended.rc not in (0, 1):
        raise AuditError(f"QEMU failed for the {label} kernel (exit {ended.rc}): {ended.last_line()}")
    parsed = bootlog.parse_boot(console_text(config))
    if not parsed.done:
        why = f"QEMU: {ended.last_line()}" if ended.last_line() else "panic or early stop"
        raise AuditError(f"the {label} kernel did not reach the end of the audit "
                         f"({why}); console: {console}")
    if kept is not None:
        kept.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(console, kept.with_suffix(".tmp"))
        os.replace(kept.with_suffix(".tmp"), kept)
    return parsed


def write_outputs(out: Path, files: dict[str, str]) -> None:
    """Every file into a temporary folder inside out, then renamed into place."""
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".audit-", dir=out))
    try:
        for name, text in files.items():
            (tmp / name).write_text(text)
        for name in files:
            os.replace(tmp / name, out / name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def command(req: AuditRequest) -> int:
    """The audit; 0 pass, 1 the verdict found problems.  A run that cannot
    finish (build, boot, table) is one UsageError line (exit 2)."""
    try:
        return run(req)
    except (AuditError, BuildError, table.TableError, kselftests.TableError) as err:
        raise UsageError(str(err)) from None


def run(req: AuditRequest) -> int:
    started = time.monotonic()
    source = req.tree.root
    version = req.tree.version
    root = req.patches or REPO / "generated-patches" / f"linux-{version}"
    out = req.out or root
    everything = series_claims.discover(root)
    selected = series_claims.select(root, req.series)
    rows = table.load()
    all_claims = series_claims.claims(root, everything)
    claims = series_claims.claims(root, selected)
    deps = kconfig.KconfigDeps(source)
    plan = kernel_config.plan(source, rows, sorted(all_claims), deps)
    audited_rows = [s for s in sorted(all_claims) if s in plan.wanted]
    patches = [p for name in selected for p in selected[name]]
    for name in req.mutants:
        if name not in MUTANTS:
            raise UsageError(f"unknown mutant {name!r} (known: {', '.join(MUTANTS)})")
        patches.append(MUTANTS[name])
    # The patches as they are now: the kernel's key and the build must see
    # the same bytes even if `make patches` rewrites the folder meanwhile.
    snapshot = Path(tempfile.mkdtemp(prefix="enotty-audit-patches-"))
    copies = []
    for i, patch in enumerate(patches):
        copy = snapshot / f"{i:04d}-{patch.name}"
        shutil.copyfile(patch, copy)
        copies.append(copy)
    try:
        return _run(req, started, source, version, root, out, everything, selected, rows,
                    all_claims, claims, deps, plan, audited_rows, copies)
    finally:
        shutil.rmtree(snapshot, ignore_errors=True)


def _run(req, started, source, version, root, out, everything, selected, rows, all_claims,
         claims, deps, plan, audited_rows, patches) -> int:

    cache = tree.cache_dir() / "audit"
    logs = req.logs or cache / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    images = cache / "images"
    wanted = kernel_config.appended(plan.fragment)
    build_log = logs / "build.log"
    build_log.unlink(missing_ok=True)
    wt = WorkTree(source=source, path=cache / "tree")
    kernel = TinyKernel(source=wt.path, build=kernel_config.build_folder(cache, wanted), log=build_log,
                        ccache=cache / "ccache", jobs=req.jobs, stamp="audit.fragment")
    env = kernel.env
    timings = {}
    with wt.locked():
        wt.ensure()
        t0 = time.monotonic()
        config_text = kernel.configure(wanted, required=kernel_config.BASE_FRAGMENT.read_text(),
                                       required_from=kernel_config.BASE_FRAGMENT)
        dropped = kernel_config.dropped({s: plan.required[s] for s in audited_rows}, config_text,
                                       deps)
        for source_file, why in sorted(dropped.items()):
            log_step(f"left out {source_file}: Kconfig dropped {'; '.join(why)}")
        pristine_key = kernel_key(plan.fragment, [])
        patched_key = kernel_key(plan.fragment, patches)
        pristine, built_p = build_kernel(wt, kernel, images, pristine_key, [])
        if req.probe_bin:
            probes = [req.probe_bin / n for n in PROBES if (req.probe_bin / n).is_file()]
            if not probes:
                raise UsageError(f"--probe-bin {req.probe_bin}: no {' or '.join(PROBES)} there")
        else:
            probes = build_probes(cache / "probe", build_log, env)
        patched, built_a = build_kernel(wt, kernel, images, patched_key, patches)
        timings["build"] = time.monotonic() - t0
    # The in-tree kselftests of the files the applied series touch, and the
    # controls, built static against the same tree's `make headers`.
    t0 = time.monotonic()
    selection = kselftests.select(kselftests.load(), set(claims),
                                  kernel_config.parse_config(config_text))
    programs: dict[str, Path] = {}
    if selection.run:
        headers = kselftests.make_headers(source, cache / "kselftests" / "headers", build_log)
        programs = kselftests.build(selection.run, source, headers, cache / "kselftests" / "bin",
                                    build_log, env)
    timings["kselftests"] = time.monotonic() - t0
    qemu, cmdline, setups = guest_options(rows, [s for s in audited_rows if s not in dropped])
    run_dir = cache / "run"
    run_dir.mkdir(parents=True, exist_ok=True)
    qemu = acpi_tables(scratch_images(qemu, run_dir), run_dir)
    named = table.explicit_targets(rows, [s for s in audited_rows if s not in dropped])
    initramfs = build_initramfs(probes, setups, named, req.probe_timeout,
                                run_dir / "initramfs.cpio", programs,
                                kselftests.guest_list(selection.run),
                                table.probe_setups(rows, [s for s in audited_rows
                                                                if s not in dropped]))
    # Each kselftest has its own timeout inside the guest; the boot's adds them.
    boot_timeout = req.timeout + sum(k.timeout for k in selection.run)
    t0 = time.monotonic()
    boots = cache / "boots"
    before = boot("pristine", pristine, initramfs, logs / "console-pristine.log", qemu, cmdline,
                  boot_timeout, boots / f"{boot_key(pristine_key, initramfs, qemu, cmdline)}.log")
    label = "+".join(("patched", *req.mutants))
    after = boot(label, patched, initramfs, logs / f"console-{label}.log", qemu, cmdline,
                 boot_timeout, boots / f"{boot_key(patched_key, initramfs, qemu, cmdline)}.log")
    timings["boots"] = time.monotonic() - t0
    for label, b in (("pristine", before), ("patched", after)):
        for step, ok in sorted(b.setups.items()):
            if not ok:
                log_step(f"{label} boot: setup step {step} failed (see its console log)")
        for line in b.oops:
            log_step(f"{label} boot: {line}")

    lines = compare.compare(bootlog.answers(before), bootlog.answers(after),
                                  rows, claims)
    found = compare.problems(lines, claims)
    exceptions = table.load_exceptions()
    found += compare.not_enotty(lines, claims, exceptions)
    # A kernel warning or oops that only the patched kernel prints is the
    # series' doing.
    found += [f"patched boot only: {line}" for line in after.oops if line not in before.oops]
    ks_before = kselftest_tap.runs(before.sections)
    ks_after = kselftest_tap.runs(after.sections)
    found += kselftest_tap.problems(selection.run, ks_before, ks_after)
    statuses = compare.source_statuses(claims, rows, lines, dropped, plan.underivable)
    series_names = {name: [f"{name}/{p.name}" for p in ps] for name, ps in selected.items()}
    note = (f"One x86_64 kernel (tinyconfig + selftests/audit/config + the drivers of "
            f"{len(everything)} series, built in), booted in QEMU (TCG) pristine and with "
            f"{'every series' if req.series == 'all' else 'the ' + req.series + ' series'} "
            f"applied; the probe ran native and -m32.")
    notes = (compare.partial(lines, claims) + compare.one_boot_only(lines)
             + kselftest_tap.notes(selection.run, ks_before, ks_after))
    md = compare.audit_md(version, series_names, claims, statuses, found, note, notes,
                                compare.exceptions_md(lines, exceptions)
                                + kselftest_tap.md_section(selection, ks_before, ks_after, found))
    write_outputs(out, {"audit.tsv": compare.write_tsv(lines), "AUDIT.md": md})
    audited = sum(1 for s in statuses.values() if s.audited)
    total = time.monotonic() - started
    log_step(f"{audited} of {len(statuses)} patched source files audited; "
             f"{sum(1 for ln in lines if ln.changed)} answer(s) changed; "
             f"kernels {'built' if built_p or built_a else 'cached'}; "
             f"build {timings['build']:.0f} s, kselftests {timings['kselftests']:.0f} s, "
             f"boots {timings['boots']:.0f} s, total {total:.0f} s")
    for row in selection.run:
        old_run, new_run = ks_before.get(row.name), ks_after.get(row.name)
        log_step(f"kselftest {row.name}: {old_run.summary(timed=True) if old_run else 'not run'} -> "
                 f"{new_run.summary(timed=True) if new_run else 'not run'}")
    log_step(f"wrote {out / 'audit.tsv'} and {out / 'AUDIT.md'}")
    for n in notes:
        print(f"audit: note: {n}")
    for problem in found:
        print(f"audit: problem: {problem}")
    return 1 if found else 0
