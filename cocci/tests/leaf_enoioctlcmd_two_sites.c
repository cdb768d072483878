// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

/* Two leaf returns in one handler: spatch binds both positions of the
 * nest in one environment, and each must be reported (net/socket.c
 * compat_sock_ioctl_trans before the fallback rule). */
static long qdev_compat_ioctl(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	struct qdev *q = file->private_data;

	switch (cmd) {
	case QDEV_GET_STAMP:
		if (!q->ops->get_stamp)
			return -ENOIOCTLCMD;
		return q->ops->get_stamp(q, compat_ptr(arg));
	case QDEV_RESET:
		return qdev_reset(q);
	}

	return -ENOIOCTLCMD;
}

static const struct file_operations qdev_fops = {
	.compat_ioctl = qdev_compat_ioctl,
};
