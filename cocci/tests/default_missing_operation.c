// SPDX-License-Identifier: GPL-2.0
/*
 * A dispatcher hands the commands it does not know to an optional driver
 * operation, and answers -EINVAL when there is none (issue 9): without the
 * operation no one knows the command.  In b_ioctl the check is on the
 * device state, not on the operation it calls, and stays.
 */
#include <linux/fs.h>

static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct foo *foo = f->private_data;

	switch (cmd) {
	case FOO_GET_VERSION:
		return put_user(FOO_VERSION, (int __user *)arg);
	default:
		if (!foo->ops->ioctl)
			return -EINVAL;
		return foo->ops->ioctl(foo, cmd, arg);
	}
}

static long b_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct foo *foo = f->private_data;

	switch (cmd) {
	case FOO_GET_VERSION:
		return put_user(FOO_VERSION, (int __user *)arg);
	default:
		if (!foo->ready)
			return -EINVAL;
		return foo->ops->ioctl(foo, cmd, arg);
	}
}

static const struct file_operations fops = {
	.unlocked_ioctl = a_ioctl,
	.compat_ioctl = b_ioctl,
};
