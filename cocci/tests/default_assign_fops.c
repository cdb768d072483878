// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/mutex.h>

static DEFINE_MUTEX(gpio_lock);

static long gpio_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	long ret;

	mutex_lock(&gpio_lock);
	switch (cmd) {
	case GPIO_SET:
		ret = gpio_set(arg);
		break;
	case GPIO_GET:
		ret = gpio_get((int __user *)arg);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	mutex_unlock(&gpio_lock);

	return ret;
}

static const struct file_operations gpio_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = gpio_ioctl,
};
