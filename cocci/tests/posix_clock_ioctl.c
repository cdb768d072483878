// SPDX-License-Identifier: GPL-2.0
#include <linux/posix-clock.h>

static long clkx_ioctl(struct posix_clock_context *pccontext, unsigned int cmd,
		       unsigned long arg)
{
	int ret;

	switch (cmd) {
	case CLKX_GETCAPS:
		ret = clkx_get_caps(pccontext, (void __user *)arg);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	return ret;
}

static const struct posix_clock_operations clkx_clock_ops = {
	.owner		= THIS_MODULE,
	.ioctl		= clkx_ioctl,
};
