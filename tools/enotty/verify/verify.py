"""Check patches before they are written: checkpatch, the fixpoint, and
the companion patches' own checks (the object builds: crossbuild.py).

(The apply check is series.apply_all: every patch applied in order with
`git apply` to the pristine files in the scratch repository.)

Cache: checkpatch, companion and build verdicts are kept under
enotty.kernel.tree.cache_dir()/verify/ (ResultCache), keyed by
what they are computed from, so a rerun over unchanged patches runs neither
perl nor make.  The fixpoint needs no cache of its own: its rescan goes
through the scan's per-file cache, keyed by file content, rules, spatch and
its options.
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Iterable, Mapping, TextIO

from .. import cache
from ..partition import maintainers, split
from ..kernel import tree
from ..kernel.worktree import WorkTree
from ..cache import digest
from ..render import companions, series
from ..find.sites import Site
from .verdicts import CompanionVerdict
from ..kernel.build import FAILED, NOT_BUILT, OK, SKIPPED, Check, raise_if_killed
from ..requests import KernelTree, default_jobs

# ---------------------------------------------------------------- cache

# Bump when a verdict's meaning or what its key covers changes.
CACHE_FORMAT = "enotty-verify-1"


class ResultCache:
    """Verdicts (Check) by kind and key under tree.cache_dir()/verify/KIND/:
    checkpatch's, the companion patches' and the object checks'
    (kernel.build.check_objects keeps them here: a VerdictStore, whose
    keys name the tree by tree_id: KernelTree.cache_key)."""

    def __init__(self, folder: Path | None = None, tree_id: str = "") -> None:
        self.folder = folder or tree.cache_dir() / "verify"
        self.tree_id = tree_id

    @staticmethod
    def key(*parts: str) -> str:
        return cache.key(CACHE_FORMAT, *parts)

    def get(self, kind: str, key: str) -> Check | None:
        record = cache.JsonCache(self.folder / kind).get(key)
        try:
            status = str(record["status"])
            # the name NOT_BUILT had before the cross builds
            status = NOT_BUILT if status == "not built on x86_64" else status
            return Check(status, str(record["detail"]), str(record.get("arch", "")))
        except (KeyError, TypeError, AttributeError):
            return None

    def put(self, kind: str, key: str, check: Check) -> None:
        cache.JsonCache(self.folder / kind).put(key, {"status": check.status, "detail": check.detail,
                                                      "arch": check.arch})


# ---------------------------------------------------------------- checkpatch

def checkpatch_command(kernel: KernelTree, patch: Path) -> list[str] | None:
    found = kernel.checkpatch
    if found is None:
        return None
    cmd = ["perl", str(found.path), "--show-types", "--terse"]
    cmd += [f"--root={kernel.root}"] if found.own else ["--no-tree"]
    return cmd + [str(patch)]


def checkpatch(kernel: KernelTree, patch: Path) -> Check:
    """ok (warnings counted in the detail) or failed with the first errors.

    Cached by the patch's content, checkpatch.pl's content, its options
    and the tree (--root= reads the tree's spelling and const-struct lists);
    a tree without use_cache runs checkpatch.pl again (the verdict is
    still stored).
    """
    root = kernel.root
    cmd = checkpatch_command(kernel, patch)
    if cmd is None:
        return Check(SKIPPED, "no scripts/checkpatch.pl")
    script = Path(cmd[1])
    key = ResultCache.key(kernel.cache_key, digest(script.read_bytes()),
                          " ".join(cmd[:-1]), digest(patch.read_bytes()))
    results = ResultCache()
    if kernel.use_cache and (hit := results.get("checkpatch", key)) is not None:
        return hit
    chk = _run_checkpatch(root, cmd)
    results.put("checkpatch", key, chk)
    return chk


def _run_checkpatch(root: Path, cmd: list[str]) -> Check:
    res = subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=False,
                         env=maintainers.perl_env())
    raise_if_killed(res)
    errors = [ln for ln in res.stdout.splitlines() if ": ERROR:" in ln]
    warnings = [ln for ln in res.stdout.splitlines() if ": WARNING:" in ln]
    if errors:
        return Check(FAILED, "; ".join(e.split(": ", 1)[1] for e in errors[:2]))
    if res.returncode not in (0, 1) or (res.returncode == 1 and not warnings):
        return Check(FAILED, f"checkpatch.pl exit {res.returncode}: {res.stderr.strip()[:120]}")
    if warnings:
        types = sorted({w.split(": ", 2)[1].removeprefix("WARNING:") for w in warnings})
        return Check(OK, f"{len(warnings)} warning{'s' if len(warnings) > 1 else ''}: {', '.join(types)}")
    return Check(OK)


# ---------------------------------------------------------------- fixpoint

def fixpoint(patched: Iterable[str], sites: Iterable[Site], unparsed: Mapping[str, str]) -> dict[str, Check]:
    """Each patched file's fixpoint verdict from the rules run again over
    the patched files (find.scan.rescan: its sites, and the files it could
    not parse with why): the rules must find nothing."""
    left: dict[str, list[Site]] = {}
    for site in sites:
        left.setdefault(site.file, []).append(site)
    out = {}
    for rel in patched:
        if rel in left:
            lines = ", ".join(str(s.line) for s in left[rel])
            out[rel] = Check(FAILED, f"rules still match at line {lines}")
        elif rel in unparsed:
            out[rel] = Check(FAILED, f"patched file does not parse: {unparsed[rel]}")
        else:
            out[rel] = Check(OK)
    return out


# ---------------------------------------------------------------- the companion patches

def check_rule(text: str, spatch: str, use_cache: bool = True) -> Check:
    """The rule as it goes upstream (text) parses: spatch --parse-cocci
    (spatch: the scan's binary)."""
    key = ResultCache.key("companion-rule", digest(text.encode()), spatch)
    results = ResultCache()
    if use_cache and (hit := results.get("companion", key)) is not None:
        return hit
    with tempfile.TemporaryDirectory(prefix="companions-", dir=series.scratch_root()) as tmp:
        path = Path(tmp) / "ioctl_enotty.cocci"
        path.write_text(text)
        res = subprocess.run([spatch, "--parse-cocci", str(path)],
                             capture_output=True, text=True, check=False, cwd=tmp)
        raise_if_killed(res)
    chk = (Check(OK, "", "spatch --parse-cocci") if res.returncode == 0 else
           Check(FAILED, (res.stderr.strip().splitlines() or ["spatch failed"])[-1],
                        "spatch --parse-cocci"))
    results.put("companion", key, chk)
    return chk


def check_selftest(kernel: KernelTree, diff: str, log: TextIO = sys.stderr, jobs: int | None = None) -> Check:
    """The kselftest patch (diff) applied to a copy of the tree builds
    with the kernel's own kselftest make (TARGETS=drivers/media, the
    tree's `make headers`), both the native and the 32-bit binary on x86_64."""
    # one build at a time: make patches starts it early (crossbuild.EarlyPrepare),
    # and the verify stage then waits for that verdict instead of building again
    with _SELFTEST_LOCK:
        return _check_selftest(kernel, diff, log, jobs)


_SELFTEST_LOCK = threading.Lock()


def _check_selftest(kernel: KernelTree, diff: str, log: TextIO, jobs: int | None) -> Check:
    key = ResultCache.key("companion-selftest-o-made", kernel.cache_key, digest(diff.encode()))
    results = ResultCache()
    hit = results.get("companion", key)
    if hit is not None and (kernel.use_cache or key in _BUILT_HERE):
        return hit
    log.write("enotty: building the media kselftest with the kernel's kselftest make\n")   # one write: threads
    with tempfile.TemporaryDirectory(prefix="enotty-companions-", dir=tree.cache_dir()) as tmp:
        patch = Path(tmp) / "selftest.patch"
        patch.write_text(diff)
        copy = WorkTree(kernel.root, Path(tmp) / "tree")
        copy.ensure()
        copy.apply([patch])
        out, hdr = Path(tmp) / "out", Path(tmp) / "hdr"
        # 7.x's top Makefile refuses an O= folder that does not exist yet
        out.mkdir()
        hdr.mkdir()
        j = f"-j{jobs or default_jobs()}"
        steps = [["make", "-s", j, "-C", str(copy.path), f"O={hdr}", "ARCH=x86_64", "headers"],
                 ["make", "-s", j, "-C", str(copy.path / "tools/testing/selftests"), "TARGETS=drivers/media",
                  f"O={out}", "ARCH=x86", "LDFLAGS=-static", f"KHDR_INCLUDES=-isystem {hdr / 'usr/include'}"]]
        chk = Check(OK, "", "x86_64 kselftest")
        for cmd in steps:
            res = subprocess.run(cmd, capture_output=True, text=True, check=False)
            raise_if_killed(res)
            if res.returncode != 0:
                lines = [l for l in res.stderr.splitlines() if "error" in l] or res.stderr.splitlines() or ["failed"]
                chk = Check(FAILED, lines[0][:200], "x86_64 kselftest")
                break
        else:
            built = {p.name for p in out.rglob("ioctl_errno*") if p.is_file()}
            if "ioctl_errno" not in built:
                chk = Check(FAILED, "no ioctl_errno binary", "x86_64 kselftest")
    results.put("companion", key, chk)
    _BUILT_HERE.add(key)
    return chk


# verdicts this process built: a tree without use_cache (a KDIR) reuses those
_BUILT_HERE: set[str] = set()


def companion_verdicts(kernel: KernelTree, extra: companions.Companions, spatch: str,
                       jobs: int | None = None) -> list[CompanionVerdict]:
    """SUMMARY.md's rows of the semantic patch's mail and of the kselftest
    mail as the render stage formatted them (checkpatch reads them from a
    scratch folder; the kselftest row names its mail as the media series
    numbered it then); spatch parses the rule, the kernel's kselftest make
    builds the test."""
    rule, test = extra.rule, extra.selftest_mail
    built = check_rule(companions.upstream_rule_text(), spatch, kernel.use_cache) if rule else None
    test_built = check_selftest(kernel, companions.selftest_diff(kernel.root), jobs=jobs) if test else None
    rows = []
    with tempfile.TemporaryDirectory(prefix="companions-", dir=series.scratch_root()) as tmp:
        def mail_checkpatch(mail: series.Mail) -> Check:
            path = Path(tmp) / mail.name
            path.write_text(mail.text)
            return checkpatch(kernel, path)

        if rule and built:
            rows.append(CompanionVerdict(companions.RULE_SERIES, rule.name, 1, mail_checkpatch(rule), built))
        if test and test_built:
            rows.append(CompanionVerdict(split.MEDIA_SERIES, test.name, test.text.count("\ndiff --git "),
                                         mail_checkpatch(test), test_built))
    return rows
