// SPDX-License-Identifier: GPL-2.0
/*
 * Traps for default: ret = -EINVAL;.  a_ioctl compares the value with
 * -EINVAL on its way to the return (drivers/md/md.c md_ioctl: an invalid
 * command does not end the hold of the device), so the errno means
 * something to the function itself.  In b_ioctl the -EINVAL is an argument
 * check before the generic handler: it does not run for every command
 * reaching the default.
 */
#include <linux/fs.h>
#include <linux/blkdev.h>

static int a_ioctl(struct block_device *bdev, blk_mode_t mode,
		   unsigned int cmd, unsigned long arg)
{
	int err = 0;

	mutex_lock(&a_lock);
	switch (cmd) {
	case A_RUN:
		err = a_run(bdev);
		goto unlock;
	default:
		err = -EINVAL;
		goto unlock;
	}

unlock:
	if (a_hold && err != -EINVAL)
		a_hold = 0;
	mutex_unlock(&a_lock);
	return err;
}

static long b_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	long ret;

	switch (cmd) {
	case FOO_A:
		ret = b_a(f);
		break;
	default:
		if (!arg) {
			ret = -EINVAL;
			break;
		}
		ret = b_generic(f, cmd, arg);
		break;
	}
	return ret;
}

static const struct block_device_operations a_bops = {
	.ioctl = a_ioctl,
};

static const struct file_operations fops = {
	.unlocked_ioctl = b_ioctl,
};
