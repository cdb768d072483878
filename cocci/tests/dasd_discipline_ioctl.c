// SPDX-License-Identifier: GPL-2.0
#include "dasd_int.h"

static int dasd_x_ioctl(struct dasd_block *block, unsigned int cmd, void __user *argp)
{
	switch (cmd) {
	case BIODASDGATTR:
		return dasd_x_get_attrib(block->base, argp);
	default:
		return -EINVAL;
	}
}

static struct dasd_discipline dasd_x_discipline = {
	.name = "X",
	.ioctl = dasd_x_ioctl,
};
