// Trap: an operation missing for a command the switch knows (under its
// case label: a known command the device cannot do), and a check of a
// plain argument in the same form: neither answers unknown commands.
#include <linux/fs.h>

static long dev_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct my_dev *dev = file->private_data;
	int error;

	if (!arg) {
		error = -EINVAL;
		goto done;
	}
	switch (cmd) {
	case MY_RESET:
		if (!dev->ops->reset) {
			error = -EINVAL;
			goto done;
		}
		error = dev->ops->reset(dev);
		break;
	default:
		error = -ENOTTY;
	}
done:
	return error;
}

static const struct file_operations dev_fops = {
	.unlocked_ioctl	= dev_ioctl,
};
