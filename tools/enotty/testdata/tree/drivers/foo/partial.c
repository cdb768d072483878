// SPDX-License-Identifier: GPL-2.0
/* Fixture: spatch cannot parse scale(), but nothing there names an ioctl
 * member or an errno, so the handler's site is still found. */
#include <linux/fs.h>

static int scale(int v)
{
	return v * +;
}

static long part_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case PART_SCALE:
		return scale(arg);
	default:
		return -EINVAL;
	}
}

static const struct file_operations part_fops = {
	.unlocked_ioctl	= part_ioctl,
};
