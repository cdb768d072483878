// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/module.h>

#define TOP_IOCTL_GET	_IOR('f', 1, int)

static long top_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int __user *argp = (int __user *)arg;

	switch (cmd) {
	case TOP_IOCTL_GET:
		return put_user(1, argp);
	default:
		return -EINVAL;
	}
}

static const struct file_operations top_ioctl_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= top_ioctl,
};
