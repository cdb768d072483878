// SPDX-License-Identifier: GPL-2.0
#include <linux/rtc.h>

static int rtcx_ioctl(struct device *dev, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case RTC_VL_READ:
		return rtcx_read_vl(dev, (unsigned int __user *)arg);
	default:
		return -EINVAL;
	}
}

static const struct rtc_class_ops rtcx_ops = {
	.read_time	= rtcx_read_time,
	.ioctl		= rtcx_ioctl,
};
