from ..find import scan
from . import publish
from ..judge import recall


def test_failed_tsv_lists_the_files_the_scan_could_not_read_by_file() -> None:
    text = publish.failed_tsv([scan.Failure("z.c", "timeout", "spatch timeout after 120 s"),
                               scan.Failure("a.c", "parse-error", "3 lines not parsed from line 9, naming ioctl")])
    assert text == (
        "file\tstatus\treason\n"
        "a.c\tparse-error\t3 lines not parsed from line 9, naming ioctl\n"
        "z.c\ttimeout\tspatch timeout after 120 s\n")


def test_failed_tsv_of_a_clean_scan_is_its_header() -> None:
    assert publish.failed_tsv([]) == "file\tstatus\treason\n"


def test_kept_exits_are_said_with_their_keeper_apart_from_the_misses() -> None:
    out: list[str] = []
    publish._recall_misses(out.append, [
        recall.Miss("a.c", "10", "a_ioctl", "EINVAL", "the SCSI midlayer's answer", "core"),
        recall.Miss("c.c", "30", "c_ioctl", "EINVAL", "the DRM core's", "core"),
        recall.Miss("c.c", "35", "c_ioctl", "EINVAL", "the DRM core's", "core"),
        recall.Miss("b.c", "20", "b_ioctl", "EINVAL", "init-no-default: `ret = -EINVAL`, no default")],
        ["census-7.2.1.tsv", "verdicts-7.2.1.tsv"])
    text = "".join(out)
    kept, _, misses = text.partition("## Recall misses")
    assert "## Kept without a rule" in kept and "3 more exits as" in kept
    assert "- a.c: a_ioctl() (-EINVAL) kept by a core: the SCSI midlayer's answer" in kept
    assert "- c.c: c_ioctl() (-EINVAL, 2 exits) kept by a core: the DRM core's\n" in kept
    assert "b_ioctl" not in kept and "- b.c: b_ioctl() (-EINVAL): init-no-default" in misses
    assert "classifies 1 exit as" in misses and "a_ioctl" not in misses
