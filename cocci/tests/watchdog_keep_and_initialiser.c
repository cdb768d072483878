// SPDX-License-Identifier: GPL-2.0
#include <linux/watchdog.h>

/* A kept -ENOIOCTLCMD (watchdog core tries its own commands next) and an
 * -EINVAL initialiser in one handler: the rule that leaves the first alone
 * must not hide the handler from the rule that fixes the second. */
static long zwdt_ioctl(struct watchdog_device *wdd, unsigned int cmd,
		       unsigned long arg)
{
	struct zwdt *wdt = watchdog_get_drvdata(wdd);
	int ret = -EINVAL;

	if (!wdt->has_temp)
		return -ENOIOCTLCMD;

	switch (cmd) {
	case WDIOC_GETTEMP:
		ret = put_user(zwdt_temp(wdt), (int __user *)arg);
		break;
	}
	return ret;
}

static const struct watchdog_ops zwdt_ops = {
	.owner	= THIS_MODULE,
	.ioctl	= zwdt_ioctl,
};
