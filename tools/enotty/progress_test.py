import io

from .progress import Progress


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_log_mode_prints_a_line_at_start_and_every_interval():
    clock, out = Clock(), io.StringIO()
    p = Progress(total=10, total_work=1000, stream=out, interval=5, now=clock)
    clock.t += 2
    p.advance(1, 100, 3)                     # too soon for another line
    clock.t += 4
    p.advance(1, 100, 0)
    p.finish()
    assert out.getvalue().splitlines() == [
        "enotty: 0/10 files, 0 sites, 0:00 elapsed",
        "enotty: 2/10 files, 3 sites, 0:06 elapsed, ETA 0:24",
    ]


def test_eta_follows_work_not_file_count():
    clock = Clock()
    p = Progress(total=4, total_work=400, stream=io.StringIO(), now=clock)
    clock.t += 3600
    p.advance(1, 300, 0)                     # one big file of four: 3/4 of the work
    assert p.line() == "enotty: 1/4 files, 0 sites, 1:00:00 elapsed, ETA 20:00"


def test_tty_mode_redraws_one_line_and_clears_it():
    clock, out = Clock(), Tty()
    p = Progress(total=2, total_work=2, stream=out, now=clock)
    clock.t += 1
    p.advance(1, 1, 1)
    p.finish()
    text = out.getvalue()
    assert "\n" not in text
    assert text.count("\r\033[K") == 3 and text.endswith("\r\033[K")
    assert "1/2 files, 1 sites" in text
