// SPDX-License-Identifier: GPL-2.0
#include <linux/atmdev.h>

static int enx_ioctl(struct atm_dev *dev, unsigned int cmd, void __user *arg)
{
	switch (cmd) {
	case ENX_SETMULT:
		return enx_set_mult(dev, arg);
	default:
		return -EINVAL;
	}
}

static int enx_compat_ioctl(struct atm_dev *dev, unsigned int cmd, void __user *arg)
{
	int ret;

	switch (cmd) {
	case ENX_SETMULT32:
		ret = enx_set_mult(dev, arg);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	return ret;
}

static int suni_x_ioctl(struct atm_dev *dev, unsigned int cmd, void __user *arg)
{
	switch (cmd) {
	case SONET_GETSTAT:
		return suni_x_get_stats(dev, arg);
	default:
		return -EINVAL;
	}
}

static const struct atmdev_ops enx_ops = {
	.ioctl		= enx_ioctl,
	.compat_ioctl	= enx_compat_ioctl,
};

static const struct atmphy_ops suni_x_ops = {
	.ioctl		= suni_x_ioctl,
};
