// SPDX-License-Identifier: GPL-2.0
#include <linux/fb.h>

static int xfb_ioctl(struct fb_info *info, unsigned int cmd, unsigned long arg)
{
	struct xfb_par *par = info->par;

	if (cmd != FBIO_WAITFORVSYNC)
		return -EINVAL;

	return xfb_wait_for_vsync(par);
}

static const struct fb_ops xfb_ops = {
	.owner		= THIS_MODULE,
	FB_DEFAULT_IOMEM_OPS,
	.fb_ioctl	= xfb_ioctl,
};
