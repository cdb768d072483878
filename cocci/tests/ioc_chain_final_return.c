// drivers/input/evdev.c evdev_do_ioctl(): after the fixed commands, a type
// guard, then blocks on the direction whose every test of the number
// returns; only a number none of them knows reaches the final return.
// The guard and the final return convert together.
#include <linux/fs.h>

static long ev_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct ev_dev *dev = file->private_data;
	void __user *p = (void __user *)arg;
	size_t size = _IOC_SIZE(cmd);

	switch (cmd) {
	case EVIOCGVERSION:
		return put_user(EV_VERSION, (int __user *)p);
	}

	if (_IOC_TYPE(cmd) != 'E')
		return -EINVAL;

	if (_IOC_DIR(cmd) == _IOC_READ) {

		if ((_IOC_NR(cmd) & ~EV_MAX) == _IOC_NR(EVIOCGBIT(0, 0)))
			return handle_bit(dev, _IOC_NR(cmd) & EV_MAX, size, p);

		if ((_IOC_NR(cmd) & ~ABS_MAX) == _IOC_NR(EVIOCGABS(0))) {
			if (!dev->absinfo)
				return -EINVAL;
			if (copy_to_user(p, dev->absinfo, size))
				return -EFAULT;
			return 0;
		}
	}

	if (_IOC_DIR(cmd) == _IOC_WRITE) {

		if ((_IOC_NR(cmd) & ~ABS_MAX) == _IOC_NR(EVIOCSABS(0))) {
			if (!dev->absinfo)
				return -EINVAL;
			return set_abs(dev, p, size);
		}
	}

	return -EINVAL;
}

static const struct file_operations ev_fops = {
	.unlocked_ioctl	= ev_ioctl,
};
