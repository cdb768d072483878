// SPDX-License-Identifier: GPL-2.0
// Trap (ioctl_switch_add_default): the last case ends in an if-else (b_ioctl())
// or an assignment (s_ioctl(), a reviewer's case) and falls out of the
// switch: a default added after it would be fallen into, and B_GET and
// S_GET would answer -ENOTTY every time, so nothing changes.
#include <linux/fs.h>

static long b_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	long ret = -EINVAL;

	switch (cmd) {
	case B_SET:
		if (arg > B_MAX)
			break;
		ret = b_set(arg);
		break;
	case B_GET:
		if (arg)
			ret = b_get_one(arg);
		else
			ret = b_get_all();
	}
	return ret;
}

static long s_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;

	switch (cmd) {
	case S_SET:
		if (arg > S_MAX)
			break;
		ret = s_set(arg);
		break;
	case S_GET:
		ret = s_get();
	}

	return ret;
}

static const struct file_operations b_fops = {
	.unlocked_ioctl	= b_ioctl,
};

static const struct file_operations s_fops = {
	.unlocked_ioctl = s_ioctl,
};
