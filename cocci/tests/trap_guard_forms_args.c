// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: the guard forms of guard_forms.c around tests that are not only
 * tests of the command.  An argument check, a command test mixed with an
 * argument check, or a size check answers a known command, and stays.
 */
#include <linux/fs.h>

static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	if (unlikely(arg != 0))
		return -EINVAL;
	if (cmd != FOO_A && arg > 5)
		return -EINVAL;
	if (unlikely(cmd != FOO_A || !arg)) {
		return -EINVAL;
	}
	if (_IOC_SIZE(cmd) != 'H')
		return (-EINVAL);
	if (likely(_IOC_TYPE(cmd) != FOO_MAGIC && arg))
		return -EINVAL;
	return a_do(f, cmd, arg);
}

static long b_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	switch (arg) {
	case 1:
		return b_one(f);
	default:
		return (-EINVAL);
	}
}

static const struct file_operations fops = {
	.unlocked_ioctl = a_ioctl,
	.compat_ioctl = b_ioctl,
};
