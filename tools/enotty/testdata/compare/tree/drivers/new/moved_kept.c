// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

long kept_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case KEPT_GET:
		return 0;
	default:
		return -EINVAL;
	}
}
