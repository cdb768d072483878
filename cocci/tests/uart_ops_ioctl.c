// SPDX-License-Identifier: GPL-2.0
#include <linux/serial_core.h>

static int qsp_ioctl(struct uart_port *port, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case TIOCQSPGETCFG:
		return qsp_get_cfg(port, (void __user *)arg);
	case TIOCQSPSETCFG:
		if (!port->private_data)
			return -ENOIOCTLCMD;
		return qsp_set_cfg(port, (void __user *)arg);
	default:
		return -EINVAL;
	}
}

static const struct uart_ops qsp_uart_ops = {
	.tx_empty	= qsp_tx_empty,
	.ioctl		= qsp_ioctl,
};
