// SPDX-License-Identifier: GPL-2.0
#include <linux/netdevice.h>

static int xnet_eth_ioctl(struct net_device *dev, struct ifreq *rq, int cmd)
{
	switch (cmd) {
	case SIOCGMIIPHY:
	case SIOCGMIIREG:
	case SIOCSMIIREG:
		return phy_mii_ioctl(dev->phydev, rq, cmd);
	default:
		return -EINVAL;
	}
}

static const struct net_device_ops xnet_netdev_ops = {
	.ndo_open		= xnet_open,
	.ndo_eth_ioctl		= xnet_eth_ioctl,
};
