// SPDX-License-Identifier: GPL-2.0
/*
 * net/sunrpc/cache.c cache_ioctl(): one if answers an unknown command and
 * a reader not set up yet with the same -EINVAL.  The errno token alone
 * cannot fix it: the condition is split, the command test answers -ENOTTY
 * and the state test keeps -EINVAL (ioctl_cmd_state_split).  The second
 * handler tests two commands and the state.
 */
#include <linux/fs.h>

static int foo_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct foo_reader *rp = filp->private_data;
	int len = 0;

	if (cmd != FIONREAD || !rp)
		return -EINVAL;

	len = foo_pending(rp);
	return put_user(len, (int __user *)arg);
}

static long bar_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct bar_dev *bar = filp->private_data;

	if ((cmd != BAR_GET && cmd != BAR_SET) || !bar->ready)
		return -EINVAL;

	return bar_do(bar, cmd, arg);
}

static const struct file_operations foo_fops = {
	.unlocked_ioctl = foo_ioctl,
};

static const struct file_operations bar_fops = {
	.unlocked_ioctl = bar_ioctl,
};
