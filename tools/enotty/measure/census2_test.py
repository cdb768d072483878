"""Tests of the second census: it reaches handlers the first census cannot
(a per-machine vector called with the command, a callback handed on with
the command, a token-pasted ops table) and marks what the first one has."""
from __future__ import annotations

from pathlib import Path

from . import census2
from .census import CENSUS_COLUMNS, write_tsv

ERRNO = "#define EINVAL 22\n#define ENOTTY 25\n"

CORE = """\
struct mach { int (*mixer_ctl)(unsigned int cmd, unsigned long arg); };
extern struct mach mach;
int do_usercopy(struct file *file, unsigned int cmd, unsigned long arg, int (*func)(struct file *, unsigned int, void *));

static long mix_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
\tif (mach.mixer_ctl)
\t\treturn mach.mixer_ctl(cmd, arg);
\treturn -EINVAL;
}

static int ca_ioctl(struct file *file, unsigned int cmd, void *parg)
{
\tswitch (cmd) {
\tdefault:
\t\treturn -EINVAL;
\t}
}

static long ca_unlocked(struct file *file, unsigned int cmd, unsigned long arg)
{
\treturn do_usercopy(file, cmd, arg, ca_ioctl);
}

static const struct file_operations mix_fops = {
\t.unlocked_ioctl = mix_ioctl,
};
static const struct file_operations ca_fops = {
\t.unlocked_ioctl = ca_unlocked,
};
"""

MACHINE = """\
static int ata_mixer(unsigned int cmd, unsigned long arg)
{
\tswitch (cmd) {
\tcase 1:
\t\treturn 0;
\t}
\treturn -EINVAL;
}

void ata_init(void)
{
\tmach.mixer_ctl = ata_mixer;
}
"""

PASTED = """\
#define FOPS(name) static const struct file_operations name##_fops = { .unlocked_ioctl = name##_ioctl, }
static long gizmo_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
\treturn -EINVAL;
}
FOPS(gizmo);
"""

# a pasting macro used through another macro, from another file (sbuslib.h's shape)
NESTED_H = """\
#define __OPS_IOCTL(__prefix) \\
\t.fb_ioctl = __prefix ## _sbusfb_ioctl
#define DEFAULT_OPS(__prefix) \\
\t.owner = THIS_MODULE, \\
\t__OPS_IOCTL(__prefix)
"""

NESTED_C = """\
static int bw2_sbusfb_ioctl(struct fb_info *info, unsigned int cmd, unsigned long arg)
{
\treturn -EINVAL;
}
static const struct fb_ops bw2_ops = {
\tDEFAULT_OPS(bw2),
};
"""


def tree(root: Path) -> Path:
    (root / "include/uapi/asm-generic").mkdir(parents=True)
    (root / "include/uapi/asm-generic/errno-base.h").write_text(ERRNO)
    (root / "drivers").mkdir()
    (root / "drivers/core.c").write_text(CORE)
    (root / "drivers/machine.c").write_text(MACHINE)
    (root / "drivers/pasted.c").write_text(PASTED)
    (root / "drivers/sbuslib.h").write_text(NESTED_H)
    (root / "drivers/bw2.c").write_text(NESTED_C)
    return root


def test_reaches_vectors_callbacks_and_pasted_tables(tmp_path):
    root = tree(tmp_path / "k")
    first = [{"file": "drivers/core.c", "line": "9", "function": "mix_ioctl"}]
    rows = {(r[0], r[1]): r for r in census2.rows(root, first)}
    assert rows[("drivers/core.c", "9")][-2:] == ("member", "yes")
    machine = rows[("drivers/machine.c", "7")]
    assert (machine[2], machine[3], machine[4], machine[-2], machine[-1]) == (
        "ata_mixer", "handler", "mixer_ctl", "called-member", "no")
    callback = rows[("drivers/core.c", "16")]
    assert (callback[2], callback[-2], callback[-1]) == ("ca_ioctl", "callback", "no")
    pasted = rows[("drivers/pasted.c", "4")]
    assert (pasted[2], pasted[4], pasted[-2], pasted[-1]) == ("gizmo_ioctl", "unlocked_ioctl", "pasted", "no")
    nested = rows[("drivers/bw2.c", "3")]
    assert (nested[2], nested[4], nested[-2]) == ("bw2_sbusfb_ioctl", "fb_ioctl", "pasted")


def test_function_known_to_the_first_census_but_not_the_site(tmp_path):
    root = tree(tmp_path / "k")
    first = [{"file": "drivers/machine.c", "line": "1", "function": "ata_mixer"}]
    rows = {(r[0], r[1]): r for r in census2.rows(root, first)}
    assert rows[("drivers/machine.c", "7")][-1] == "function"


def test_cli_writes_the_columns_and_a_bad_tree_is_one_line(tmp_path, capsys):
    root = tree(tmp_path / "k")
    first = tmp_path / "first.tsv"
    first.write_text(write_tsv(CENSUS_COLUMNS, [("drivers/core.c", "9", "mix_ioctl", "handler", "unlocked_ioctl",
                                                 "return", "EINVAL", "outside")]))
    assert census2.main(["--kdir", str(root), "--first", str(first)]) == 0
    cap = capsys.readouterr()
    assert cap.out.splitlines()[0].split("\t") == list(census2.COLUMNS)
    assert "not in the first census" in cap.err
    assert census2.main(["--kdir", str(tmp_path / "none"), "--first", str(first)]) == 2
    assert capsys.readouterr().err.count("\n") == 1
