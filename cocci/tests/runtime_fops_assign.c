// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/cdev.h>

static struct file_operations chr_fops;

static long chr_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case CHR_RESET:
		return chr_reset(file);
	default:
		return -EINVAL;
	}
}

static int chr_setup(struct cdev *cdev)
{
	chr_fops.owner = THIS_MODULE;
	chr_fops.unlocked_ioctl = chr_ioctl;
	cdev_init(cdev, &chr_fops);
	return 0;
}
