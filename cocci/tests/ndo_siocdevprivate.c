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

/* ndo_tunnel_ctl: ip_tunnel_siocdevprivate() hands it every private command */
static int tnl_ctl(struct net_device *dev, struct ip_tunnel_parm_kern *p, int cmd)
{
	switch (cmd) {
	case SIOCGETTUNNEL:
		return tnl_get_parm(dev, p);
	default:
		return -EINVAL;
	}
}

static const struct net_device_ops tnl_netdev_ops = {
	.ndo_siocdevprivate	= tnl_siocdevprivate,
	.ndo_tunnel_ctl		= tnl_ctl,
};

static const struct net_device_ops wan_netdev_ops = {
	.ndo_siocdevprivate	= wan_siocdevprivate,
};
