// SPDX-License-Identifier: GPL-2.0
#include <linux/fb.h>

static int yfb_ioctl(struct fb_info *info, unsigned int cmd, unsigned long arg)
{
	int ret = 0;

	switch (cmd) {
	case FBIO_WAITFORVSYNC:
		ret = yfb_vsync(info);
		break;
	case FBIOGET_VBLANK:
		ret = yfb_vblank(info, (void __user *)arg);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	return ret;
}

static const struct fb_ops yfb_ops = {
	.owner		= THIS_MODULE,
	.fb_ioctl	= yfb_ioctl,
};
