// SPDX-License-Identifier: GPL-2.0
#include <linux/net.h>

static int sock_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg)
{
	if (cmd == SIOCSOCKGET)
		return sock_get(sock, arg);
	return -ENOIOCTLCMD;
}

static const struct proto_ops sock_ops = {
	.ioctl = sock_ioctl,
};
