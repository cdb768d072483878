// SPDX-License-Identifier: GPL-2.0
// The last case ends in an if-else that assigns on both branches: the
// default is added after the whole if, not inside its else branch (spatch
// would brace the branch), and the initialiser that B_SET's bad argument
// leaves with stays (ioctl_switch_add_default).
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

static const struct file_operations b_fops = {
	.unlocked_ioctl	= b_ioctl,
};
