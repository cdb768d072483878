// SPDX-License-Identifier: GPL-2.0
#include <media/v4l2-subdev.h>

static long sensor_ioctl(struct v4l2_subdev *sd, unsigned int cmd, void *arg)
{
	struct sensor *sensor = to_sensor(sd);
	long ret;

	switch (cmd) {
	case SENSOR_G_OTP:
		ret = sensor_g_otp(sensor, arg);
		break;
	default:
		ret = -EINVAL;
		break;
	}

	return ret;
}

static const struct v4l2_subdev_core_ops sensor_core_ops = {
	.log_status	= v4l2_ctrl_subdev_log_status,
	.ioctl		= sensor_ioctl,
};
