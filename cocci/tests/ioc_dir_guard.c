// SPDX-License-Identifier: GPL-2.0
/*
 * A test of the direction bits of a number that the switch knows only by
 * its _IOC_NR (issue 9; drivers/usb/class/usblp.c usblp_ioctl): the
 * direction is part of the command number (_IO/_IOR/_IOW,
 * Documentation/driver-api/ioctl.rst), so a number whose direction is not
 * the command's is no command of the driver.  A test that also looks at
 * _IOC_SIZE (here the length of the user buffer) is an argument check
 * and stays.
 */
#include <linux/fs.h>

static long a_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct a_dev *a = file->private_data;
	int retval = 0;

	mutex_lock(&a->mut);
	switch (_IOC_NR(cmd)) {
	case IOCNR_GET_ID:
		if (_IOC_DIR(cmd) != _IOC_READ) {
			retval = -EINVAL;
			goto done;
		}
		retval = a_get_id(a, (void __user *)arg, _IOC_SIZE(cmd));
		break;
	case IOCNR_GET_PAIR:
		if (_IOC_DIR(cmd) != _IOC_READ ||
		    _IOC_SIZE(cmd) < sizeof(int[2])) {
			retval = -EINVAL;
			goto done;
		}
		retval = a_get_pair(a, (void __user *)arg);
		break;
	case IOCNR_SOFT_RESET:
		if (_IOC_DIR(cmd) != _IOC_NONE)
			return -EINVAL;
		retval = a_reset(a);
		break;
	default:
		retval = -ENOTTY;
	}
done:
	mutex_unlock(&a->mut);
	return retval;
}

static long b_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (_IOC_TYPE(cmd) != 'B' || _IOC_DIR(cmd) != (_IOC_READ | _IOC_WRITE))
		return -EINVAL;
	return b_dispatch(file, cmd, arg);
}

static const struct file_operations fops = {
	.unlocked_ioctl = a_ioctl,
	.compat_ioctl = b_ioctl,
};
