// SPDX-License-Identifier: GPL-2.0
#include <linux/uacce.h>

static long accx_ioctl(struct uacce_queue *q, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case ACCX_CMD_START_Q:
		return accx_start_queue(q->priv);
	default:
		return -EINVAL;
	}
}

static const struct uacce_ops accx_uacce_ops = {
	.get_available_instances = accx_available,
	.ioctl = accx_ioctl,
};
