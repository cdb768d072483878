// SPDX-License-Identifier: GPL-2.0
#include <linux/tty_driver.h>

static int vcon_ioctl(struct tty_struct *tty, unsigned int cmd,
		      unsigned long arg)
{
	switch (cmd) {
	case TIOCVCONGET:
		return vcon_get(tty, arg);
	default:
		return -EINVAL;
	}
}

static void vcon_init_ops(struct tty_operations *ops)
{
	ops->write = vcon_write;
	ops->ioctl = vcon_ioctl;
}
