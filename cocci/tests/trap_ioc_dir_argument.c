// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: tests of the direction bits joined to an argument or state check
 * by && (drivers/s390/block/dasd_ioctl.c dasd_ioctl: a command that
 * carries data needs a pointer), or testing the direction for equality:
 * argument checks of known commands, not unknown-command answers.
 */
#include <linux/fs.h>

static long a_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if ((_IOC_DIR(cmd) != _IOC_NONE) && !arg)
		return -EINVAL;
	switch (cmd) {
	case A_GET:
		return a_get(file, arg);
	default:
		return -ENOTTY;
	}
}

static long b_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (_IOC_DIR(cmd) == _IOC_NONE)
		return -EINVAL;
	if (_IOC_DIR(cmd) != _IOC_READ && file->f_mode & FMODE_WRITE)
		return -EINVAL;
	switch (cmd) {
	case B_GET:
		return b_get(file, arg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations fops = {
	.unlocked_ioctl = a_ioctl,
	.compat_ioctl = b_ioctl,
};
