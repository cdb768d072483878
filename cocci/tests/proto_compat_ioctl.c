// SPDX-License-Identifier: GPL-2.0
#include <net/sock.h>

static int xraw_compat_ioctl(struct sock *sk, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case SIOCXRAWGET:
		return xraw_get(sk, compat_ptr(arg));
	default:
		return -EINVAL;
	}
}

struct proto xraw_prot = {
	.name		   = "XRAW",
	.compat_ioctl	   = xraw_compat_ioctl,
};
