// SPDX-License-Identifier: GPL-2.0
#include <linux/tty.h>
#include <linux/tty_driver.h>

static int xuart_ioctl(struct tty_struct *tty, unsigned int cmd,
		       unsigned long arg)
{
	struct xuart_port *port = tty->driver_data;

	switch (cmd) {
	case TIOCGSERIAL:
		return xuart_get_serial(port, (void __user *)arg);
	case TIOCMIWAIT:
		return xuart_wait_modem(port, arg);
	default:
		return -EINVAL;
	}
}

static const struct tty_operations xuart_ops = {
	.open	= xuart_open,
	.close	= xuart_close,
	.ioctl	= xuart_ioctl,
};
