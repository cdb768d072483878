// SPDX-License-Identifier: GPL-2.0
/* A driver that binds two cores' handlers. */
#include <linux/fs.h>

static int bar_open(struct inode *inode, struct file *f)
{
	return (f->f_flags & O_APPEND) ? -EINVAL : 0;
}

static const struct file_operations bar_fops = {
	.owner		= THIS_MODULE,
	.open		= bar_open,
	.unlocked_ioctl	= demo_core_ioctl,
	.compat_ioctl	= blkdev_ioctl,
};
