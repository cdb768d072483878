// SPDX-License-Identifier: GPL-2.0
#include <media/dvbdev.h>

static int fdtv_ca_ioctl(struct file *file, unsigned int cmd, void *arg)
{
	switch (cmd) {
	case CA_RESET:
		return fdtv_ca_reset(file->private_data);
	default:
		return -EINVAL;
	}
}

static const struct dvb_device fdtv_ca = {
	.users		= 1,
	.readers	= 1,
	.writers	= 1,
	.kernel_ioctl	= fdtv_ca_ioctl,
};
