// SPDX-License-Identifier: GPL-2.0
// Trap (ioctl_default_add_assign): the default takes HIDIOCGNAME by number
// but breaks first, with the initial -EINVAL, on a device not ready: a
// known command would get the new answer there, so nothing changes.
#include <linux/fs.h>

static long h_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct h_dev *h = file->private_data;
	int r = -EINVAL;

	switch (cmd) {
	case HIDIOCAPPLICATION:
		if (arg >= h->maxapplication)
			break;
		r = h->app[arg];
		break;
	default:
		if (!h->ready)
			break;
		if (_IOC_NR(cmd) == _IOC_NR(HIDIOCGNAME(0))) {
			r = copy_to_user((void __user *)arg, h->name, 8) ? -EFAULT : 8;
			break;
		}
	}
	return r;
}

static const struct file_operations h_fops = {
	.unlocked_ioctl = h_ioctl,
};
