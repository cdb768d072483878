// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static long legacy_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case LEGACY_GET:
		return legacy_get(file, arg);
	default:
		/* user space (legacyd) probes with unknown commands and
		 * relies on -EINVAL */
		return -EINVAL;
	}
}

static long legacy2_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case LEGACY_GET:
		return legacy_get(file, arg);
	default:
		return -EINVAL; /* ABI: documented answer since 2.6 */
	}
}

static const struct file_operations legacy_fops = {
	.unlocked_ioctl = legacy_ioctl,
};

static const struct file_operations legacy2_fops = {
	.unlocked_ioctl = legacy2_ioctl,
};
