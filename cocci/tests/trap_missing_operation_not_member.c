// Trap: under the default of the switch on the command, an -EINVAL behind
// a missing value that is no operation: a local the handler looked up by
// a call (a validation of the command's argument, not a table entry
// without a function), or a test spelled "== NULL".  ioctl_missing_operation
// takes only if (!E->f), if (!E.f), and a local last assigned a member,
// stated in SmPL (cocci/shapes/ioctl_missing_operation.smpl).
#include <linux/fs.h>

static long lk_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct lk_dev *dev = file->private_data;
	lk_func_t *func;
	int ret;

	switch (cmd) {
	case LK_RESET:
		ret = lk_reset(dev);
		break;
	default:
		func = lk_lookup(dev, arg);
		if (!func) {
			ret = -EINVAL;
			goto out;
		}
		ret = func(dev, cmd, arg);
	}
out:
	return ret;
}

static long nl_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct nl_dev *dev = file->private_data;
	int ret;

	switch (cmd) {
	case NL_RESET:
		ret = nl_reset(dev);
		break;
	default:
		if (dev->ops->ioctl == NULL) {
			ret = -EINVAL;
			goto out;
		}
		ret = dev->ops->ioctl(dev, cmd, arg);
	}
out:
	return ret;
}

static const struct file_operations lk_fops = {
	.unlocked_ioctl	= lk_ioctl,
};

static const struct file_operations nl_fops = {
	.unlocked_ioctl	= nl_ioctl,
};
