"""crossbuild: build needs, platform choice, files no configuration builds, missing
compilers, and a real m68k build (behind ENOTTY_QUICK)."""
from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path
from typing import Any, cast

import pytest

from . import crossbuild, verify
from .. import packages
from . import verdicts
from ..kernel import build as kbuild, kconfig, tree
from ..errors import UsageError

DEFAULT = tree.cache_dir() / "src" / tree.PINNED_PACKAGE
QUICK = os.environ.get("ENOTTY_QUICK") == "1"


def test_build_needs_are_met_by_every_symbol_or_any_one_of_them() -> None:
    amiga = {"CONFIG_AMIGA": "y", "CONFIG_AMIGA_FLOPPY": "m", "CONFIG_BLK_DEV_FD": "m"}
    assert kbuild.BuildNeeds(("CONFIG_AMIGA_FLOPPY",), True).met_by(amiga)
    # every symbol, not one of them; "n" and a string are not set
    assert not kbuild.BuildNeeds(("CONFIG_AMIGA_FLOPPY", "CONFIG_PCI"), True).met_by(amiga)
    assert kbuild.BuildNeeds(("CONFIG_AMIGA_FLOPPY", "CONFIG_PCI"), False).met_by(amiga)
    assert not kbuild.BuildNeeds(("CONFIG_X",), True).met_by({"CONFIG_X": "n"})
    assert not kbuild.BuildNeeds(("CONFIG_X",), True).met_by({"CONFIG_X": '"y"'})


def test_a_file_under_arch_goes_to_its_own_architecture_only() -> None:
    assert {p.srcarch for p in crossbuild.candidates("arch/sparc/kernel/apc.c")} == {"sparc"}
    assert {p.name for p in crossbuild.candidates("arch/um/drivers/ubd_kern.c")} == {"um"}
    assert len(crossbuild.candidates("drivers/block/amiflop.c")) == len(crossbuild.PLATFORMS)


def _kernel(tmp_path: Path) -> Path:
    root = tmp_path / "linux"
    files = {
        "Kconfig": 'source "drivers/Kconfig"\nsource "arch/$(SRCARCH)/Kconfig"\nconfig BROKEN\n\tbool\n',
        "arch/x86/Kconfig": "config X86\n\tdef_bool y\n",
        "arch/m68k/Kconfig": 'config AMIGA\n\tbool "Amiga"\n',
        "drivers/Kconfig": 'source "drivers/d/Kconfig"\n',
        "drivers/Makefile": "obj-$(CONFIG_D) += d/\n",
        "drivers/d/Kconfig": (
            'config D\n\tbool "d"\n'
            'config OLD\n\ttristate "old"\n\tdepends on D && DEPRECATED\n'
            'config WIP\n\ttristate "wip"\n\tdepends on BROKEN || DEPRECATED\n'
            'config ALT\n\ttristate "alt"\n\tdepends on BROKEN || D\n'
            'config AMI\n\ttristate "ami"\n\tdepends on AMIGA\n'
            'config ON_OLD\n\ttristate "on old"\n\tdepends on OLD\n'),
        "drivers/d/Makefile": ("obj-$(CONFIG_OLD) += old.o\nobj-$(CONFIG_WIP) += wip.o\n"
                               "obj-$(CONFIG_ALT) += alt.o\nobj-$(CONFIG_AMI) += ami.o\n"
                               "obj-$(CONFIG_ON_OLD) += mod.o\nmod-y := part.o\n"),
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_unbuildable_names_broken_and_undefined_dependencies(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    root = _kernel(tmp_path)
    monkeypatch.setattr(tree, "kernel_version", lambda r: "6.12.1")
    nowhere = kconfig.Unbuildable(root)
    assert nowhere.reason("drivers/d/old.c") == (
        "no configuration of any architecture compiles it (CONFIG_OLD depends on DEPRECATED, which no Kconfig defines in 6.12.1)")
    # both branches of an || blocked: blocked (the first branch named)
    assert nowhere.reason("drivers/d/wip.c") == "no configuration of any architecture compiles it (CONFIG_WIP depends on BROKEN in 6.12.1)"
    # one branch open: buildable
    assert nowhere.reason("drivers/d/alt.c") == ""
    # another architecture's symbol (not in the x86 reading) is defined: buildable
    assert nowhere.reason("drivers/d/ami.c") == ""
    # through a composite object and a dependency's dependency
    assert nowhere.reason("drivers/d/part.c") == (
        "no configuration of any architecture compiles it (CONFIG_OLD depends on DEPRECATED, which no Kconfig defines in 6.12.1)")
    # no kbuild line (cannot tell) and a header: not called unbuildable
    assert nowhere.reason("drivers/d/none.c") == "" and nowhere.reason("drivers/d/x.h") == ""


@pytest.mark.parametrize("exit_code, c_code", [(0, "int x;\n"), (1, "int x;\n"),
                                               (1, "#ifdef CONFIG_RS\nint x;\n#endif\n")])
def test_rust_code_is_unbuildable_here_when_the_trees_toolchain_probe_fails(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exit_code: int, c_code: str) -> None:
    # 7.2's rust_binderfs.c: buildable where rustc and bindgen are new
    # enough, so the reason says "on this machine", not "any architecture";
    # a C file that does not test the symbols is built with them given to
    # make instead (toolchain_only)
    root = _kernel(tmp_path)
    (root / "drivers/d/rs.c").write_text(c_code)
    with open(root / "drivers/d/Kconfig", "a") as f:
        f.write('config RUST_IS_AVAILABLE\n\tdef_bool $(success,$(srctree)/scripts/rust_is_available.sh)\n'
                'config RUST\n\tbool "rust"\n\tdepends on RUST_IS_AVAILABLE\n'
                'config RS\n\ttristate "rs"\n\tdepends on RUST && D\n')
    with open(root / "drivers/d/Makefile", "a") as f:
        f.write("obj-$(CONFIG_RS) += rs.o\n")
    (root / "scripts").mkdir()
    (root / "scripts" / "rust_is_available.sh").write_text(f"exit {exit_code}\n")
    monkeypatch.setattr(tree, "kernel_version", lambda r: "7.2.1")
    nowhere = kconfig.Unbuildable(root)
    why, forced = nowhere.reason("drivers/d/rs.c"), nowhere.toolchain_only("drivers/d/rs.c")
    if exit_code and "CONFIG_RS" in c_code:
        assert why == ("no configuration compiles it on this machine (CONFIG_RUST needs a Rust"
                       " toolchain: scripts/rust_is_available.sh fails)")
        assert forced == ()
    elif exit_code:
        assert why == "" and set(forced) == {"CONFIG_RS", "CONFIG_D"}   # D: kbuild descends by it
    else:
        assert why == "" and forced == ()
    # a file that is not blocked by the toolchain is never forced
    assert nowhere.toolchain_only("drivers/d/alt.c") == ()


def test_a_missing_cross_compiler_without_root_is_one_usage_line(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[list[str]] = []

    def fake_query(cmd: list[str], **kw: object) -> object:
        asked.append(cmd)
        # the host gcc (i386) is there, m68k's is not (dpkg-query exits 1)
        installed = [p for p in cmd[3:] if p != "gcc-m68k-linux-gnu"]
        return type("R", (), {"returncode": 0 if installed == cmd[3:] else 1,
                              "stdout": "".join(f"{p}\tinstall ok installed\n" for p in installed)})()

    monkeypatch.setattr(packages.subprocess, "run", fake_query)
    monkeypatch.setattr(packages.os, "geteuid", lambda: 1000)
    m68k = next(p for p in crossbuild.PLATFORMS if p.name == "m68k")
    i386 = next(p for p in crossbuild.PLATFORMS if p.name == "i386")
    crossbuild.ensure_compilers([i386])          # installed: nothing to say
    with pytest.raises(UsageError) as err:
        crossbuild.ensure_compilers([m68k, i386])
    msg = str(err.value)
    assert "\n" not in msg and "apt-get install -y --no-install-recommends gcc-m68k-linux-gnu" in msg
    assert "gcc " not in msg.split("run as root:")[1] + " "
    assert ["dpkg-query", "-W", "-f=${Package}\t${Status}\n", "gcc", "gcc-m68k-linux-gnu"] in asked


def test_a_missing_compiler_as_root_is_installed_and_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    ran: list[list[str]] = []
    state = {"installed": False}

    def fake_run(cmd: list[str], **kw: object) -> object:
        ran.append(cmd)
        if cmd[0] == "apt-get" and cmd[1] == "install":
            state["installed"] = True
        ok = cmd[0] != "dpkg-query" or state["installed"]
        listed = "".join(f"{p}\tinstall ok installed\n" for p in cmd[3:]) if cmd[0] == "dpkg-query" else ""
        return type("R", (), {"returncode": 0 if ok else 1, "stdout": listed if ok else ""})()

    monkeypatch.setattr(packages.subprocess, "run", fake_run)
    monkeypatch.setattr(packages.os, "geteuid", lambda: 0)
    packages.ensure_packages(["gcc-s390x-linux-gnu"], "cross compilers for s390")
    assert ["apt-get", "install", "-y", "--no-install-recommends", "gcc-s390x-linux-gnu", "--no-remove"] in ran
    # apt-get "succeeds" but the package is still missing: one line, not a traceback later
    state["installed"] = False
    monkeypatch.setattr(packages.subprocess, "run",
                        lambda cmd, **kw: type("R", (), {"returncode": 1 if cmd[0] == "dpkg-query" else 0,
                                                         "stdout": ""})())
    with pytest.raises(UsageError, match="did not install gcc-s390x-linux-gnu"):
        packages.ensure_packages(["gcc-s390x-linux-gnu"], "cross compilers for s390")


def test_a_failed_cross_build_rejects_the_patch_with_the_compiler_line() -> None:
    v = verdicts.Verdict(cast(Any, None), verify.Check(verify.OK), verify.Check(verify.OK), build={
        "drivers/block/amiflop.c": verify.Check(verify.FAILED, "drivers/block/amiflop.c:9: error: x", "m68k"),
        "drivers/block/floppy.c": verify.Check(verify.OK, "", "x86_64")})
    assert v.rejected == "build: drivers/block/amiflop.c (m68k): drivers/block/amiflop.c:9: error: x"
    assert v.build_cell() == "1 failed (m68k), 1 ok (x86_64)"
    v = dataclasses.replace(v, build={"drivers/block/amiflop.c": verify.Check(verify.OK, "", "m68k"),
               "drivers/block/floppy.c": verify.Check(verify.OK, "", "x86_64"),
               "drivers/block/x.h": verify.Check(verify.SKIPPED, "header")})
    assert v.rejected == "" and v.build_cell() == "1 ok (m68k), 1 ok (x86_64), 1 skipped"


@pytest.mark.skipif(QUICK, reason="ENOTTY_QUICK=1: the real m68k cross build left out")
@pytest.mark.skipif(not DEFAULT.is_dir(), reason="no default tree")
def test_REAL_CROSS_BUILD_m68k_builds_a_patched_file_and_rejects_a_broken_one() -> None:
    # The first run configures and prepares the m68k allmodconfig folder
    # (a few minutes, once); later runs reuse it.
    if packages.missing(["gcc-m68k-linux-gnu"]):
        pytest.skip("gcc-m68k-linux-gnu is not installed")
    rel = "drivers/block/amiflop.c"
    pristine = (DEFAULT / rel).read_bytes()
    good = pristine.replace(b"return -EINVAL;", b"return -ENOTTY;", 1)
    broken = pristine + b"\nint enotty_broken(void) { return undeclared_thing; }\n"
    needs = {rel: kconfig.build_needs(DEFAULT, rel)}
    store = verify.ResultCache(tree_id=tree.at(DEFAULT).cache_key)
    got = crossbuild.build(tree.at(DEFAULT, use_cache=False), {rel: good}, needs, store)
    assert got[rel] == verify.Check(verify.OK, "", "m68k")
    got = crossbuild.build(tree.at(DEFAULT, use_cache=False), {rel: broken}, needs, store)
    assert got[rel].status == verify.FAILED and got[rel].arch == "m68k"
    assert "undeclared_thing" in got[rel].detail
    assert (DEFAULT / rel).read_bytes() == pristine
    obj = kbuild.platform_folder(DEFAULT, next(p for p in crossbuild.PLATFORMS if p.name == "m68k")) / (rel[:-2] + ".o")
    obj.unlink(missing_ok=True)
    assert crossbuild.build(tree.at(DEFAULT), {rel: good}, needs, store)[rel] == verify.Check(verify.OK, "", "m68k")
    assert not obj.exists(), "a cached verdict compiled the file again"


@pytest.mark.skipif(QUICK, reason="ENOTTY_QUICK=1: the real m68k cross build left out")
@pytest.mark.skipif(not DEFAULT.is_dir(), reason="no default tree")
def test_REAL_kbuild_says_which_files_m68k_allmodconfig_compiles() -> None:
    """kbuild's own membership (the probe of enabled_sources): a file of an
    enabled folder that its Makefile enables (amiflop) or leaves out
    (sunvdc), a folder its parents leave out (drivers/sbus), a composite
    module's part (snd-pcm-oss-y := pcm_oss.o), and a bool that needs FB=y
    (atafb, through the platform's settings)."""
    if packages.missing(["gcc-m68k-linux-gnu"]):
        pytest.skip("gcc-m68k-linux-gnu is not installed")
    m68k = next(p for p in crossbuild.PLATFORMS if p.name == "m68k")
    pt = kbuild.platform_tree(kbuild.build_tree(DEFAULT), m68k)
    kbuild.configure_platform(pt, m68k)
    kbuild.prepare_platform(pt, m68k)
    files = ["drivers/block/amiflop.c", "drivers/block/sunvdc.c", "drivers/sbus/char/openprom.c",
             "sound/core/oss/pcm_oss.c", "drivers/video/fbdev/atafb.c"]
    assert kbuild.enabled_sources(pt, files, srcarch="m68k") == {
        "drivers/block/amiflop.c", "sound/core/oss/pcm_oss.c", "drivers/video/fbdev/atafb.c"}


def test_cross_builds_pick_configure_lazily_and_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The flow around the build (the build itself: the REAL test)."""
    monkeypatch.setenv("ENOTTY_CACHE", str(tmp_path / "cache"))
    root = _kernel(tmp_path)
    (root / "Makefile").write_text("VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 1\n")
    if kbuild.can_build(root):
        pytest.skip(kbuild.can_build(root))
    monkeypatch.setattr(tree, "kernel_version", lambda r: "6.12.1")
    configured: list[str] = []
    built: list[tuple[str, list[str]]] = []
    # x86_64 builds neither; i386 sets AMI but its dry run does not compile ami.c: the next platform
    sets = {"i386": {"CONFIG_D": "y", "CONFIG_AMI": "m"}, "m68k": {"CONFIG_D": "y", "CONFIG_AMI": "m", "CONFIG_AMIGA": "y"}}

    prepared: list[str] = []

    def fake_configure(bt: kbuild.BuildTree, platform: kbuild.Platform, jobs: object = None) -> dict[str, str]:
        with kbuild.folder_lock(bt.obj):       # as the real one: the ahead thread configures too
            if (bt.obj / ".config").is_file():      # made once (check_objects asks again)
                return kbuild.read_config(bt.obj / ".config")
            configured.append(platform.name)
            bt.obj.mkdir(parents=True, exist_ok=True)
            values = sets.get(platform.name, {})
            (bt.obj / ".config").write_text("".join(f"{k}={v}\n" for k, v in values.items()))
            return values

    def fake_prepare(bt: kbuild.BuildTree, platform: kbuild.Platform, *args: object) -> None:
        with kbuild.folder_lock(bt.obj):
            if platform.name not in prepared:
                prepared.append(platform.name)

    def fake_build_on(bt: kbuild.BuildTree, patched: dict[str, bytes], sources: list[str], jobs: object,
                      arch: str, srcarch: str = "x86") -> dict[str, verify.Check]:
        built.append((arch, sorted(sources)))
        assert bt.make_args[:1] == ((f"ARCH={arch}",) if arch != "x86_64" else ())
        if arch in ("x86_64", "i386"):
            return {rel: verify.Check(verify.NOT_BUILT, "not in x86_64 allmodconfig") for rel in sources}
        return {rel: verify.Check(verify.OK, "", arch) for rel in sources}

    monkeypatch.setattr(kbuild, "configure_platform", fake_configure)
    monkeypatch.setattr(kbuild, "prepare_platform", fake_prepare)
    monkeypatch.setattr(crossbuild, "ensure_compilers", lambda *a, **k: None)
    monkeypatch.setattr(kbuild, "build_on", fake_build_on)
    patched = {"drivers/d/ami.c": b"int a;\n", "drivers/d/alt.c": b"int b;\n"}
    needs = {rel: kconfig.build_needs(root, rel) for rel in patched}
    store = verify.ResultCache(tree_id="tree")
    got = crossbuild.build(tree.at(root), patched, needs, store)
    assert got["drivers/d/ami.c"] == verify.Check(verify.OK, "", "m68k")
    assert got["drivers/d/alt.c"].status == verify.NOT_BUILT
    assert got["drivers/d/alt.c"].detail == "no platform here sets CONFIG_ALT"
    # each configured once; ALT, which no platform sets, has them all configured
    assert sorted(configured) == sorted(["x86_64"] + [p.name for p in crossbuild.PLATFORMS])
    # prepared: i386 (its .config sets AMI), m68k (i386's dry run said no) and x86_64
    assert sorted(prepared) == ["i386", "m68k", "x86_64"]
    # the guess made ahead: x86_64's .config sets neither AMI nor ALT, so
    # the first platform that sets AMI is prepared; none sets ALT
    prepared.clear()
    monkeypatch.setattr(crossbuild.packages, "missing", lambda wanted: [])
    bt = kbuild.build_tree(root)
    def guess(use_cache: bool) -> None:
        with crossbuild._Ahead(bt, patched, needs, store, use_cache, sys.stderr) as ahead:
            ahead.start(sorted(patched))
            ahead.guessing.shutdown(wait=True)     # leaving stops a guess not yet done
            ahead.preparing.shutdown(wait=True)

    guess(use_cache=False)
    assert prepared == ["i386"]
    # with every verdict cached, nothing is prepared ahead
    prepared.clear()
    guess(use_cache=True)
    assert prepared == []
    # nor past a platform whose compiler is missing (build() installs it or says how)
    monkeypatch.setattr(crossbuild.packages, "missing", lambda wanted: wanted)
    guess(use_cache=False)
    assert prepared == []
    assert built == [("x86_64", ["drivers/d/alt.c", "drivers/d/ami.c"]), ("i386", ["drivers/d/ami.c"]),
                     ("m68k", ["drivers/d/ami.c"])]
    # x86_64 alone: its own verdict
    assert crossbuild.build(tree.at(root), patched, needs, store, cross=False)["drivers/d/ami.c"].status == \
        verify.NOT_BUILT
    # again: every verdict from the cache, i386's "not built" too: nothing built
    again = crossbuild.build(tree.at(root), {"drivers/d/ami.c": b"int a;\n"}, needs, store)
    assert again["drivers/d/ami.c"] == verify.Check(verify.OK, "", "m68k") and built[3:] == []
    # without the cache: built again on all three
    crossbuild.build(tree.at(root, use_cache=False), {"drivers/d/ami.c": b"int a;\n"}, needs, store)
    assert [arch for arch, _ in built[3:]] == ["x86_64", "i386", "m68k"]


def test_build_needs_without_and_with_a_kbuild_line(tmp_path: Path) -> None:
    root = _kernel(tmp_path)
    # the object's own line (not the folder's: several lines may descend into one folder)
    assert kconfig.build_needs(root, "drivers/d/ami.c") == kbuild.BuildNeeds(("CONFIG_AMI",), True)
    assert kconfig.build_needs(root, "drivers/d/part.c") == kbuild.BuildNeeds(("CONFIG_ON_OLD",), True)
    # named through a make variable (omapfb-objs := $(objs-yy)): any obj- symbol of the folder
    assert kconfig.build_needs(root, "drivers/d/hidden.c") == kbuild.BuildNeeds(
        ("CONFIG_ALT", "CONFIG_AMI", "CONFIG_OLD", "CONFIG_ON_OLD", "CONFIG_WIP"), False)


def test_make_patches_installs_every_cross_compiler_in_its_one_apt_run() -> None:
    """A fresh machine's make patches asks apt once: every platform's
    compiler is in its package set (enotty.packages)."""
    from .. import packages
    wanted = {p.package for p in crossbuild.PLATFORMS if p.package != "gcc"}
    assert wanted <= set(packages.NEEDS["patches"])


def test_a_patched_header_is_built_through_the_c_files_beside_it_that_include_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """7.2's tun_vnet.h: built through tun.c and tap.c (pristine, the
    patched header in place); other.c, which does not include it, is not built."""
    folder = tmp_path / "drivers/net"
    folder.mkdir(parents=True)
    (folder / "tun_vnet.h").write_text("static inline long tun_vnet_ioctl(void) { return -EINVAL; }\n")
    for name, include in (("tun.c", '"tun_vnet.h"'), ("tap.c", '"tun_vnet.h"'), ("other.c", "<linux/fs.h>")):
        (folder / name).write_text(f"#include {include}\nint {name[:-2]};\n")
    given: dict[str, bytes] = {}

    def fake_build_files(kernel: object, patched: dict[str, bytes], *rest: object) -> dict[str, verify.Check]:
        given.update(patched)
        return {rel: verify.Check(verify.OK, "", "x86_64") if rel != "drivers/net/tap.c" else
                verify.Check(verify.NOT_BUILT, "not in x86_64 allmodconfig") for rel in patched if rel.endswith(".c")}

    monkeypatch.setattr(crossbuild, "_build_files", fake_build_files)
    header = {"drivers/net/tun_vnet.h": b"static inline long tun_vnet_ioctl(void) { return -ENOTTY; }\n"}
    got = crossbuild.build(tree.at(tmp_path), header, {}, verify.ResultCache(tree_id="t"))
    assert got == {"drivers/net/tun_vnet.h": verify.Check(verify.OK, "built through drivers/net/tun.c", "x86_64")}
    assert given == {**header, "drivers/net/tap.c": (folder / "tap.c").read_bytes(),
                     "drivers/net/tun.c": (folder / "tun.c").read_bytes()}


def test_a_header_whose_users_all_fail_or_are_not_built_says_so() -> None:
    users = ["d/a.c", "d/b.c"]
    failed = crossbuild.through_users(users, {"d/a.c": verify.Check(verify.NOT_BUILT, "no"),
                                              "d/b.c": verify.Check(verify.FAILED, "b.c:3: error", "m68k")})
    assert failed == verify.Check(verify.FAILED, "d/b.c: b.c:3: error", "m68k")
    assert crossbuild.through_users(users, {}).status == verify.NOT_BUILT


def test_a_configuration_is_named_with_what_the_build_set_on_top() -> None:
    """A reviewer: "m68k allmodconfig" in a cover letter does not compile
    atafb.c; the build set FB=y FB_ATARI=y on top, and the name says so."""
    assert crossbuild.config_name("m68k") == "m68k allmodconfig + FB=y FB_ATARI=y"
    assert crossbuild.config_name("x86_64") == "x86_64 allmodconfig"
    assert crossbuild.config_name("sparc64") == "sparc64 allmodconfig"


def test_the_early_prepare_holds_the_copy_until_x86_64_is_prepared(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # build() takes the copy's lock too: it starts once the early prepare is done
    import contextlib
    import threading
    order: list[str] = []
    lock = threading.Lock()

    class Work:
        @contextlib.contextmanager
        def locked(self):
            with lock:
                yield self

        def ensure(self) -> bool:
            return False

    bt = kbuild.BuildTree(tmp_path, tmp_path / "src", tmp_path / "obj")
    monkeypatch.setattr(kbuild.BuildTree, "work", property(lambda self: Work()))
    monkeypatch.setattr(kbuild, "can_build", lambda root: "")
    monkeypatch.setattr(kbuild, "build_tree", lambda root: bt)
    monkeypatch.setattr(packages, "ensure_packages", lambda *a, **k: None)
    release = threading.Event()
    def configure(b: object, p: kbuild.Platform, *a: object) -> None:
        order.append(f"configure {p.name}")

    def prepare(b: object, p: kbuild.Platform, *a: object) -> None:
        release.wait(5)
        order.append(f"prepare {p.name}")

    monkeypatch.setattr(kbuild, "configure_platform", configure)
    monkeypatch.setattr(kbuild, "prepare_platform", prepare)
    monkeypatch.setattr(crossbuild.companions, "takes_selftest", lambda root: False)
    kernel = cast(Any, dataclasses.make_dataclass("K", ["root"])(tmp_path))
    early = crossbuild.EarlyPrepare(kernel)
    assert lock.locked()
    release.set()
    with lock:
        order.append("build")
    early.join()
    assert order == ["configure x86_64", "prepare x86_64", "build"]
