// SPDX-License-Identifier: GPL-2.0
/*
 * A driver whose ioctl helpers live in common.c: the rules of common.c
 * alone see no handler there, phase 1 does.
 */
#include <linux/fs.h>

static long foo_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	long ret;

	switch (cmd) {
	case FOO_RESET:
		return foo_reset_cmd(f, cmd);
	default:
		ret = foo_probe_cmd(f, cmd, arg);
		if (ret != -EINVAL)
			return ret;
		return foo_common_ioctl(f, cmd, arg);
	}
}

static const struct file_operations foo_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= foo_ioctl,
};
