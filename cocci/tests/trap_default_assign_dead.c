// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: default: ret = -EINVAL; goto out; where out: sets ret again
 * before returning it, so the -EINVAL never reaches user space (a dead
 * store): nothing to change.
 */
#include <linux/fs.h>

static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	long ret;

	switch (cmd) {
	case FOO_A:
		ret = a_a(f);
		break;
	default:
		ret = -EINVAL;
		goto out;
	}
	ret = a_post(f, ret);
out:
	ret = a_finish(f);
	return ret;
}

static const struct file_operations fops = {
	.unlocked_ioctl = a_ioctl,
};
