// SPDX-License-Identifier: GPL-2.0
// The same tests on an argument, or on other bits of the command, are no
// type guard: they stay.
#include <linux/blkdev.h>

static int fdz_ioctl(struct block_device *bdev, blk_mode_t mode,
		     unsigned int cmd, unsigned long param)
{
	if ((param & 0xff00) != 0x0200)
		return -EINVAL;
	if ((cmd & 0x00ff) != 0x0002)
		return -EINVAL;
	if (param)
		return -EINVAL;

	switch (cmd) {
	case FDZ_RESET:
		return fdz_reset(bdev);
	default:
		return -ENOTTY;
	}
}

static const struct block_device_operations fdz_fops = {
	.ioctl = fdz_ioctl,
};
