// SPDX-License-Identifier: GPL-2.0
#include <linux/net.h>
#include <net/sock.h>

static int zsk_setsockopt(struct socket *sock, int level, int optname,
			  sockptr_t optval, unsigned int optlen)
{
	switch (optname) {
	case ZSK_RXRING:
		return zsk_set_ring(sock->sk, optval, optlen);
	default:
		return -EINVAL;
	}
}

static int zsk_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case SIOCZSKSTAT:
		return zsk_stat(sock->sk, (void __user *)arg);
	default:
		return -ENOIOCTLCMD;
	}
}

static const struct proto_ops zsk_ops = {
	.family		= PF_ZSK,
	.setsockopt	= zsk_setsockopt,
	.ioctl		= zsk_ioctl,
};
