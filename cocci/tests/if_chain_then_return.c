// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static long rng_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (cmd == RNG_GET_ENTROPY) {
		int n = rng_entropy();

		return put_user(n, (int __user *)arg);
	}
	return -EINVAL;
}

static const struct file_operations rng_fops = {
	.unlocked_ioctl = rng_ioctl,
};
