// SPDX-License-Identifier: GPL-2.0
#include <media/v4l2-ioctl.h>

static long cam_default(struct file *file, void *fh, bool valid_prio,
			unsigned int cmd, void *arg)
{
	struct cam_dev *cam = video_drvdata(file);

	switch (cmd) {
	case VIDIOC_CAM_G_TEMP:
		return cam_g_temp(cam, arg);
	default:
		return -EINVAL;
	}
}

static const struct v4l2_ioctl_ops cam_ioctl_ops = {
	.vidioc_querycap	= cam_querycap,
	.vidioc_default		= cam_default,
};
