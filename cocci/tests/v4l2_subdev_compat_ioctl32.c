// SPDX-License-Identifier: GPL-2.0
#include <media/v4l2-subdev.h>

static long tuner_compat_ioctl32(struct v4l2_subdev *sd, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case TUNER_IOC_GET_AFC32:
		return tuner_get_afc(sd, compat_ptr(arg));
	default:
		return -EINVAL;
	}
}

static const struct v4l2_subdev_core_ops tuner_core_ops = {
	.compat_ioctl32 = tuner_compat_ioctl32,
};
