// SPDX-License-Identifier: GPL-2.0
#include <linux/watchdog.h>

static long ywdt_ioctl(struct watchdog_device *wdd, unsigned int cmd,
		       unsigned long arg)
{
	switch (cmd) {
	case WDIOC_GETTEMP:
		return ywdt_temp(wdd, (int __user *)arg);
	case WDIOC_SETPRETIMEOUT:
		if (arg > wdd->timeout)
			return -EINVAL;
		return ywdt_set_pretimeout(wdd, arg);
	}
	return -ENOIOCTLCMD;
}

static const struct watchdog_ops ywdt_ops = {
	.owner	= THIS_MODULE,
	.ioctl	= ywdt_ioctl,
};
