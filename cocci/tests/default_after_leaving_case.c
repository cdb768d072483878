// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

/* The case above each default leaves the switch (break, return, an
 * if/else or a nested switch that returns on every path): only unknown
 * commands reach the default, which converts. */
static long sw_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	long ret;

	switch (cmd) {
	case SW_SET:
		if (arg > SW_MAX) {
			ret = -ERANGE;
			break;
		}
		ret = sw_set(file, arg);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	return ret;
}

static long sw2_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case SW2_GET:
		if (arg)
			return sw2_get(file, arg);
		else
			return -EFAULT;
	case SW2_TYPE:
		switch (sw2_type(file)) {
		case SW2_A:
		case SW2_B:
			return 0;
		default:
			return -EIO;
		}
	default:
		return -EINVAL;
	}
}

static const struct file_operations sw_fops = {
	.unlocked_ioctl = sw_ioctl,
	.compat_ioctl = sw2_ioctl,
};
