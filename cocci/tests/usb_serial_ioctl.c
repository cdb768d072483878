// SPDX-License-Identifier: GPL-2.0
#include <linux/usb/serial.h>

static int ftx_ioctl(struct tty_struct *tty, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case TIOCGFTXLAT:
		return ftx_get_latency(tty->driver_data, (void __user *)arg);
	default:
		return -EINVAL;
	}
}

static struct usb_serial_driver ftx_device = {
	.num_ports =	1,
	.ioctl =	ftx_ioctl,
};
