// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static long buz_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	long ret;

	if (cmd == BUZ_ON)
		ret = buz_on();
	else if (cmd == BUZ_OFF)
		ret = buz_off();
	else {
		ret = -EINVAL;
	}

	return ret;
}

static const struct file_operations buz_fops = {
	.unlocked_ioctl = buz_ioctl,
};
