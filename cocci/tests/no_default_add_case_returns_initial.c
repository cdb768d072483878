// SPDX-License-Identifier: GPL-2.0
// Every case leaves by return, but one returns the initialiser itself for
// a recognised command (a wrong argument): the -EINVAL stays, and a
// default added after the last case answers -ENOTTY
// (ioctl_switch_add_default; spatch prints the label in column 0, the
// scan indents it).
#include <linux/fs.h>

static long q_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	int err = -EINVAL;

	switch (cmd) {
	case Q_GET:
		return q_get(arg);
	case Q_SET:
		if (arg > Q_MAX)
			return err;
		return q_set(arg);
	}
	return err;
}

static const struct file_operations q_fops = {
	.unlocked_ioctl	= q_ioctl,
};
