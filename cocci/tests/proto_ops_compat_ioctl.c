// SPDX-License-Identifier: GPL-2.0
#include <linux/net.h>

static int ysk_compat_ioctl(struct socket *sock, unsigned int cmd,
			    unsigned long arg)
{
	int err;

	switch (cmd) {
	case SIOCYSKGET:
		err = ysk_get(sock->sk, compat_ptr(arg));
		break;
	default:
		err = -EINVAL;
		break;
	}
	return err;
}

static const struct proto_ops ysk_ops = {
	.compat_ioctl = ysk_compat_ioctl,
};
