"""kselftest_search on Debian 12's 6.12 tree, and on the tree of each
committed output against its series and kselftests.tsv: every kselftest
that exercises an audited file has a row."""
from pathlib import Path

import pytest

from enotty.audit import series_claims
from enotty.audit import table
from enotty.audit import kselftest_search
from enotty.audit import kselftests
from enotty.measure import compare, generated

TREE = Path.home() / ".cache" / "enotty" / "src" / "linux-source-6.12"


@pytest.fixture(scope="module")
def found():
    if not (TREE / kselftest_search.SELFTESTS).is_dir():
        pytest.skip("the 6.12 tree is not unpacked (python3 -m enotty.kernel.tree 6.12)")
    sources = ["fs/userfaultfd.c", "drivers/net/tun.c", "lib/test_hmm.c", "mm/gup_test.c",
               "kernel/dma/map_benchmark.c", "fs/proc/task_mmu.c", "drivers/block/floppy.c",
               "fs/eventpoll.c"]
    return kselftest_search.search(TREE, sources)


def candidate_tests(found, source):
    return {c.test for c in found[source]}


def test_found_by_uapi_header_ioctl_name_and_node(found):
    assert "mm/uffd-unit-tests.c" in candidate_tests(found, "fs/userfaultfd.c")
    tun = {c.test: c.why for c in found["drivers/net/tun.c"]}
    assert "opens /dev/net/tun" in tun["net/tun.c"]
    assert "includes linux/if_tun.h" in tun["net/tun.c"]
    assert "names PAGEMAP_SCAN" in {c.test: c.why for c in found["fs/proc/task_mmu.c"]}[
        "mm/pagemap_ioctl.c"]
    assert candidate_tests(found, "fs/eventpoll.c") == {"net/epoll_busy_poll.c"}


def test_found_by_a_kernel_header_the_source_shares_with_its_test(found):
    # mm/gup_test.h, lib/test_hmm_uapi.h, include/linux/map_benchmark.h: no uapi
    assert "mm/gup_test.c" in candidate_tests(found, "mm/gup_test.c")
    assert "mm/hmm-tests.c" in candidate_tests(found, "lib/test_hmm.c")
    assert candidate_tests(found, "kernel/dma/map_benchmark.c") == {"dma/dma_map_benchmark.c"}


def test_dev_fd_is_no_driver_node(found):
    # floppy registers "fd"; /dev/fd/N in execveat.c is a file descriptor
    assert "exec/execveat.c" not in candidate_tests(found, "drivers/block/floppy.c")


@pytest.mark.parametrize("root", generated.committed_outputs(), ids=lambda p: p.name)
def test_every_kselftest_of_an_audited_patched_file_has_a_row(root):
    tree = compare.cached_tree(compare.read_output(root))
    if tree is None or not (tree / kselftest_search.SELFTESTS).is_dir():
        pytest.skip(f"the tree of {root.name} is not unpacked")
    claims = series_claims.claims(root, series_claims.discover(root))
    rows = table.load()
    audited = sorted(s for s in claims if s in rows and rows[s].audit)
    listed = kselftests.load()
    missing = []
    for source, cands in kselftest_search.search(tree, audited).items():
        for cand in cands:
            if not any(row.covers(cand.test) for row in listed):
                missing.append(f"{source}: {cand.test} ({cand.why})")
    assert missing == [], "kselftests.tsv lacks rows for:\n" + "\n".join(missing)
