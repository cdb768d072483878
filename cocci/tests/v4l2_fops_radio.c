// SPDX-License-Identifier: GPL-2.0
#include <media/v4l2-dev.h>

static long radio_si_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case SI_IOC_GET_RDS:
		return si_get_rds(video_drvdata(file), arg);
	default:
		return -EINVAL;
	}
}

static long radio_si_compat_ioctl32(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case SI_IOC_GET_RDS32:
		return si_get_rds(video_drvdata(file), (unsigned long)compat_ptr(arg));
	default:
		return -ENOSYS;
	}
}

static const struct v4l2_file_operations radio_si_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= radio_si_ioctl,
	.compat_ioctl32	= radio_si_compat_ioctl32,
};
