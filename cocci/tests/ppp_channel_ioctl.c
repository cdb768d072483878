// SPDX-License-Identifier: GPL-2.0
#include <linux/ppp_channel.h>

static int sync_x_ioctl(struct ppp_channel *chan, unsigned int cmd, unsigned long arg)
{
	int ret;

	switch (cmd) {
	case PPPIOCGFLAGS:
		ret = sync_x_get_flags(chan->private, (int __user *)arg);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	return ret;
}

static const struct ppp_channel_ops sync_x_ops = {
	.start_xmit = sync_x_send,
	.ioctl     = sync_x_ioctl,
};
