// SPDX-License-Identifier: GPL-2.0
#include "tape.h"

static int tape_x_ioctl(struct tape_device *device, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case TAPE390_DISPLAY:
		return tape_x_display(device, arg);
	default:
		return -EINVAL;
	}
}

static struct tape_discipline tape_discipline_x = {
	.owner = THIS_MODULE,
	.ioctl_fn = tape_x_ioctl,
};
