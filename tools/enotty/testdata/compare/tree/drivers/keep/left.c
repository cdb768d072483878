// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static long left_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (cmd != LEFT_GET)
		return -EINVAL;
	return 0;
}

static const struct file_operations left_fops = {
	.unlocked_ioctl = left_ioctl,
};
