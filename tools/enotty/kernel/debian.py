"""The newest linux-source package Debian publishes, fetched without
touching the machine's apt configuration.

Debian 12 ships linux-source-6.12; unstable carries the newest source
(linux-source-7.2 today), an arch-independent package that needs nothing
else from unstable.  apt is given a private sources list naming the
machine's own Debian mirror with suite sid, and private lists and cache
folders under ENOTTY_CACHE/apt/, so /etc/apt and /var/lib/apt stay as they
were; `apt-get download` then `dpkg-deb -x` fetch the package as any user.
"""
from __future__ import annotations

import dataclasses
import os
import re
import subprocess
import time
from pathlib import Path

from ..errors import UsageError

SUITE = "sid"
FALLBACK_MIRROR = "http://deb.debian.org/debian"
# The private index is refreshed at most this often, so that a warm run asks
# the network nothing (apt-get update costs about 5 s).
INDEX_MAX_AGE = 6 * 3600
_PACKAGE = re.compile(r"^(linux-source-(\d+)\.(\d+)) - ", re.M)


@dataclasses.dataclass(frozen=True)
class Package:
    name: str          # linux-source-7.2
    version: str       # 7.2.13-1, Debian's version

    @property
    def folder(self) -> str:
        """The cache folder name of its unpacked tree: one per Debian version."""
        return f"{self.name}_{self.version}"


class FetchError(UsageError):
    """apt could not list or download the package (no network, no mirror)."""


def mirror(sources: tuple[Path, ...] = (Path("/etc/apt/sources.list"),
                                        Path("/etc/apt/sources.list.d"))) -> str:
    """The machine's Debian mirror: the first URI that serves a Debian
    suite (deb822 .sources or one-line .list), else deb.debian.org."""
    files: list[Path] = []
    for src in sources:
        files += sorted(src.glob("*.sources")) + sorted(src.glob("*.list")) if src.is_dir() else [src]
    for path in files:
        try:
            text = path.read_text(errors="replace")
        except OSError:
            continue
        for uri in (re.findall(r"^URIs:\s*(\S+)", text, re.M)
                    + re.findall(r"^deb\s+(?:\[[^]]*\]\s+)?(\S+)", text, re.M)):
            if uri.rstrip("/").endswith("/debian"):
                return uri.rstrip("/")
    return FALLBACK_MIRROR


def apt_options(state: Path) -> list[str]:
    """apt -o options that keep every file apt writes under state/."""
    return ["-o", f"Dir::Etc::sourcelist={state / 'sources.list'}",
            "-o", "Dir::Etc::sourceparts=/nonexistent",
            "-o", f"Dir::State::Lists={state / 'lists'}",
            "-o", f"Dir::Cache={state / 'cache'}",
            "-o", "Debug::NoLocking=1"] + (
                # root: apt would hand the download to _apt, which cannot write the cache
                ["-o", "APT::Sandbox::User=root"] if os.geteuid() == 0 else [])


def _run(argv: list[str], what: str, cwd: Path | None = None) -> str:
    res = subprocess.run(argv, capture_output=True, text=True, check=False, cwd=cwd)
    if res.returncode != 0:
        last = (res.stderr.strip().splitlines() or ["exit %d" % res.returncode])[-1]
        raise FetchError(f"{what}: {last}")
    return res.stdout


def refresh_index(state: Path, max_age: float = INDEX_MAX_AGE) -> bool:
    """apt-get update on the private sources list when its index is older
    than max_age; True when it ran."""
    stamp = state / "updated"
    if stamp.is_file() and time.time() - stamp.stat().st_mtime < max_age:
        return False
    for sub in ("lists/partial", "cache/archives/partial"):
        (state / sub).mkdir(parents=True, exist_ok=True)
    (state / "sources.list").write_text(f"deb {mirror()} {SUITE} main\n")
    _run(["apt-get", *apt_options(state), "update"], f"apt-get update of Debian {SUITE}")
    stamp.touch()
    return True


def newest(state: Path) -> Package:
    """The newest linux-source-X.Y package of the private index."""
    names = _PACKAGE.findall(_run(["apt-cache", *apt_options(state), "search", "--names-only",
                                   r"^linux-source-[0-9.]+$"], "apt-cache search"))
    if not names:
        raise FetchError(f"Debian {SUITE} lists no linux-source-X.Y package")
    name = max(names, key=lambda n: (int(n[1]), int(n[2])))[0]
    policy = _run(["apt-cache", *apt_options(state), "policy", name], f"apt-cache policy {name}")
    m = re.search(r"Candidate:\s*(\S+)", policy)
    if not m or m.group(1) == "(none)":
        raise FetchError(f"apt has no candidate for {name}")
    return Package(name, m.group(1))


def download(package: Package, state: Path, into: Path) -> Path:
    """The package's source tarball, downloaded and extracted under into/."""
    _run(["apt-get", *apt_options(state), "download", f"{package.name}={package.version}"],
         f"apt-get download {package.name}", cwd=into)
    debs = sorted(into.glob(f"{package.name}_*.deb"))
    if not debs:
        raise FetchError(f"apt-get download {package.name} left no .deb")
    _run(["dpkg-deb", "-x", str(debs[0]), str(into / "deb")], f"dpkg-deb -x {debs[0].name}")
    tarballs = sorted((into / "deb" / "usr" / "src").glob("linux-source-*.tar.*"))
    if not tarballs:
        raise FetchError(f"{debs[0].name} holds no usr/src/linux-source-*.tar.*")
    return tarballs[0]
