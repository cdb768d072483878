// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static long fresh_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (cmd != FRESH_GET)
		return -EINVAL;
	return 0;
}

static const struct file_operations fresh_fops = {
	.unlocked_ioctl = fresh_ioctl,
};
