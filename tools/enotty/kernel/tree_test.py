"""Tests for finding, unpacking and checking kernel trees."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from . import tree
from ..errors import UsageError


def make_kernel(root: Path, sublevel: int = 118) -> Path:
    (root / "drivers").mkdir(parents=True)
    (root / "MAINTAINERS").write_text("")
    (root / "Makefile").write_text(
        f"# SPDX\nVERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = {sublevel}\nEXTRAVERSION =\n")
    (root / "drivers" / "a.c").write_text("int x;\n")
    return root


def test_resolve_accepts_a_kernel_tree(tmp_path: Path) -> None:
    root = make_kernel(tmp_path / "linux")
    assert tree.resolve(str(root), need_kernel=True) == root.resolve()
    assert tree.resolve(str(root), "drivers") == root.resolve()


@pytest.mark.parametrize("case, message", [
    ("missing", "is not a directory"),
    ("no-c-files", "holds no C files"),
    ("not-kernel", "is not a kernel tree"),
    ("bad-subdir", "is not a directory under"),
])
def test_resolve_rejects_bad_input(tmp_path: Path, case: str, message: str) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "x.c").write_text("int x;\n")
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "README").write_text("no code\n")
    args = {
        "missing": (str(tmp_path / "nope"), None, False),
        "no-c-files": (str(empty), None, False),
        "not-kernel": (str(plain), None, True),
        "bad-subdir": (str(plain), "drivers", False),
    }[case]
    with pytest.raises(UsageError, match=message):
        tree.resolve(*args)


def test_plain_directory_of_c_files_is_enough_without_need_kernel(tmp_path: Path) -> None:
    (tmp_path / "m.c").write_text("int x;\n")
    assert tree.resolve(str(tmp_path)) == tmp_path.resolve()


def test_kernel_version(tmp_path: Path) -> None:
    assert tree.kernel_version(make_kernel(tmp_path / "k", 7)) == "6.12.7"
    assert tree.kernel_version(tmp_path) == "unknown"


def test_pinned_tree_unpacks_once_and_reuses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = make_kernel(tmp_path / "pkg" / "linux-source-6.12")
    tarball = tmp_path / "linux-source-6.12.tar.xz"
    subprocess.run(["tar", "-cJf", str(tarball), "-C", str(src.parent), src.name], check=True)
    monkeypatch.setenv("ENOTTY_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(tree.packages, "missing", lambda pkgs: [])
    calls: list[int] = []

    def fake_tarball() -> Path:
        calls.append(1)
        return tarball

    monkeypatch.setattr(tree, "source_tarball", fake_tarball)
    monkeypatch.setattr(tree.debian, "newest", lambda state: pytest.fail("KVER=6.12 asks apt nothing"))
    first = tree.default_tree("6.12")
    assert first == tmp_path / "cache" / "src" / "linux-source-6.12"
    assert tree.kernel_version(first) == "6.12.118"
    assert tree.default_tree("6.12") == first
    assert len(calls) == 1, "the second call must reuse the unpacked tree"
    leftovers = [p.name for p in first.parent.iterdir() if p.name.startswith(".unpack-")]
    assert leftovers == []


def test_cache_dir_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ENOTTY_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert tree.cache_dir() == (tmp_path / "enotty").resolve()
    monkeypatch.setenv("ENOTTY_CACHE", str(tmp_path / "elsewhere"))
    assert tree.cache_dir() == (tmp_path / "elsewhere").resolve()


@pytest.mark.parametrize("variable", ["XDG_CACHE_HOME", "HOME"])
def test_default_tree_through_a_symlinked_cache_accepts_a_subdir(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str) -> None:
    """The cache on another disk, reached through a symbolic link: M= on
    the default tree must load, not be called outside the tree."""
    disk = tmp_path / "disk"
    cache_root = disk / ".cache" if variable == "HOME" else disk
    make_kernel(cache_root / "enotty" / "src" / "linux-source-6.12")
    link = tmp_path / "link"
    link.symlink_to(disk, target_is_directory=True)
    monkeypatch.delenv("ENOTTY_CACHE", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv(variable, str(link))
    monkeypatch.setattr(tree, "source_tarball", lambda: pytest.fail("the fake tree must not be unpacked"))
    real = (cache_root / "enotty").resolve()
    assert tree.cache_dir() == real
    kernel = tree.load(None, "drivers", need_kernel=True, kver="6.12")
    assert kernel.root == real / "src" / "linux-source-6.12"
    assert kernel.version == "6.12.118"
    assert (kernel.kdir, kernel.kver) == (None, "6.12")
    with pytest.raises(UsageError, match="is outside"):
        tree.load(None, "../../..", kver="6.12")


def fake_debian(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, served: list[str]) -> list[str]:
    """apt replaced: the index lists linux-source-7.2 at served[0]; a
    download builds that version's tarball.  Returns the downloads made."""
    downloads: list[str] = []

    def download(package: tree.debian.Package, state: Path, into: Path) -> Path:
        downloads.append(package.version)
        src = make_kernel(into / "pkg" / package.name, int(package.version.split(".")[2].split("-")[0]))
        text = (src / "Makefile").read_text().replace("= 6\n", "= 7\n").replace("= 12\n", "= 2\n")
        (src / "Makefile").write_text(text)
        tarball = into / f"{package.name}.tar.xz"
        subprocess.run(["tar", "-cJf", str(tarball), "-C", str(src.parent), src.name], check=True)
        return tarball

    monkeypatch.setenv("ENOTTY_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(tree.packages, "ensure_packages", lambda wanted, why: None)
    monkeypatch.setattr(tree.debian, "refresh_index", lambda state: True)
    monkeypatch.setattr(tree.debian, "newest", lambda state: tree.debian.Package("linux-source-7.2", served[0]))
    monkeypatch.setattr(tree.debian, "download", download)
    return downloads


def test_newest_tree_is_fetched_once_per_debian_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    served = ["7.2.13-1"]
    downloads = fake_debian(monkeypatch, tmp_path, served)
    first = tree.default_tree()
    assert first.name == "linux-source-7.2_7.2.13-1" and tree.kernel_version(first) == "7.2.13"
    assert tree.default_tree() == first and downloads == ["7.2.13-1"]
    served[0] = "7.2.14-1"      # unstable moved on: a new folder, the old one kept
    second = tree.default_tree()
    assert tree.kernel_version(second) == "7.2.14" and first.is_dir()
    assert tree.load(None).kver == "newest"
    assert tree.for_version("7.2.13") == first, "an older version still in the cache answers"


def test_newest_tree_offline_uses_the_cache_or_says_what_to_do(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    downloads = fake_debian(monkeypatch, tmp_path, ["7.2.13-1"])

    def offline(state: Path) -> tree.debian.Package:
        raise tree.debian.FetchError("apt-get update of Debian sid: Could not resolve 'deb.debian.org'")

    monkeypatch.setattr(tree.debian, "newest", offline)
    with pytest.raises(UsageError, match="KVER=6.12 uses Debian 12's linux-source-6.12, KDIR=DIR") as err:
        tree.default_tree()
    assert "\n" not in str(err.value) and "Could not resolve" in str(err.value)
    cached = make_kernel(tmp_path / "cache" / "src" / "linux-source-7.2_7.2.13-1")
    assert tree.default_tree() == cached and downloads == []
    assert "using linux-source-7.2_7.2.13-1 from the cache" in capsys.readouterr().err


def test_kver_and_kdir_are_checked(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="KVER=7.3: the Debian trees are newest and 6.12"):
        tree.default_tree("7.3")
    with pytest.raises(UsageError, match="give one"):
        tree.resolve(str(make_kernel(tmp_path / "k")), kver="6.12")


def test_mirror_is_the_machines_debian_uri(tmp_path: Path) -> None:
    (tmp_path / "debian.sources").write_text(
        "Types: deb\nURIs: http://mirror.example/debian/\nSuites: bookworm\n")
    (tmp_path / "other.list").write_text("deb http://ppa.example/ubuntu jammy main\n")
    assert tree.debian.mirror((tmp_path,)) == "http://mirror.example/debian"
    assert tree.debian.mirror((tmp_path / "none.list",)) == tree.debian.FALLBACK_MIRROR
