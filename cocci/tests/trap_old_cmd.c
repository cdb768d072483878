// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static long old_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case OLD_SET_RATE:
		/* recognised but no longer supported */
		return -EINVAL;
	case NEW_SET_RATE:
		return set_rate(file, arg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations old_fops = {
	.unlocked_ioctl = old_ioctl,
};
