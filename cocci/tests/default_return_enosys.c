// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static long baz_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct baz_dev *dev = filp->private_data;

	switch (cmd) {
	case BAZ_START:
		return baz_start(dev);
	case BAZ_STOP:
		baz_stop(dev);
		return 0;
	default:
		dev_dbg(dev->dev, "unknown ioctl %x\n", cmd);
		return -ENOSYS;
	}
}

static const struct file_operations baz_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = baz_ioctl,
	.llseek = noop_llseek,
};
