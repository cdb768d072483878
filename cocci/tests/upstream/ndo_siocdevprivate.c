// SPDX-License-Identifier: GPL-2.0
// ndo_siocdevprivate: dev_siocdevprivate() answers -EOPNOTSUPP for a
// device without the operation, so an unknown private command gets that
// value from a driver's handler too; a -EOPNOTSUPP default stays.
#include <linux/netdevice.h>

static int tnl_siocdevprivate(struct net_device *dev, struct ifreq *ifr,
			      void __user *data, int cmd)
{
	int err = 0;

	switch (cmd) {
	case SIOCGETTUNNEL:
		err = tnl_get(dev, data);
		break;
	default:
		err = -EINVAL;
	}
	return err;
}

static int wan_siocdevprivate(struct net_device *dev, struct ifreq *ifr,
			      void __user *data, int cmd)
{
	switch (cmd) {
	case SIOCDEVPRIVATE:
		return wan_get(dev, data);
	default:
		return -EOPNOTSUPP;
	}
}

static const struct net_device_ops tnl_netdev_ops = {
	.ndo_siocdevprivate	= tnl_siocdevprivate,
};

static const struct net_device_ops wan_netdev_ops = {
	.ndo_siocdevprivate	= wan_siocdevprivate,
};
