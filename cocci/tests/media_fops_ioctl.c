// SPDX-License-Identifier: GPL-2.0
#include <media/media-devnode.h>

static long mdev_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case MEDIA_IOC_DEVICE_INFO:
		return mdev_info(filp, (void __user *)arg);
	default:
		return -EINVAL;
	}
}

static long mdev_compat_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	int ret;

	switch (cmd) {
	case MEDIA_IOC_ENUM_LINKS32:
		ret = mdev_enum_links32(filp, compat_ptr(arg));
		break;
	default:
		ret = -EINVAL;
		break;
	}
	return ret;
}

static const struct media_file_operations mdev_fops = {
	.owner = THIS_MODULE,
	.ioctl = mdev_ioctl,
	.compat_ioctl = mdev_compat_ioctl,
};
