// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: a known command falls out of the if chain to the final return
 * (a branch that does not always leave, a break out of the loop around
 * it, or a final else), so that answer is not only for unknown commands.
 */
#include <linux/fs.h>

static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	if (cmd == FOO_SET) {
		if (arg)
			return a_set(f, arg);
	} else if (cmd == FOO_GET) {
		return a_get(f, arg);
	}
	return -EINVAL;
}

static long b_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	if (cmd == FOO_SET) {
		if (arg)
			return b_set(f, arg);
	}
	return -EINVAL;
}

static long c_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	int i;

	for (i = 0; i < 3; i++) {
		if (cmd == FOO_POLL) {
			if (c_ready(f))
				break;
			return c_poll(f);
		} else if (cmd == FOO_GET) {
			return c_get(f);
		}
		return -EINVAL;
	}
	return -EINVAL;
}

static long d_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	if (cmd == FOO_GET) {
		return d_get(f);
	} else if (arg == 0) {
		return d_reset(f);
	}
	return -EINVAL;
}

static const struct file_operations a_fops = {
	.unlocked_ioctl = a_ioctl,
	.compat_ioctl = b_ioctl,
};

static const struct file_operations c_fops = {
	.unlocked_ioctl = c_ioctl,
	.compat_ioctl = d_ioctl,
};
