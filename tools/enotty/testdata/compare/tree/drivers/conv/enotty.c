// SPDX-License-Identifier: GPL-2.0
/* Upstream now answers ENOTTY itself. */
#include <linux/fs.h>

static long enotty_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case ENOTTY_GET:
		return 0;
	default:
		/* was: return -EINVAL; */
		return -ENOTTY;
	}
}

static const struct file_operations enotty_fops = {
	.unlocked_ioctl = enotty_ioctl,
};
