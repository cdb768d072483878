// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/compat.h>

static long bar_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case BAR_GET:
		return bar_get(file, (void __user *)arg);
	default:
		return -ENOTTY;
	}
}

#ifdef CONFIG_COMPAT
static long bar_compat_ioctl(struct file *file, unsigned int cmd,
			     unsigned long arg)
{
	switch (cmd) {
	case BAR_GET32:
		return bar_get32(file, compat_ptr(arg));
	default:
		return -EINVAL;
	}
}
#endif

static const struct file_operations bar_fops = {
	.owner		= THIS_MODULE,
	.open		= bar_open,
	.unlocked_ioctl	= bar_ioctl,
#ifdef CONFIG_COMPAT
	.compat_ioctl	= bar_compat_ioctl,
#endif
};
