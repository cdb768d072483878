// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/uaccess.h>

#define FOO_GET_VERSION	_IOR('f', 1, int)
#define FOO_RESET	_IO('f', 2)

static long foo_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int __user *argp = (int __user *)arg;

	switch (cmd) {
	case FOO_GET_VERSION:
		return put_user(1, argp);
	case FOO_RESET:
		foo_reset();
		return 0;
	default:
		return -EINVAL;
	}
}

static const struct file_operations foo_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= foo_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};

static struct miscdevice foo_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "foo",
	.fops	= &foo_fops,
};
