// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static long helper_do_ioctl(struct file *file, unsigned int cmd, void __user *argp)
{
	switch (cmd) {
	case HELPER_GET:
		return put_user(1, (int __user *)argp);
	case HELPER_SET:
		return 0;
	}
	return -ENOTTY;
}

static long helper_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	return helper_do_ioctl(file, cmd, (void __user *)arg);
}

static const struct file_operations helper_fops = {
	.unlocked_ioctl = helper_ioctl,
};
