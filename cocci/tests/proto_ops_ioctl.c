// SPDX-License-Identifier: GPL-2.0
#include <linux/net.h>
#include <net/sock.h>

static int xsk_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg)
{
	struct sock *sk = sock->sk;

	switch (cmd) {
	case SIOCXSKGET:
		return xsk_get(sk, (void __user *)arg);
	default:
		return -EINVAL;
	}
}

#ifdef CONFIG_COMPAT
static int xsk_compat_ioctl(struct socket *sock, unsigned int cmd,
			    unsigned long arg)
{
	if (cmd == SIOCXSKGET)
		return xsk_get(sock->sk, compat_ptr(arg));
	return -ENOIOCTLCMD;
}
#endif

static const struct proto_ops xsk_proto_ops = {
	.family		= PF_XSK,
	.owner		= THIS_MODULE,
	.ioctl		= xsk_ioctl,
#ifdef CONFIG_COMPAT
	.compat_ioctl	= xsk_compat_ioctl,
#endif
	.setsockopt	= xsk_setsockopt,
};
