// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static long split_do_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case SPLIT_GET:
		return 0;
	default:
		return -EINVAL;
	}
}

static long split_unlocked_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return split_do_ioctl(file, cmd, arg);
}

static const struct file_operations split_fops = {
	.unlocked_ioctl = split_unlocked_ioctl,
};
