// SPDX-License-Identifier: GPL-2.0
#include "bcache.h"

static int flash_x_ioctl(struct bcache_device *d, blk_mode_t mode,
			 unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case BCACHE_IOC_FLUSH:
		return flash_x_flush(d);
	default:
		return -EINVAL;
	}
}

void flash_x_init(struct bcache_device *d)
{
	d->ioctl = flash_x_ioctl;
}
