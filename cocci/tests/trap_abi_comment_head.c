// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static long gpx_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	/* Old tools probe the magic; userspace expects -EINVAL for it. */
	if (_IOC_TYPE(cmd) != GPX_MAGIC)
		return -EINVAL;

	switch (cmd) {
	case GPX_GET:
		return gpx_get(file, arg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations gpx_fops = {
	.unlocked_ioctl = gpx_ioctl,
};
