// SPDX-License-Identifier: GPL-2.0
#include <linux/atmdev.h>

static int brx_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case ATM_SETBACKEND:
		return brx_set_backend(sock, (void __user *)arg);
	default:
		return -EINVAL;
	}
}

static struct atm_ioctl brx_ioctl_ops = {
	.owner = THIS_MODULE,
	.ioctl = brx_ioctl,
};
