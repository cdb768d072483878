// SPDX-License-Identifier: GPL-2.0
#include <linux/blkdev.h>

static int xblk_ioctl(struct block_device *bdev, blk_mode_t mode,
		      unsigned int cmd, unsigned long arg)
{
	struct xblk *xb = bdev->bd_disk->private_data;

	switch (cmd) {
	case XBLK_FLUSH_CACHE:
		return xblk_flush(xb);
	case XBLK_LEGACY:
		return -ENOIOCTLCMD;
	default:
		return -EINVAL;
	}
}

static int xblk_compat_ioctl(struct block_device *bdev, blk_mode_t mode,
			     unsigned int cmd, unsigned long arg)
{
	if (_IOC_TYPE(cmd) != XBLK_MAGIC)
		return -EINVAL;
	return xblk_ioctl(bdev, mode, cmd, (unsigned long)compat_ptr(arg));
}

static const struct block_device_operations xblk_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= xblk_ioctl,
	.compat_ioctl	= xblk_compat_ioctl,
};
