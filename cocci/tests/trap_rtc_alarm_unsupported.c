// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: an RTC that cannot raise alarm interrupts answers the alarm ioctls
 * with -EINVAL.  These are known commands, and user space reads the answer
 * as "not supported here": tools/testing/selftests/rtc/rtctest.c and LTP
 * rtc01 skip their alarm tests on EINVAL.  Neither return is an
 * unknown-command answer, so nothing changes; the core (drivers/rtc/dev.c)
 * already answers commands that no case names.
 */
#include <linux/rtc.h>

static int foo_rtc_ioctl(struct device *dev, unsigned int cmd, unsigned long arg)
{
	struct foo_rtc *rtc = dev_get_drvdata(dev);

	switch (cmd) {
	case RTC_AIE_ON:
	case RTC_AIE_OFF:
		if (!rtc->irq)
			return -EINVAL;
		return foo_rtc_alarm_irq(rtc, cmd == RTC_AIE_ON);
	case RTC_ALM_READ:
	case RTC_ALM_SET:
		return -EINVAL;
	default:
		return -ENOIOCTLCMD;
	}
}

static int bar_rtc_ioctl(struct device *dev, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case RTC_VL_READ:
		return bar_rtc_vl_read(dev, arg);
	case RTC_AIE_ON:
	case RTC_AIE_OFF:
	default:
		return -EINVAL;
	}
}

static const struct rtc_class_ops foo_rtc_ops = {
	.ioctl = foo_rtc_ioctl,
};

static const struct rtc_class_ops bar_rtc_ops = {
	.ioctl = bar_rtc_ioctl,
};
