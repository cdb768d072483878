// SPDX-License-Identifier: GPL-2.0
/*
 * Phase-2 fixture: the ops table that names foo_chip_ioctl lives in
 * another file, so only the facts (-D enotty_facts=FILE, a row for
 * foo_chip_ioctl) make it a target.  foo_chip_ctl has the same shape but
 * no row, and stays.
 */
#include <linux/fs.h>

long foo_chip_ioctl(struct foo_chip *chip, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case FOO_RESET:
		return foo_reset(chip);
	default:
		return -EINVAL;
	}
}

long foo_chip_ctl(struct foo_chip *chip, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case FOO_RESET:
		return foo_reset(chip);
	default:
		return -EINVAL;
	}
}
