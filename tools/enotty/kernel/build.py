"""Configure a kernel and build it out of tree, through ccache.

Two kinds of configuration, one kbuild driver:

* TinyKernel: a bootable kernel for QEMU, tinyconfig plus fragments
  (`make qemu-test`: selftests/qemu/config; `make audit`: its base fragment
  plus the drivers the series touch).  Configured again only when the
  fragments change (a stamp file in the build folder holds them), checked
  option by option after olddefconfig.
* configure_wide: a config target (allmodconfig, a board's defconfig) plus
  settings, with WERROR and debug info off, for the object checks of
  `make patches` (enotty.verify.verify, enotty.verify.crossbuild); BuildTree is such a
  build's source copy and object folder, Platform one architecture's wide
  configuration (configure_platform and prepare_platform, once per folder).

The tree itself is only read: every build writes into O=.
"""
from __future__ import annotations

import hashlib
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from . import tree
from ..requests import default_jobs
from .worktree import WorkTree, kbuild_env

X86_64 = ("ARCH=x86_64", "CC=ccache gcc")   # a bootable kernel's make arguments


class BuildError(Exception):
    """A build step failed: one line naming the log; tail: the log's last lines."""

    def __init__(self, message: str, tail: list[str] | None = None) -> None:
        super().__init__(message)
        self.tail = tail or []


# ---------------------------------------------------------------- .config text

_SET = re.compile(r"^(CONFIG_\w+)=(.*)$")
_UNSET = re.compile(r"^# (CONFIG_\w+) is not set$")


def parse_config(text: str) -> dict[str, str]:
    """CONFIG_X -> value ('y', 'm', '"str"', 'n' for `# CONFIG_X is not set`)."""
    out = {}
    for line in text.splitlines():
        line = line.strip()
        m = _SET.match(line) or _UNSET.match(line)
        if m:
            out[m.group(1)] = m.group(2) if m.re is _SET else "n"
    return out


def read_config(path: Path) -> dict[str, str]:
    """A .config file's values (parse_config)."""
    return parse_config(path.read_text(errors="replace"))


def config_mismatches(fragment: str, config: str) -> list[str]:
    """Fragment options the final .config does not carry, as messages."""
    have = parse_config(config)
    bad = []
    for key, want in parse_config(fragment).items():
        got = have.get(key, "n")
        if got != want:
            bad.append(f"{key}={want} requested, .config has {key}={got}")
    return bad


def relaxed(text: str, settings: tuple[str, ...] = ()) -> str:
    """A wide .config with WERROR and debug info off (a warning the patch
    did not cause must not fail it; debug info only costs time) and the
    SYMBOL=y|m|n settings on top."""
    text = re.sub(r"^(CONFIG_\w*WERROR)=y$", r"# \1 is not set", text, flags=re.M)
    for opt in ("DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT", "DEBUG_INFO_DWARF4", "DEBUG_INFO_DWARF5",
                "DEBUG_INFO_BTF"):
        text = re.sub(rf"^CONFIG_{opt}=y$", f"# CONFIG_{opt} is not set", text, flags=re.M)
    extra = ["CONFIG_DEBUG_INFO_NONE=y"]
    for setting in settings:
        name, _, value = setting.partition("=")
        text = re.sub(rf"^(# )?CONFIG_{name}( is not set|=.*)$\n?", "", text, flags=re.M)
        extra.append(f"# CONFIG_{name} is not set" if value == "n" else f"CONFIG_{name}={value}")
    return text + "\n".join(extra) + "\n"


# ---------------------------------------------------------------- make

def make_argv(src: Path, obj: Path, *targets: str, make_args: tuple[str, ...] = (),
              jobs: int | None = None, quiet: bool = False) -> list[str]:
    """kbuild in src with O=obj, make_args (ARCH=, CROSS_COMPILE=, CC=) and
    jobs (default: our CPUs) workers."""
    return ["make", *(["-s"] if quiet else []), "-C", str(src), f"O={obj}", *make_args,
            f"-j{jobs or default_jobs()}", *targets]


def run_logged(argv: list[str], log: Path, env: dict[str, str] | None = None,
               what: str | None = None) -> None:
    """argv with its output appended to log; BuildError when it fails,
    saying `what did not build` (default: the start of argv failed)."""
    with open(log, "ab") as f:
        f.write(("$ " + shlex.join(argv) + "\n").encode())
        f.flush()
        res = subprocess.run(argv, stdout=f, stderr=subprocess.STDOUT, env=env, check=False)
    if res.returncode != 0:
        tail = log.read_text(errors="replace").splitlines()[-15:]
        failed = f"{what} did not build" if what else f"`{' '.join(argv[:6])} ...` failed"
        raise BuildError(f"{failed} (exit {res.returncode}); log: {log}", tail)


def quiet_make(src: Path, obj: Path, targets: list[str], make_args: tuple[str, ...] = (),
               jobs: int | None = None) -> None:
    """kbuild with its output dropped; CalledProcessError with the last
    lines of its stderr when it fails."""
    cmd = make_argv(src, obj, *targets, make_args=make_args, jobs=jobs)
    res = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         check=False, env=kbuild_env())
    if res.returncode != 0:
        last = [ln for ln in res.stderr.splitlines() if ln.strip()][-3:]
        raise subprocess.CalledProcessError(res.returncode, cmd, stderr="\n".join(last))


# ---------------------------------------------------------------- bootable kernels

@dataclass(frozen=True)
class TinyKernel:
    """A bootable kernel: tinyconfig plus fragments, built in build (O=)
    from source through ccache (its folder: ccache), logged to log.
    x86_64 unless make_args and image say another architecture (the
    audit's guests: ARCH=, CROSS_COMPILE=, CC= and the image kbuild
    leaves in the build folder)."""
    source: Path
    build: Path
    log: Path
    ccache: Path
    jobs: int | None = None
    stamp: str = ".enotty-fragment"    # the build folder's record of the fragments
    make_args: tuple[str, ...] = X86_64
    image: str = "arch/x86/boot/bzImage"   # the bootable image, relative to build

    @property
    def env(self) -> dict[str, str]:
        return kbuild_env(self.ccache)

    @property
    def bzimage(self) -> Path:
        return self.build / self.image

    def make(self, *targets: str) -> None:
        run_logged(make_argv(self.source, self.build, *targets, make_args=self.make_args,
                             jobs=self.jobs, quiet=True), self.log, self.env)

    def configure(self, fragment: str, required: str | None = None,
                  required_from: Path | str = "the fragment") -> str:
        """tinyconfig + fragment, olddefconfig; the .config text.  Unchanged
        fragment: nothing is rerun.  Every option of required (default: the
        whole fragment) must survive olddefconfig, else BuildError naming
        required_from."""
        config = self.build / ".config"
        stamp = self.build / self.stamp
        if not (config.is_file() and stamp.is_file() and stamp.read_text() == fragment):
            self.build.mkdir(parents=True, exist_ok=True)
            stamp.unlink(missing_ok=True)
            self.make("tinyconfig")
            with open(config, "a") as f:
                f.write("\n" + fragment)
            self.make("olddefconfig")
            stamp.write_text(fragment)
        text = config.read_text()
        bad = config_mismatches(fragment if required is None else required, text)
        if bad:
            stamp.unlink(missing_ok=True)
            raise BuildError(f"{required_from}: options olddefconfig dropped (missing dependency?): "
                             + "; ".join(bad))
        return text


# ---------------------------------------------------------------- wide configurations

@dataclass(frozen=True)
class BuildTree:
    """A wide configuration's build: the pristine tree, the hard-link copy
    that gets the patched files, the O= folder and the make arguments."""
    root: Path         # the pristine tree (read only)
    src: Path          # hard-link copy that gets the patched files
    obj: Path          # O= folder
    make_args: tuple[str, ...] = ()   # ARCH= CROSS_COMPILE= of a cross build (crossbuild)

    @property
    def work(self) -> WorkTree:
        return WorkTree(self.root, self.src)


def build_folder(root: Path, name: str) -> Path:
    """tree.cache_dir()/build/NAME-VERSION, with a hash of root's path for
    a tree other than the default one."""
    folder = f"{name}-{tree.kernel_version(root)}"
    if root.resolve() != (tree.cache_dir() / "src" / tree.SOURCE_PACKAGE).resolve():
        folder += "-" + hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:8]
    return tree.cache_dir() / "build" / folder


def configure_wide(src: Path, obj: Path, base: str, settings: tuple[str, ...] = (),
                   make_args: tuple[str, ...] = (), jobs: int | None = None) -> dict[str, str]:
    """The config target base (allmodconfig, a board's defconfig) in obj,
    relaxed() with settings, olddefconfig; the .config's values."""
    obj.mkdir(parents=True, exist_ok=True)
    quiet_make(src, obj, [base], make_args, jobs)
    config = obj / ".config"
    config.write_text(relaxed(config.read_text(), settings))
    quiet_make(src, obj, ["olddefconfig"], make_args, jobs)
    return read_config(config)


# ---------------------------------------------------------------- a platform's wide build

@dataclass(frozen=True)
class Platform:
    """A wide configuration of one architecture that the object checks
    build with (enotty.verify.crossbuild.PLATFORMS lists them in order)."""
    name: str                      # what SUMMARY.md says: "ok (m68k)"
    arch: str                      # make ARCH=
    srcarch: str                   # arch/<srcarch>/
    cross: str                     # CROSS_COMPILE= ('' for the host gcc)
    package: str                   # the Debian package of that compiler
    base: str                      # the config target: allmodconfig, pmac32_defconfig...
    settings: tuple[str, ...] = ()  # SYMBOL=y|m|n on top of base

    @property
    def label(self) -> str:
        """The architecture and configuration, for a log line."""
        return f"{self.arch} {self.base}" + (f" + {' '.join(self.settings)}" if self.settings else "")

    def make_args(self) -> tuple[str, ...]:
        return (f"ARCH={self.arch}",) + ((f"CROSS_COMPILE={self.cross}",) if self.cross else ())


CONFIGURED = ".enotty-configured"
PREPARED = ".enotty-prepared"


def platform_folder(root: Path, platform: Platform) -> Path:
    """The O= folder of a platform: build/<name>-<version>[-<tree hash>]."""
    return build_folder(root, platform.name.replace(" ", "-"))


def configure_platform(src: Path, obj: Path, platform: Platform, jobs: int | None = None) -> dict[str, str]:
    """The platform's .config in obj (made once): base target, settings,
    WERROR and debug info off (a warning the patch did not cause must not
    fail it; debug info only costs time), olddefconfig."""
    config = obj / ".config"
    if (obj / CONFIGURED).is_file() and config.is_file():
        return read_config(config)
    values = configure_wide(src, obj, platform.base, platform.settings, platform.make_args(), jobs)
    (obj / CONFIGURED).write_text(platform.label + "\n")
    return values


def prepare_platform(src: Path, obj: Path, platform: Platform, jobs: int | None = None,
                     log: TextIO = sys.stderr) -> None:
    """`make prepare modules_prepare` once in the configured folder."""
    if (obj / PREPARED).is_file():
        return
    print(f"enotty: preparing a {platform.label} build in {obj} (once; a minute or two)", file=log)
    quiet_make(src, obj, ["prepare", "modules_prepare"], platform.make_args(), jobs)
    (obj / PREPARED).write_text(platform.label + "\n")
