// SPDX-License-Identifier: GPL-2.0
#include <linux/watchdog.h>

static long xwdt_ioctl(struct watchdog_device *wdd, unsigned int cmd,
		       unsigned long arg)
{
	struct xwdt *wdt = watchdog_get_drvdata(wdd);
	int ret = -EINVAL;

	switch (cmd) {
	case WDIOC_GETPRETIMEOUT:
		ret = put_user(wdt->pretimeout, (int __user *)arg);
		break;
	case WDIOC_SETPRETIMEOUT:
		ret = xwdt_set_pretimeout(wdt, arg);
		break;
	}
	return ret;
}

static const struct watchdog_ops xwdt_ops = {
	.owner	= THIS_MODULE,
	.start	= xwdt_start,
	.stop	= xwdt_stop,
	.ioctl	= xwdt_ioctl,
};
