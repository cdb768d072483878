// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

/* OLD_GET_MODE shares the default label: the -EINVAL is also the answer of
 * a recognised (retired) command, so neither default converts. */
static long mode_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case MODE_GET:
		return mode_get(file, arg);
	case OLD_GET_MODE:
	default:
		return -EINVAL;
	}
}

static long mode2_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	long ret;

	switch (cmd) {
	case MODE2_SET:
		ret = mode2_set(file, arg);
		break;
	case OLD_SET_MODE:
	default:
		ret = -EINVAL;
		break;
	}
	return ret;
}

static const struct file_operations mode_fops = {
	.unlocked_ioctl = mode_ioctl,
	.compat_ioctl = mode2_ioctl,
};
