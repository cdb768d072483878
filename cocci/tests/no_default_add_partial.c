// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

/*
 * CFG_WRITE rejects a bad length with the initial -EINVAL: changing the
 * initialiser would change that answer, so it stays, and a default added
 * after the last case answers -ENOTTY (ioctl_switch_add_default).
 */
static long cfg2_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;

	switch (cmd) {
	case CFG_READ:
		ret = cfg_read(file, arg);
		break;
	case CFG_WRITE:
		if (arg > CFG_MAX)
			break;
		ret = cfg_write(file, arg);
		break;
	}

	return ret;
}

static const struct file_operations cfg2_fops = {
	.unlocked_ioctl = cfg2_ioctl,
};
