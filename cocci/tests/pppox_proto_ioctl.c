// SPDX-License-Identifier: GPL-2.0
#include <linux/if_pppox.h>

static int pppox_x_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case PPPIOCGMRU:
		return pppox_x_get_mru(sock->sk, (int __user *)arg);
	default:
		return -EINVAL;
	}
}

static const struct pppox_proto pppox_x_proto = {
	.create	= pppox_x_create,
	.ioctl	= pppox_x_ioctl,
	.owner	= THIS_MODULE,
};
