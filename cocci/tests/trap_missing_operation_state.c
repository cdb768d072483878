// SPDX-License-Identifier: GPL-2.0
/*
 * A member tested but never called is a state, not an operation: its
 * -EINVAL answers known commands too and stays (gpib's if
 * (!board->online)); tests/default_missing_operation.c has the operation
 * that is called.
 */
#include <linux/fs.h>

static long s_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct s_dev *dev = f->private_data;
	long ret;

	switch (cmd) {
	case S_RESET:
		ret = s_reset(dev);
		break;
	default:
		if (!dev->online) {
			ret = -EINVAL;
			goto out;
		}
		ret = s_other(dev, cmd, arg);
		break;
	}
out:
	return ret;
}

static const struct file_operations s_fops = { .unlocked_ioctl = s_ioctl, };
