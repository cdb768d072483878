"""`make audit`: per guest one audit kernel, two boots (pristine, series applied), the verdict.

  python3 -m enotty audit [--kdir DIR] [--series all|NAME] [--patches DIR] [--out DIR]
               [--mutant einval|untouched|epoll[,...]] [--timeout S]
               [--probe-timeout S] [--logs DIR] [--jobs N]

The kernel is configured for every series under --patches (default
generated-patches/linux-<version>/), so that one build folder serves every
SERIES=; --series picks the patches applied for the second boot.  Each
guest of enotty.audit.guests whose rows a series touches (x86_64, s390x)
has its own kernel and boot pair; all of them write into one audit.tsv
(another guest's targets prefixed with its name).  audit.tsv
and AUDIT.md are written into a temporary folder inside --out (default:
the patches folder) and renamed into place only when the audit completed.
--mutant also applies selftests/audit/mutant-NAME.patch for the second
boot: negative controls the verdict must catch.  Both boots also run the
in-tree kselftests (kselftests.tsv) of the touched files after the probe.
Everything large lives in <cache>/audit/: the work tree, two build folders
(one per configuration: kernel_config.build_folder; another guest's below
<cache>/audit/NAME/), ccache, kernels by content and the console logs.
Exit status: 0 pass,
1 the verdict found problems, 2 bad input or a run that could not finish.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from ..kernel import kconfig, tree, worktree
from ..errors import UsageError
from ..kernel import initramfs
from ..kernel.build import BuildError, TinyKernel, run_logged
from ..kernel.qemu import QemuConfig, console_text
from ..kernel.qemu import boot as boot_qemu
from ..requests import AuditRequest
from ..kernel.worktree import WorkTree
from . import DATA, PROBE_DIR, bootlog, compare, explain, kernel_config, kselftest_tap, kselftests, series_claims, table
from .guests import DEFAULT, GUESTS, Guest

REPO = Path(__file__).resolve().parents[3]
INIT_SCRIPT = DATA / "guest-init.sh"
# The /init of a guest without busybox (Guest.busybox False), static.
INIT_PROGRAM = DATA / "guest-init.c"
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
MUTANTS = {name: DATA / f"mutant-{name}.patch"
           for name in ("einval", "untouched", "epoll", "s390-untouched")}


class AuditError(Exception):
    """The run could not finish (build, boot, timeout): one line."""


def log_step(msg: str) -> None:
    print(f"audit: {msg}", flush=True)


def kernel_key(fragment: str, patches: list[Path], guest: Guest = GUESTS[DEFAULT],
               source: str = "") -> str:
    """A kernel's identity: the source tree, the guest, the configuration
    and the patch contents."""
    salt = source.encode() + b"\0" + guest.name.encode() + b"\0"
    h = hashlib.sha256(salt + guest.fragment.read_bytes() + fragment.encode())
    for patch in patches:
        h.update(b"\0" + _diffs(patch))
    return h.hexdigest()[:16]


def _diffs(patch: Path) -> bytes:
    """What a patch changes in the tree: from its first diff on, without
    the mail's header and message.  A reworded message (make patches adds
    the Tested in QEMU line from this very audit) builds the same kernel."""
    data = patch.read_bytes()
    at = data.find(b"\ndiff ")
    return data if at < 0 else data[at + 1:]


def build_kernel(wt: WorkTree, kernel: TinyKernel, images: Path, key: str,
                 patches: list[Path], guest: Guest = GUESTS[DEFAULT]) -> tuple[Path, bool]:
    """The bzImage (the guest's image) for source + patches, from the image
    cache or built; (image, built).  A guest booted from a device tree
    keeps its blob beside the image (DTB_NAME).  Only the files that differ
    from the last build recompile."""
    image = images / key / "bzImage"
    if image.is_file():
        return image, False
    changed = wt.apply(patches)
    log_step(f"building ({len(changed)} file(s) switched); log {kernel.log}")
    kernel.make(*guest.make_targets)
    tmp = images / f".{key}.tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    shutil.copy2(kernel.bzimage, tmp / "bzImage")
    if guest.dtb:
        shutil.copy2(kernel.build / guest.dtb, tmp / DTB_NAME)
    if (images / key).exists():
        shutil.rmtree(images / key)
    tmp.rename(images / key)
    return image, True


# The device tree blob of a guest that boots from one, beside its image.
DTB_NAME = "dtb"


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


def build_guest_programs(guest: Guest, out: Path, log: Path, env: dict[str, str]) -> tuple[Path, list[Path]]:
    """A guest without busybox: its static /init (guest-init.c) and the
    probe, both built with the guest's cross compiler and the Debian cross
    C library; (init, probes)."""
    out.mkdir(parents=True, exist_ok=True)
    init = out / "init"
    for path in [init] + [out / name for name in guest.probes]:
        path.unlink(missing_ok=True)
    cc = f"ccache {guest.cc}"
    run_logged([*cc.split(), *guest.cflags, "-O2", "-Wall", "-Wextra", "-static", "-o", str(init),
                str(INIT_PROGRAM)],
               log, env, what=f"the {guest.name} guest's init")
    run_logged(["make", "-s", "-C", str(PROBE_DIR), f"O={out}", f"CC={cc}",
                *(str(out / name) for name in guest.probes)], log, env,
               what=f"the {guest.name} probe")
    missing = [name for name in guest.probes if not (out / name).is_file()]
    if missing or not init.is_file():
        raise AuditError(f"the {guest.name} build made no {' or '.join(missing or ['init'])}; log: {log}")
    return init, [out / name for name in guest.probes]


def check_tools(guest: Guest) -> None:
    """A guest without busybox needs its cross compiler and its QEMU: one
    line naming the packages when either is missing (before any build)."""
    for tool in (guest.cc, guest.qemu):
        if shutil.which(tool) is None:
            raise UsageError(f"{tool} is missing for the {guest.name} guest (Debian packages: "
                             f"{' '.join(guest.packages)})")


def probe_args(rows: dict[str, table.Row], sources: list[str], controls: tuple[str, ...]) -> list[str]:
    """The probe's arguments in a guest that names its targets: the setup
    steps (-s GLOB=STEP), then every target glob of the rows and the
    guest's controls, each once."""
    args: list[str] = []
    for arg in table.probe_setups(rows, sources):
        args += ["-s", arg]
    globs: list[str] = []
    for source in sources:
        globs += [p.glob for p in rows[source].targets if p.glob not in globs]
    return args + globs + [c for c in controls if c not in globs]


def build_static_initramfs(init: Path, probes: list[Path], args: list[str], probe_timeout: int,
                           out: Path, restart: bool = False) -> Path:
    """The initramfs of a guest without busybox: guest-init.c's binary as
    /init, the probe and what guest-init.c reads (its arguments, one a
    line, its time limit, and /audit/restart when the machine is to be
    restarted rather than powered off)."""
    with tempfile.TemporaryDirectory(prefix="enotty-audit-initramfs-") as tmp:
        root = Path(tmp)
        initramfs.copy_into(root, init, "/init")
        os.chmod(root / "init", 0o755)
        (root / "audit" / "probe").mkdir(parents=True)
        (root / "audit" / "probe-timeout").write_text(f"{probe_timeout}\n")
        (root / "audit" / "probe-args").write_text("".join(f"{a}\n" for a in args))
        if restart:
            (root / "audit" / "restart").write_text("")
        for prog in probes:
            initramfs.copy_into(root, prog, f"/audit/probe/{prog.name}")
        return initramfs.pack(root, out)


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
                cmdline: list[str], guest: Guest = GUESTS[DEFAULT]) -> QemuConfig:
    """The audit's boot: the guest's machine and console, the table's
    devices and kernel parameters.  On x86_64 1G and SeaBIOS, not qboot:
    with qboot the sdhci-pci controller's interrupt never arrives (every
    MMC command times out), with SeaBIOS it does."""
    dtb = ("-dtb", str(bzimage.with_name(DTB_NAME))) if guest.dtb else ()
    return QemuConfig(kernel=bzimage, initrd=initrd, console=console, memory=guest.memory,
                      cmdline=tuple(cmdline), extra=(*dtb, *extra), binary=guest.qemu,
                      machine=guest.machine, console_device=guest.console,
                      debug_exit=guest.debug_exit, cpus=guest.cpus)


def _digest(path: Path) -> str:
    """The image's content: a boot is kept by what booted, not by the inputs
    that should have built it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def boot_key(kernel: str, initramfs: Path, extra: list[str], cmdline: list[str],
             guest: Guest = GUESTS[DEFAULT]) -> str:
    """A boot's identity: the kernel, the initramfs and the guest's options.
    The guest is deterministic enough for the probe's answers: the same
    boot is not repeated (a finished boot's console log is kept)."""
    h = hashlib.sha256(kernel.encode() + b"\0" + initramfs.read_bytes())
    # The whole command line with the per-run paths left out.
    h.update("\0".join(qemu_config(Path("K"), Path("I"), Path("C"), extra, cmdline, guest).argv()).encode())
    return h.hexdigest()[:16]


def boot(label: str, bzimage: Path, initramfs: Path, console: Path, extra: list[str],
         cmdline: list[str], timeout: int, kept: Path | None = None,
         guest: Guest = GUESTS[DEFAULT]) -> bootlog.Boot:
    """Boot once (or reuse kept, the console log of the same finished boot)."""
    if kept is not None and kept.is_file():
        log_step(f"the {label} boot is unchanged: reusing {kept}")
        shutil.copyfile(kept, console)
        return bootlog.parse_boot(kept.read_text(errors="replace"))
    config = qemu_config(bzimage, initramfs, console, extra, cmdline, guest)
    log_step(f"booting the {label} kernel (console {console})")
    ended = boot_qemu(config, timeout)
    if ended.rc is None:
        raise AuditError(f"the {label} kernel did not finish within {timeout} s "
                         f"(hung boot or probe); console: {console}")
    # isa-debug-exit makes QEMU exit with 1 (a power-off with 0); so does
    # a QEMU that refused its options, which then says why.
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


@dataclass
class GuestAudit:
    """One guest's part of the audit: its rows, its kernel's plan, and
    (once run) its two boots."""
    guest: Guest
    rows: dict[str, table.Row]               # its audit rows (table.of_guest)
    deps: kconfig.KconfigDeps
    plan: kernel_config.Plan
    audited: list[str]                       # its files the series of the folder touch
    dropped: dict[str, list[str]] = field(default_factory=dict)
    config_text: str = ""
    built: bool = False
    keys: tuple[str, str] = ("", "")             # the pristine and patched kernels' keys
    kernels: tuple[Path, Path] | None = None     # their images
    init: Path | None = None                     # the static /init (None: busybox)
    probes: list[Path] = field(default_factory=list)
    before: bootlog.Boot | None = None
    after: bootlog.Boot | None = None

    @property
    def sources(self) -> list[str]:
        """The audited files whose symbols survived olddefconfig."""
        return [s for s in self.audited if s not in self.dropped]

    def label(self, side: str) -> str:
        """`pristine`, or `s390x pristine` for another guest's boot."""
        return side if self.guest.name == DEFAULT else f"{self.guest.name} {side}"


def active_guests(rows: dict[str, table.Row], claimed) -> list[Guest]:
    """The guests to boot, in GUESTS order: each with an audit row for a
    file the series touch; x86_64 alone when none has one (its boot still
    checks the untouched controls)."""
    names = {rows[s].guest for s in claimed if s in rows and rows[s].audit}
    return [g for g in GUESTS.values() if g.name in names] or [GUESTS[DEFAULT]]


def check_guest_rows(guest: Guest, rows: dict[str, table.Row], sources: list[str]) -> None:
    """A guest without busybox runs no setup steps (guest-init.c has none):
    a row of it that names one is a table error, one line."""
    if guest.busybox:
        return
    for source in sources:
        if rows[source].setup:
            raise table.TableError(f"instantiate.tsv: {source} (audit:{guest.name}) names setup "
                                   f"step(s) {','.join(rows[source].setup)}, but the {guest.name} "
                                   f"guest's init (guest-init.c) runs none")


def guest_note(guest: Guest, n_series: int, applied: str) -> str:
    """AUDIT.md's sentence for one guest's kernel and boots."""
    if guest.name == DEFAULT:
        return (f"One x86_64 kernel (tinyconfig + selftests/audit/config + the drivers of "
                f"{n_series} series, built in), booted in QEMU (TCG) pristine and with "
                f"{applied} applied; the probe ran native and -m32.")
    return (f"One {guest.name} kernel (tinyconfig + selftests/audit/{guest.fragment.name} + "
            f"the drivers of its instantiate.tsv rows, built in), booted in QEMU (TCG, "
            f"{guest.machine}) pristine and with {applied} applied; the probe ran "
            f"{'native and -m32' if len(guest.probes) > 1 else 'native'} on its rows' targets, "
            f"listed in audit.tsv as {guest.prefix}TARGET.")


def run(req: AuditRequest) -> int:
    started = time.monotonic()
    source = req.tree.root
    version = req.tree.version
    root = req.patches or REPO / "generated-patches" / f"linux-{version}"
    out = req.out or root
    everything = series_claims.discover(root)
    selected = series_claims.select(root, req.series)
    # a row of a file this tree lacks claims no target here (6.12's
    # fs/userfaultfd.c beside 7.2's mm/userfaultfd.c, both /dev/userfaultfd)
    rows = {name: row for name, row in table.load().items() if (source / name).is_file()}
    all_claims = series_claims.claims(root, everything)
    claims = series_claims.claims(root, selected)
    audits = []
    for guest in active_guests(rows, all_claims):
        deps = kconfig.KconfigDeps(source, guest.srcarch)
        mine = table.of_guest(rows, guest.name)
        plan = kernel_config.plan(source, mine, sorted(all_claims), deps)
        audited = [s for s in sorted(all_claims) if s in plan.wanted]
        check_guest_rows(guest, mine, audited)
        audits.append(GuestAudit(guest, mine, deps, plan, audited))
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
                    claims, audits, copies)
    finally:
        shutil.rmtree(snapshot, ignore_errors=True)


@dataclass
class _Workplace:
    """Where one audit run works, under the audit's cache folder, and how
    long each part took (the summary line's figures)."""
    cache: Path
    logs: Path
    timings: dict[str, float] = field(
        default_factory=lambda: {"build": 0.0, "kselftests": 0.0, "boots": 0.0})

    @property
    def build_log(self) -> Path:
        return self.logs / "build.log"

    def of(self, guest: Guest) -> Path:
        """Another guest's build folders, probe and run files have a folder
        of their own; ccache, kernels and boots are shared (kept by content)."""
        return self.cache if guest.name == DEFAULT else self.cache / guest.name


def _run(req, started, source, version, root, out, everything, selected, rows,
         claims, audits: list[GuestAudit], patches) -> int:
    cache = tree.cache_dir() / "audit"
    at = _Workplace(cache, req.logs or cache / "logs")
    at.logs.mkdir(parents=True, exist_ok=True)
    at.build_log.unlink(missing_ok=True)
    # One copy at one path, whatever the tree: ccache's hits depend on the
    # path.  _build_kernels() empties a tree's build folders when the copy
    # is made again for it.
    wt = WorkTree(source=source, path=cache / "tree")
    # The lock covers the boots too: the probe and run folders are shared
    # with any other audit, which would rebuild them under an initramfs
    # this run is still packing.
    with wt.locked():
        env = _build_kernels(req, at, wt, audits, patches)
        t0 = time.monotonic()
        host, selection, programs = _kselftests(at, source, audits, claims, env)
        at.timings["kselftests"] = time.monotonic() - t0
        for ga in audits:
            _boot_guest(req, at, ga, selection, programs)
        return _report(req, at, started, version, out, everything, selected, rows, claims, audits,
                       host, selection, handlers_tsv=root / "handlers.tsv",
                       unapplied=series_claims.unapplied(root, claims))


def _build_kernels(req, at: _Workplace, wt: WorkTree, audits: list[GuestAudit],
                   patches: list[Path]) -> dict[str, str]:
    """Every guest's pristine and patched kernel and its programs (the
    caller holds the shared tree's lock); returns kbuild's environment
    (the ccache)."""
    env: dict[str, str] = {}
    for ga in audits:
        if not ga.guest.busybox:
            check_tools(ga.guest)
    if wt.ensure():
        # A copy made again (after an audit of the other tree) has the
        # package's old mtimes: objects of this tree's folders built from
        # files the lost copy had patched would look newer, and Kbuild
        # would keep them (a "pristine" kernel that answered like the
        # patched one)
        for ga in audits:
            kernel_config.empty_tree_folders(at.of(ga.guest), wt.source)
    for ga in audits:
        t0 = time.monotonic()
        env = _build_guest(req, at, wt, ga, patches)
        at.timings["build"] += time.monotonic() - t0
    return env


def _build_guest(req, at: _Workplace, wt: WorkTree, ga: GuestAudit, patches: list[Path]) -> dict[str, str]:
    """One guest: its configuration (what olddefconfig dropped is logged),
    its two kernels and the programs of its initramfs."""
    guest = ga.guest
    wanted = kernel_config.tree_line(wt.source) + kernel_config.appended(ga.plan.fragment,
                                                                          guest.fragment)
    kernel = TinyKernel(source=wt.path, build=kernel_config.build_folder(at.of(guest), wanted),
                        log=at.build_log, ccache=at.cache / "ccache", jobs=req.jobs,
                        stamp="audit.fragment", make_args=guest.make_args, image=guest.image)
    ga.config_text = kernel.configure(wanted, required=guest.fragment.read_text(),
                                      required_from=guest.fragment)
    ga.dropped = kernel_config.dropped({s: ga.plan.required[s] for s in ga.audited},
                                       ga.config_text, ga.deps)
    for source_file, why in sorted(ga.dropped.items()):
        log_step(f"left out {source_file}: Kconfig dropped {'; '.join(why)}")
    # Both kernels carry the guest's tree fixes (what the tree needs to
    # build for its architecture at all); the second one the series on top.
    # A fix whose context the tree no longer has is one the tree no longer
    # needs (7.2's fcntl_init() dropped the __FMODE_NONOTIFY bit the sparc64
    # fix takes out); one it still needs and lacks fails the build below.
    fixes = [f for f in guest.tree_fixes if worktree.applies(wt.source, f)]
    for skipped in sorted(set(guest.tree_fixes) - set(fixes)):
        log_step(f"{guest.name}: {skipped.name} does not apply to this tree; built without it")
    ga.keys = (kernel_key(ga.plan.fragment, fixes, guest, str(wt.source)),
               kernel_key(ga.plan.fragment, fixes + patches, guest, str(wt.source)))
    pristine, built_p = build_kernel(wt, kernel, at.cache / "images", ga.keys[0], fixes, guest)
    ga.init, ga.probes = _guest_programs(req, at, guest, kernel.env)
    patched, built_a = build_kernel(wt, kernel, at.cache / "images", ga.keys[1], fixes + patches,
                                    guest)
    ga.kernels = (pristine, patched)
    ga.built = built_p or built_a
    return kernel.env


def _guest_programs(req, at: _Workplace, guest: Guest,
                    env: dict[str, str]) -> tuple[Path | None, list[Path]]:
    """The guest's static /init (None: busybox runs guest-init.sh) and its
    probe builds; x86_64 may take prebuilt probes (--probe-bin)."""
    if guest.busybox and req.probe_bin and guest.name == DEFAULT:
        probes = [req.probe_bin / n for n in PROBES if (req.probe_bin / n).is_file()]
        if not probes:
            raise UsageError(f"--probe-bin {req.probe_bin}: no {' or '.join(PROBES)} there")
        return None, probes
    if guest.busybox:
        return None, build_probes(at.cache / "probe", at.build_log, env)
    return build_guest_programs(guest, at.of(guest) / "probe", at.build_log, env)


def _kselftests(at: _Workplace, source: Path, audits: list[GuestAudit], claims,
                env: dict[str, str]) -> tuple[GuestAudit | None, kselftests.Selection, dict[str, Path]]:
    """The in-tree kselftests of the files the applied series touch, and the
    controls, built static against the same tree's `make headers`: for
    x86_64 only (the guest that runs them, the selection, the programs)."""
    host = next((ga for ga in audits if ga.guest.kselftests), None)
    selection = kselftests.Selection()
    if host is not None:
        selection = kselftests.select(kselftests.load(), set(claims),
                                      kernel_config.parse_config(host.config_text), source)
    programs: dict[str, Path] = {}
    if selection.run:
        headers = kselftests.make_headers(source, at.cache / "kselftests" / "headers", at.build_log)
        programs = kselftests.build(selection.run, source, headers, at.cache / "kselftests" / "bin",
                                    at.build_log, env)
    return host, selection, programs


def _guest_initramfs(req, ga: GuestAudit, run_dir: Path, setups: list[str],
                     selection: kselftests.Selection, programs: dict[str, Path]) -> Path:
    """x86_64's busybox initramfs (setup steps, named targets, kselftests)
    or another guest's static /init with the probe's arguments."""
    guest = ga.guest
    if guest.busybox:
        mine = selection.run if guest.kselftests else []
        return build_initramfs(ga.probes, setups, table.explicit_targets(ga.rows, ga.sources),
                               req.probe_timeout, run_dir / "initramfs.cpio",
                               programs if guest.kselftests else {}, kselftests.guest_list(mine),
                               table.probe_setups(ga.rows, ga.sources))
    assert ga.init is not None
    return build_static_initramfs(ga.init, ga.probes, probe_args(ga.rows, ga.sources, guest.controls),
                                  req.probe_timeout, run_dir / "initramfs.cpio", guest.restart)


def _boot_guest(req, at: _Workplace, ga: GuestAudit, selection: kselftests.Selection,
                programs: dict[str, Path]) -> None:
    """Boot one guest's pristine and patched kernels on the same initramfs
    and QEMU options (each boot kept by content); log failed setup steps
    and kernel warnings."""
    guest = ga.guest
    assert ga.kernels is not None
    qemu, cmdline, setups = guest_options(ga.rows, ga.sources)
    run_dir = at.of(guest) / "run"
    run_dir.mkdir(parents=True, exist_ok=True)
    qemu = acpi_tables(scratch_images(qemu, run_dir), run_dir)
    initramfs = _guest_initramfs(req, ga, run_dir, setups, selection, programs)
    # Each kselftest has its own timeout inside the guest; the boot's adds them.
    boot_timeout = req.timeout + (sum(k.timeout for k in selection.run) if guest.kselftests else 0)
    t0 = time.monotonic()
    logname = "" if guest.name == DEFAULT else f"{guest.name}-"
    sides = ("pristine", "+".join(("patched", *req.mutants)))
    booted = [boot(ga.label(side), kernel, initramfs, at.logs / f"console-{logname}{side}.log",
                   qemu, cmdline, boot_timeout,
                   at.cache / "boots" / f"{boot_key(f'{key}:{_digest(kernel)}', initramfs, qemu, cmdline, guest)}.log",
                   guest)
              for side, kernel, key in zip(sides, ga.kernels, ga.keys)]
    ga.before, ga.after = booted
    at.timings["boots"] += time.monotonic() - t0
    for label, b in ((ga.label("pristine"), ga.before), (ga.label("patched"), ga.after)):
        for step, ok in sorted(b.setups.items()):
            if not ok:
                log_step(f"{label} boot: setup step {step} failed (see its console log)")
        for line in b.oops:
            log_step(f"{label} boot: {line}")


def _report(req, at: _Workplace, started: float, version: str, out: Path, everything, selected,
            rows, claims, audits: list[GuestAudit], host: GuestAudit | None,
            selection: kselftests.Selection, handlers_tsv: Path,
            unapplied: dict[str, str] | None = None) -> int:
    """Compare each guest's two boots, write audit.tsv and AUDIT.md, and
    print the summary, the notes and the problems (1 when there are any)."""
    lines: list[compare.Line] = []
    for ga in audits:
        assert ga.before is not None and ga.after is not None
        lines += compare.compare(bootlog.answers(ga.before), bootlog.answers(ga.after),
                                 ga.rows, claims, prefix=ga.guest.prefix)
    found = compare.problems(lines, claims)
    exceptions = table.load_exceptions()
    found += compare.not_enotty(lines, claims, exceptions)
    # Every node asked: each non-ENOTTY answer explained, or a recall miss.
    explained = explain.explain(lines, claims, exceptions, explain.left_out(handlers_tsv),
                                explain.load_answers(), unapplied)
    found += explain.problems(explained)
    # A kernel warning or oops that only the patched kernel prints is the
    # series' doing.
    for ga in audits:
        assert ga.before is not None and ga.after is not None
        found += [f"{ga.label('patched')} boot only: {line}" for line in ga.after.oops
                  if line not in ga.before.oops]
    ks_before: dict[str, kselftest_tap.Run] = {}
    ks_after: dict[str, kselftest_tap.Run] = {}
    if host is not None:
        assert host.before is not None and host.after is not None
        ks_before = kselftest_tap.runs(host.before.sections)
        ks_after = kselftest_tap.runs(host.after.sections)
    found += kselftest_tap.problems(selection.run, ks_before, ks_after)
    dropped = {s: why for ga in audits for s, why in ga.dropped.items()}
    underivable = {s: why for ga in audits for s, why in ga.plan.underivable.items()}
    statuses = compare.source_statuses(claims, rows, lines, dropped, underivable)
    series_names = {name: [f"{name}/{p.name}" for p in ps] for name, ps in selected.items()}
    applied = 'every series' if req.series == 'all' else 'the ' + req.series + ' series'
    note = " ".join(guest_note(ga.guest, len(everything), applied) for ga in audits)
    notes = (compare.partial(lines, claims) + compare.one_boot_only(lines)
             + kselftest_tap.notes(selection.run, ks_before, ks_after))
    md = compare.audit_md(version, series_names, claims, statuses, found, note, notes,
                                compare.exceptions_md(lines, exceptions)
                                + explain.markdown(explained, explain.asked(lines))
                                # The kselftests run in x86_64 only: no section without it.
                                + (kselftest_tap.md_section(selection, ks_before, ks_after, found)
                                   if host is not None else []))
    write_outputs(out, {"audit.tsv": compare.write_tsv(lines), "AUDIT.md": md})
    audited = sum(1 for s in statuses.values() if s.audited)
    total = time.monotonic() - started
    log_step(f"{audited} of {len(statuses)} patched source files audited; "
             f"{sum(1 for ln in lines if ln.changed)} answer(s) changed; "
             + "; ".join(f"{ga.guest.name} kernels {'built' if ga.built else 'cached'}" for ga in audits)
             + f"; build {at.timings['build']:.0f} s, kselftests {at.timings['kselftests']:.0f} s, "
             f"boots {at.timings['boots']:.0f} s, total {total:.0f} s")
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
