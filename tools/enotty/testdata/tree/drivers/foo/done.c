// SPDX-License-Identifier: GPL-2.0
/* Fixture: already right; names EINVAL for an argument check only. */
#include <linux/fs.h>

static long done_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (!arg)
		return -EINVAL;
	switch (cmd) {
	case DONE_GET:
		return done_get(file, arg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations done_fops = {
	.unlocked_ioctl	= done_ioctl,
};
