// SPDX-License-Identifier: GPL-2.0
/* The ops table binds a handler of handler.c and one of its own. */
#include "demo.h"

static long local_static(struct file *f, unsigned int cmd, unsigned long arg)
{
	return -EINVAL;
}

long local_exported(struct file *f, unsigned int cmd, unsigned long arg)
{
	return -EINVAL;
}

static int adjusted(struct file *f, unsigned int cmd)
{
	return -EINVAL;
}

static long local_handler(struct file *f, unsigned int cmd, unsigned long arg)
{
	long ret;

	switch (cmd) {
	case DEMO_ONE:
		return case_only_helper(f, cmd);
	case DEMO_TWO:
		break;
	default:
	case DEMO_SIX:
		if (arg == 3)
			return fall_helper(f, cmd);
		break;
	}
	if (cmd == DEMO_THREE || cmd == DEMO_FOUR)
		return equal_only_helper(f, cmd);
	ret = trynext_helper(f, cmd);
	if (ret != -ENOIOCTLCMD)
		return ret;
	if (_IOC_TYPE(cmd) == 'd')
		return local_static(f, cmd, arg);
	if (arg == 1)
		return local_exported(f, cmd, arg);
	if (arg == 2) {
		ret = adjusted(f, cmd);
		if (ret == 1)
			ret = -EFAULT;
		return ret;
	}
	return shared_helper(f, cmd, arg);
}

static const struct file_operations demo_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= ext_handler,
	.compat_ioctl	= local_handler,
};

static int demo_probe(struct tty_driver *drv)
{
	struct tty_operations *ops = drv->ops;

	ops->ioctl = ext_tty_handler;
	return 0;
}

static int demo_hwdep_new(struct snd_card *card)
{
	struct snd_hwdep *hw;

	hw->ops.ioctl = ext_hwdep_ioctl;
	return 0;
}
