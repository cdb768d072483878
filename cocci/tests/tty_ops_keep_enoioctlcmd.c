// SPDX-License-Identifier: GPL-2.0
#include <linux/tty.h>
#include <linux/tty_driver.h>

static int yuart_ioctl(struct tty_struct *tty, unsigned int cmd,
		       unsigned long arg)
{
	if (_IOC_TYPE(cmd) != 'T')
		return -ENOIOCTLCMD;

	switch (cmd) {
	case TIOCMIWAIT:
		return yuart_wait_modem(tty, arg);
	}
	return -ENOIOCTLCMD;
}

static long yuart_compat_ioctl(struct tty_struct *tty, unsigned int cmd,
			       unsigned long arg)
{
	switch (cmd) {
	case TIOCMIWAIT:
		return yuart_wait_modem(tty, arg);
	default:
		return -EINVAL;
	}
}

static const struct tty_operations yuart_ops = {
	.ioctl		= yuart_ioctl,
	.compat_ioctl	= yuart_compat_ioctl,
};
