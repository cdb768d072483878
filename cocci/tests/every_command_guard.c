// SPDX-License-Identifier: GPL-2.0
// A private-ioctl hook that refuses every command but 0 before its switch
// (drivers/staging/media/atomisp: "Disable all private IOCTLs for now!"):
// every command it has is disabled, so the guard answers ENOTTY, what V4L2
// answers for an ioctl the driver does not implement; the default behind
// it converts like any other (the effects call it unreachable).
#include <media/v4l2-ioctl.h>

static long cam_vidioc_default(struct file *file, void *fh, bool valid_prio,
			       unsigned int cmd, void *arg)
{
	/* Disable all private IOCTLs for now! */
	if (cmd)
		return -EINVAL;

	switch (cmd) {
	case CAM_IOC_G_STATS:
		return cam_g_stats(file, arg);
	default:
		return -EINVAL;
	}
}

static const struct v4l2_ioctl_ops cam_ioctl_ops = {
	.vidioc_default = cam_vidioc_default,
};
