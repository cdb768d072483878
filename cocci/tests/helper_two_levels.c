// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static int vbus_cmd(struct vbus *bus, unsigned int cmd, void __user *argp)
{
	switch (cmd) {
	case VBUS_SCAN:
		return vbus_scan(bus);
	default:
		return -EINVAL;
	}
}

static long vbus_locked_ioctl(struct vbus *bus, unsigned int cmd,
			      unsigned long arg)
{
	long ret;

	mutex_lock(&bus->lock);
	ret = vbus_cmd(bus, cmd, (void __user *)arg);
	mutex_unlock(&bus->lock);
	return ret;
}

static long vbus_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return vbus_locked_ioctl(file->private_data, cmd, arg);
}

static const struct file_operations vbus_fops = {
	.unlocked_ioctl = vbus_ioctl,
};
