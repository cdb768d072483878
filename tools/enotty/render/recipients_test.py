"""Whom each mail goes to: get_maintainer.pl asked as b4 asks it, kept by content."""
from __future__ import annotations

import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from . import recipients, series
from .companions import Companions, NewFilesPlan
from ..kernel import tree
from ..measure import compare, generated
from ..partition.maintainers import perl_env

FIXTURE = Path(__file__).parents[1] / "testdata" / "series" / "kernel"
WATCHDOG_DIFF = ("--- a/drivers/watchdog/bar_wdt.c\n+++ b/drivers/watchdog/bar_wdt.c\n"
                 "@@ -15,1 +15,1 @@\n-\t\treturn -EINVAL;\n+\t\treturn -ENOTTY;\n")
WATCHDOG_TO = ("Wim Watchdog <wim@example.org>", "Guenter Review <guenter@example.org>")
needs_script = pytest.mark.skipif(tree.script(FIXTURE, "get_maintainer.pl") is None,
                                  reason="no get_maintainer.pl: the default tree is not unpacked")


@needs_script
def test_maintainers_and_reviewers_are_to_and_lists_cc(tmp_path: Path) -> None:
    patch = tmp_path / "p.patch"
    patch.write_text(WATCHDOG_DIFF)
    to, cc = recipients.recipients(tree.at(FIXTURE), [patch])
    assert to == WATCHDOG_TO
    assert "linux-watchdog@vger.kernel.org" in cc
    assert len(set(cc)) == len(cc) and not set(cc) & set(to)      # nobody twice


@needs_script
def test_address_answers_each_mail_in_order_and_addresses_the_companions() -> None:
    elsewhere = WATCHDOG_DIFF.replace("watchdog/bar_wdt", "char/other")
    test = series.Patch(NewFilesPlan(key="selftest", driver="selftests", section="", added_diff=WATCHDOG_DIFF),
                        "selftests: x", "x\n")
    rule = series.Mail("0001-rule.patch", f"Subject: [PATCH] rule\n\nbody\n---\n{WATCHDOG_DIFF}")
    people, extra = recipients.address(tree.at(FIXTURE), [elsewhere, WATCHDOG_DIFF],
                                       Companions(test, rule))
    assert "Wim Watchdog <wim@example.org>" not in people[0][0]
    assert people[1][0] == WATCHDOG_TO
    assert extra.selftest is not None and extra.selftest.to == people[1][0]   # by its diff
    assert extra.rule is not None and extra.rule.name == rule.name
    assert "\nTo: Wim Watchdog <wim@example.org>,\n    Guenter Review <guenter@example.org>\nCc: " in extra.rule.text


@needs_script
def test_get_maintainer_order_is_the_same_on_every_run(tmp_path: Path) -> None:
    default = tree.script(FIXTURE, "get_maintainer.pl")
    assert default is not None
    root = default.path.parents[1]
    patch = tmp_path / "p.patch"
    # XEN HYPERVISOR INTERFACE and XEN BLOCK SUBSYSTEM match at the same depth:
    # Perl's randomised hash order used to swap them between runs.
    patch.write_text("--- a/drivers/block/xen-blkfront.c\n+++ b/drivers/block/xen-blkfront.c\n"
                     "@@ -1 +1 @@\n-a\n+b\n")
    answers = {recipients.recipients(tree.at(root, use_cache=False), [patch])[0] for _ in range(6)}
    assert len(answers) == 1 and len(next(iter(answers))) >= 2


@needs_script
def test_get_maintainer_answers_are_kept_by_content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = tree.cache_dir() / "src"
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "src").symlink_to(real)     # the default tree's get_maintainer.pl
    monkeypatch.setenv("ENOTTY_CACHE", str(tmp_path / "cache"))
    patch = tmp_path / "p.patch"
    patch.write_text(WATCHDOG_DIFF)
    first = recipients.recipients(tree.at(FIXTURE), [patch])
    assert "Wim Watchdog <wim@example.org>" in first[0]
    monkeypatch.setenv("PATH", str(tmp_path))          # no perl: only the cache can answer
    assert recipients.recipients(tree.at(FIXTURE), [patch]) == first
    patch.write_text(patch.read_text().replace("bar_wdt", "foo_wdt"))
    with pytest.raises(FileNotFoundError):           # new content: perl is asked again
        recipients.recipients(tree.at(FIXTURE), [patch])


def _b4(root: Path, patch: Path, role: str) -> list[str]:
    """get_maintainer.pl as b4 runs it, one role a run (with our fixed
    hash seed: Perl's hash order may swap sections that match alike)."""
    res = subprocess.run(["perl", "scripts/get_maintainer.pl", "--nogit", "--nogit-fallback",
                          "--nogit-chief-penguins", "--norolestats", role, str(patch)],
                         cwd=root, env=perl_env(), capture_output=True, text=True, check=True)
    return [ln.strip() for ln in res.stdout.splitlines() if ln.strip()]


@pytest.mark.parametrize("output", generated.committed_outputs(), ids=lambda p: p.name)
def test_one_run_with_roles_answers_what_b4s_two_runs_do(output: Path) -> None:
    """Every committed patch, on the tree its output was made from: To is
    b4's --nol answer, Cc its --nom answer without the people in To, and
    the lists that b4 drops because get_maintainer.pl prints them without
    an address (an empty line: `L: The AWS Nitro Enclaves Team <...>`)."""
    made_from = compare.cached_tree(compare.read_output(output))
    if made_from is None or not (made_from / "scripts" / "get_maintainer.pl").is_file():
        pytest.skip(f"the tree of {output.name} is not unpacked")
    root: Path = made_from
    patches = sorted(p for p in output.glob("*/0*.patch") if not p.name.startswith("0000-"))
    assert len(patches) > 100

    def both(patch: Path) -> tuple[recipients.People, recipients.People]:
        to = _b4(root, patch, "--nol")
        seen = {p.lower() for p in to}
        cc = [p for p in _b4(root, patch, "--nom") if p.lower() not in seen]
        return recipients.recipients(tree.at(root, use_cache=False), [patch]), (tuple(to), tuple(cc))

    named = {v for lists in recipients._named_lists(root / "MAINTAINERS").values() for v in lists}
    recovered = 0
    with ThreadPoolExecutor(max_workers=2) as pool:
        for patch, (ours, b4s) in zip(patches, pool.map(both, patches)):
            extra = [c for c in ours[1] if c not in b4s[1]]
            assert set(extra) <= named, patch.name
            assert (ours[0], tuple(c for c in ours[1] if c not in extra)) == b4s, patch.name
            recovered += len(extra)
    # the NSM patch's Nitro Enclaves list, where that tree's MAINTAINERS
    # writes it as a name before its address (6.12; 7.2 writes the address)
    if (any("+++ b/drivers/misc/nsm.c\n" in p.read_text() for p in patches)
            and any("aws-nitro-enclaves-devel" in v for v in named)):
        assert recovered >= 1


def test_roles_split_a_person_from_roles_with_parentheses() -> None:
    assert recipients._role("Julia Lawall <j@l.fr> (supporter:COCCINELLE/Semantic Patches (SmPL))") == \
        ("Julia Lawall <j@l.fr>", "supporter")
    assert recipients._role("cocci@inria.fr (moderated list:COCCINELLE/Semantic Patches (SmPL))") == \
        ("cocci@inria.fr", "moderated list")
    # MAINTAINERS' "L: The AWS Nitro Enclaves Team <...>" (NSM) prints no address
    assert recipients._role("(open list:NITRO SECURE MODULE (NSM))") == ("", "open list")


def test_a_list_written_as_a_name_before_its_address_is_kept(tmp_path: Path) -> None:
    # get_maintainer.pl prints only the roles of `L: The X Team <x@y>`
    maintainers = tmp_path / "MAINTAINERS"
    maintainers.write_text("NITRO SECURE MODULE (NSM)\nM:\tA Graf <graf@amazon.com>\nL:\tlinux-kernel@vger.kernel.org\n"
                           "L:\tThe AWS Nitro Enclaves Team <aws-nitro-enclaves-devel@amazon.com>\n"
                           "F:\tdrivers/misc/nsm.c\n")
    lines = ["A Graf <graf@amazon.com> (supporter:NITRO SECURE MODULE (NSM))",
             "linux-kernel@vger.kernel.org (open list:NITRO SECURE MODULE (NSM))",
             "(open list:NITRO SECURE MODULE (NSM))"]
    assert recipients.entries(lines, maintainers) == [
        ("A Graf <graf@amazon.com>", "supporter"), ("linux-kernel@vger.kernel.org", "open list"),
        ("The AWS Nitro Enclaves Team <aws-nitro-enclaves-devel@amazon.com>", "open list")]
