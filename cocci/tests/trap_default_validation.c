// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

/* The default label hands range commands to a helper after checking the
 * argument: that -EINVAL answers a bad argument of a known command. */
static long rng2_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case RNG2_RESET:
		return rng2_reset(file);
	default:
		if (!arg)
			return -EINVAL;
		return rng2_other(file, cmd, arg);
	}
}

static long rng2_other(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (cmd >= RNG2_FIRST && cmd <= RNG2_LAST)
		return rng2_range(file, cmd - RNG2_FIRST, arg);
	return -ENOTTY;
}

static const struct file_operations rng2_fops = {
	.unlocked_ioctl = rng2_ioctl,
};
