// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static long cfg_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;

	switch (cmd) {
	case CFG_READ:
		ret = cfg_read(file, arg);
		break;
	case CFG_WRITE:
	case CFG_WRITE_SYNC:
		ret = cfg_write(file, arg);
		if (ret)
			break;
		cfg_sync(file);
		break;
	case CFG_RESET:
		return cfg_reset(file);
	}

	return ret;
}

static const struct file_operations cfg_fops = {
	.unlocked_ioctl = cfg_ioctl,
};
