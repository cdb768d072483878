from ..find import scan
from . import publish


def test_failed_tsv_lists_the_files_the_scan_could_not_read_by_file() -> None:
    text = publish.failed_tsv([scan.Failure("z.c", "timeout", "spatch timeout after 120 s"),
                               scan.Failure("a.c", "parse-error", "3 lines not parsed from line 9, naming ioctl")])
    assert text == (
        "file\tstatus\treason\n"
        "a.c\tparse-error\t3 lines not parsed from line 9, naming ioctl\n"
        "z.c\ttimeout\tspatch timeout after 120 s\n")


def test_failed_tsv_of_a_clean_scan_is_its_header() -> None:
    assert publish.failed_tsv([]) == "file\tstatus\treason\n"
