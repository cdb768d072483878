// SPDX-License-Identifier: GPL-2.0
/* Fixture: one handler behind both ioctl members; a later return -EINVAL
 * outside the switch is an argument check and stays. */
#include <linux/fs.h>

static long bar_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = 0;

	if (!arg)
		return -EINVAL;

	switch (cmd) {
	case BAR_GET:
		ret = bar_get(file, arg);
		break;
	case BAR_SET:
		ret = bar_set(file, arg);
		break;
	default:
		return -EINVAL;
	}
	return ret;
}

static const struct file_operations bar_fops = {
	.unlocked_ioctl	= bar_ioctl,
	.compat_ioctl	= bar_ioctl,
};
