// SPDX-License-Identifier: GPL-2.0
/*
 * The dispatcher of default_missing_operation.c in assignment form: the
 * default hands the command to an optional operation and answers -EINVAL
 * without one (drivers/misc/uacce/uacce.c, drivers/vfio/vfio_main.c).
 * In c_ioctl the check is on the device state, not on the operation it
 * calls, and stays.
 */
#include <linux/fs.h>

static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct foo *foo = f->private_data;
	long ret;

	switch (cmd) {
	case FOO_START:
		ret = foo_start(foo);
		break;
	default:
		if (foo->ops->ioctl)
			ret = foo->ops->ioctl(foo, cmd, arg);
		else
			ret = -EINVAL;
	}
	return ret;
}

static long b_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct foo *foo = f->private_data;
	long ret;

	switch (cmd) {
	case FOO_START:
		ret = foo_start(foo);
		break;
	default:
		if (unlikely(!foo->ops->ioctl))
			ret = -EINVAL;
		else
			ret = foo->ops->ioctl(foo, cmd, arg);
		break;
	}
	return ret;
}

static long c_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct foo *foo = f->private_data;
	long ret;

	switch (cmd) {
	case FOO_START:
		ret = foo_start(foo);
		break;
	default:
		if (foo->ready)
			ret = foo->ops->ioctl(foo, cmd, arg);
		else
			ret = -EINVAL;
	}
	return ret;
}

static const struct file_operations a_fops = {
	.unlocked_ioctl = a_ioctl,
};

static const struct file_operations b_fops = {
	.unlocked_ioctl = b_ioctl,
};

static const struct file_operations c_fops = {
	.unlocked_ioctl = c_ioctl,
};
