// SPDX-License-Identifier: GPL-2.0
#include <linux/fb.h>

static int sfb_compat_ioctl(struct fb_info *info, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case FBIO_WAITFORVSYNC:
		return sfb_wait_vsync(info);
	default:
		return -EINVAL;
	}
}

static const struct fb_ops sfb_ops = {
	.owner		= THIS_MODULE,
	.fb_compat_ioctl	= sfb_compat_ioctl,
};
