// SPDX-License-Identifier: GPL-2.0
#include <media/v4l2-ioctl.h>

static long tuner_default(struct file *file, void *fh, bool valid_prio,
			  unsigned int cmd, void *arg)
{
	if (cmd == VIDIOC_TUNER_G_AGC)
		return tuner_g_agc(file, arg);
	return -ENOIOCTLCMD;
}

static const struct v4l2_ioctl_ops tuner_ioctl_ops = {
	.vidioc_default	= tuner_default,
};
