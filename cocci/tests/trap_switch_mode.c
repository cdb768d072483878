// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static int pwr_set_mode(struct pwr *pwr, int mode)
{
	switch (mode) {
	case PWR_MODE_ON:
		return pwr_on(pwr);
	case PWR_MODE_OFF:
		return pwr_off(pwr);
	default:
		return -EINVAL;
	}
}

static long pwr_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct pwr *pwr = file->private_data;
	int mode;

	switch (cmd) {
	case PWR_SET_MODE:
		if (get_user(mode, (int __user *)arg))
			return -EFAULT;
		return pwr_set_mode(pwr, mode);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations pwr_fops = {
	.unlocked_ioctl = pwr_ioctl,
};
