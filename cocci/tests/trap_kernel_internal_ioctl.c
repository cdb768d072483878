// SPDX-License-Identifier: GPL-2.0
#include <net/sock.h>
#include <linux/hdlc.h>

/* struct proto's ->ioctl is called by inet_ioctl() for the protocol layer:
 * kernel-internal, not in interfaces.tsv. */
static int xproto_ioctl(struct sock *sk, int cmd, int *karg)
{
	switch (cmd) {
	case SIOCOUTQ:
		*karg = sk_wmem_alloc_get(sk);
		return 0;
	default:
		return -EINVAL;
	}
}

static struct proto xproto = {
	.name	= "XPROTO",
	.ioctl	= xproto_ioctl,
};

static int xhdlc_ioctl(struct net_device *dev, struct if_settings *ifs)
{
	switch (ifs->type) {
	case IF_GET_PROTO:
		return xhdlc_get(dev, ifs);
	default:
		return -EINVAL;
	}
}

static struct hdlc_proto xhdlc_proto = {
	.ioctl	= xhdlc_ioctl,
	.module	= THIS_MODULE,
};
