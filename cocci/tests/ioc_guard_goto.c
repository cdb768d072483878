// SPDX-License-Identifier: GPL-2.0
/*
 * A type guard that leaves by a jump (drivers/hid/hidraw.c): if
 * (_IOC_TYPE(cmd) != 'H') { ret = -EINVAL; goto out; } where out: returns
 * ret.  In b_ioctl the label sets ret again before the return, so the
 * -EINVAL never reaches user space and stays.
 */
#include <linux/fs.h>

static long a_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct foo *foo = file->private_data;
	long ret;

	mutex_lock(&foo->lock);
	if (_IOC_TYPE(cmd) != 'H') {
		ret = -EINVAL;
		goto out;
	}
	ret = foo_do_ioctl(foo, cmd, arg);
out:
	mutex_unlock(&foo->lock);
	return ret;
}

static long b_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct foo *foo = file->private_data;
	long ret;

	if (_IOC_TYPE(cmd) != 'H') {
		ret = -EINVAL;
		goto out;
	}
	ret = foo_do_ioctl(foo, cmd, arg);
out:
	ret = foo_status(foo);
	return ret;
}

static const struct file_operations fops = {
	.unlocked_ioctl = a_ioctl,
	.compat_ioctl = b_ioctl,
};
