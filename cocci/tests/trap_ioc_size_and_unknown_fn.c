// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

/* Not named in any ops structure of this file: not a handler. */
long sub_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case SUB_GET:
		return sub_get(file, arg);
	default:
		return -EINVAL;
	}
}

static long sz_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (_IOC_SIZE(cmd) != sizeof(struct sz_args))
		return -EINVAL;
	if (_IOC_DIR(cmd) & _IOC_WRITE)
		return sz_write(file, arg);
	return -ENOTTY;
}

static const struct file_operations sz_fops = {
	.unlocked_ioctl = sz_ioctl,
};
