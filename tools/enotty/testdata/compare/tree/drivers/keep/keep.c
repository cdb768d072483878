// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static long keep_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case KEEP_GET:
		return 0;
	default:
		return -EINVAL;
	}
}

static const struct file_operations keep_fops = {
	.unlocked_ioctl = keep_ioctl,
};
