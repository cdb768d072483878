// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

/* Common commands first; the caller tries the chip's own ones when this
 * answers -EINVAL (a try-next protocol local to the driver). */
static long sdev_common_ioctl(struct sdev *sdev, unsigned int cmd,
			      unsigned long arg)
{
	switch (cmd) {
	case SDEV_GET_INFO:
		return sdev_get_info(sdev, arg);
	default:
		return -EINVAL;
	}
}

static long sdev_chip_ioctl(struct sdev *sdev, unsigned int cmd,
			    unsigned long arg)
{
	switch (cmd) {
	case SDEV_CHIP_RESET:
		return sdev_chip_reset(sdev);
	default:
		return -ENOTTY;
	}
}

static long sdev_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct sdev *sdev = file->private_data;
	long ret;

	ret = sdev_common_ioctl(sdev, cmd, arg);
	if (ret != -EINVAL)
		return ret;
	return sdev_chip_ioctl(sdev, cmd, arg);
}

static const struct file_operations sdev_fops = {
	.unlocked_ioctl = sdev_ioctl,
};
