// SPDX-License-Identifier: GPL-2.0
/* Fixture: spatch cannot parse the handler (a stray operator), so the
 * scan must list this file as failed rather than silently find nothing. */
#include <linux/fs.h>

static long broken_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case BROKEN_GET:
		return broken_get(file, arg) +;
	default:
		return -EINVAL;
	}
}

static const struct file_operations broken_fops = {
	.unlocked_ioctl	= broken_ioctl,
};
