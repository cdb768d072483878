// SPDX-License-Identifier: GPL-2.0
/*
 * Declarations between the brace of the switch and its first case label
 * (issue 9): they never run, so the cases are split as without them.
 */
#include <linux/fs.h>

static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
		struct a_info info;
	case FOO_GET_INFO:
		a_fill(f, &info);
		return copy_to_user((void __user *)arg, &info, sizeof(info)) ? -EFAULT : 0;
	case FOO_RESET:
		return a_reset(f);
	}
	return -EINVAL;
}

static long b_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	long ret = -EINVAL;

	switch (cmd) {
		int n;
	case FOO_GET_COUNT:
		n = b_count(f);
		ret = put_user(n, (int __user *)arg);
		break;
	case FOO_RESET:
		ret = b_reset(f);
		break;
	}
	return ret;
}

static const struct file_operations fops = {
	.unlocked_ioctl = a_ioctl,
	.compat_ioctl = b_ioctl,
};
