// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/ioctl.h>

static long dac_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;

	if (_IOC_TYPE(cmd) != DAC_MAGIC || _IOC_NR(cmd) >= DAC_NR_IOCTLS)
		return -EINVAL;
	/* a recognised command with a bad size: -EINVAL is right */
	if (_IOC_SIZE(cmd) > sizeof(struct dac_args))
		return -EINVAL;

	return dac_table[_IOC_NR(cmd)](file, argp);
}

static const struct file_operations dac_fops = {
	.unlocked_ioctl = dac_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};
