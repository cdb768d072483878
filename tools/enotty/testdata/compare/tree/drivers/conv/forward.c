// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include "forward.h"

static long forward_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case FORWARD_GET:
		return 0;
	default:
		return forward_common_ioctl(file, cmd, arg);
	}
}

static const struct file_operations forward_fops = {
	.unlocked_ioctl = forward_ioctl,
};
