// SPDX-License-Identifier: GPL-2.0
/*
 * A core that hands the command on to its drivers' ops: its answer for a
 * missing operation is the core's, for every driver behind it, and stays.
 */
#include <linux/fs.h>

long demo_core_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct demo_dev *dev = f->private_data;

	switch (cmd) {
	case DEMO_VERSION:
		return 1;
	default:
		if (!dev->ops->unlocked_ioctl)
			return -EINVAL;
		return dev->ops->unlocked_ioctl(f, cmd, arg);
	}
}
