// SPDX-License-Identifier: GPL-2.0
/* Fixture: a plain file_operations handler whose default says -EINVAL. */
#include <linux/fs.h>
#include <linux/module.h>

static long foo_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case FOO_RESET:
		return foo_reset(file);
	default:
		return -EINVAL;
	}
}

static const struct file_operations foo_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= foo_ioctl,
};
