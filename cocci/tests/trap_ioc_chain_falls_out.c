// Trap: a test of the number in the chain can fall out without returning
// (its then branch ends in a plain call when the state says no), so a
// known number reaches the final return too: it stays.  The type guard
// still converts on its own (the handler model then leaves it out).
#include <linux/fs.h>

static long ev_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct ev_dev *dev = file->private_data;

	if (_IOC_TYPE(cmd) != 'E')
		return -EBUSY;

	if (_IOC_DIR(cmd) == _IOC_READ) {
		if ((_IOC_NR(cmd) & ~ABS_MAX) == _IOC_NR(EVIOCGABS(0))) {
			if (dev->absinfo)
				return copy_abs(dev, arg);
			ev_warn(dev);
		}
	}

	return -EINVAL;
}

static const struct file_operations ev_fops = {
	.unlocked_ioctl	= ev_ioctl,
};
