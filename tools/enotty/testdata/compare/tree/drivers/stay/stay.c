// SPDX-License-Identifier: GPL-2.0
/* stay_ioctl(file, cmd, arg) went away: the device has no ioctl now. */
#include <linux/fs.h>

static ssize_t stay_read(struct file *file, char __user *buf, size_t len, loff_t *pos)
{
	return 0;
}

static const struct file_operations stay_fops = {
	.read = stay_read,
};
