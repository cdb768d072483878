// SPDX-License-Identifier: GPL-2.0
// The type field tested through a mask of the whole command
// (drivers/block/floppy.c: only type 2 commands are floppy ioctls).
#include <linux/blkdev.h>

static int fdx_ioctl(struct block_device *bdev, blk_mode_t mode,
		     unsigned int cmd, unsigned long param)
{
	if (!((cmd & 0xff00) == 0x0200))
		return -EINVAL;

	switch (cmd) {
	case FDX_RESET:
		return fdx_reset(bdev);
	default:
		return -ENOTTY;
	}
}

static int fdy_ioctl(struct block_device *bdev, blk_mode_t mode,
		     unsigned int cmd, unsigned long param)
{
	if ((cmd & 0xff00) != 0x0300)
		return -EINVAL;

	switch (cmd) {
	case FDY_RESET:
		return fdy_reset(bdev);
	default:
		return -ENOTTY;
	}
}

static const struct block_device_operations fdx_fops = {
	.ioctl = fdx_ioctl,
};

static const struct block_device_operations fdy_fops = {
	.ioctl = fdy_ioctl,
};
