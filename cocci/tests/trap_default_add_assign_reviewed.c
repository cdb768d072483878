// SPDX-License-Identifier: GPL-2.0
// Traps (ioctl_default_add_assign), a reviewer's cases: a known command
// can still leave the default with the initialiser, which setting -ENOTTY
// first would change: an argument check inside the block of a command
// test (h1), a test of the command's size (h2), the value handed to a
// helper by address (e_ioctl()); and, for ioctl_switch_add_default too, a
// command handled after the switch (t_ioctl()).
#include <linux/fs.h>

static long h1_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
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
		if (_IOC_NR(cmd) == _IOC_NR(HIDIOCGNAME(0))) {
			if (!arg)
				break;
			r = copy_to_user((void __user *)arg, h->name, 8) ? -EFAULT : 8;
			break;
		}
	}
	return r;
}

static const struct file_operations h1_fops = {
	.unlocked_ioctl = h1_ioctl,
};

static long h2_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
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
		if (_IOC_TYPE(cmd) != 'H' || _IOC_NR(cmd) != _IOC_NR(HIDIOCGNAME(0)))
			break;
		if (_IOC_SIZE(cmd) < 8)
			break;
		r = copy_to_user((void __user *)arg, h->name, 8) ? -EFAULT : 8;
		break;
	}
	return r;
}

static const struct file_operations h2_fops = {
	.unlocked_ioctl = h2_ioctl,
};

static void e_ext_ioctl(unsigned int cmd, unsigned long arg, int *ret)
{
	if (cmd == E_EXT && arg < 4)
		*ret = e_ext(arg);
}

static long e_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;

	switch (cmd) {
	case E_SET:
		if (arg > E_MAX)
			break;
		ret = e_set(arg);
		break;
	default:
		e_ext_ioctl(cmd, arg, &ret);
		break;
	}
	return ret;
}

static const struct file_operations e_fops = {
	.unlocked_ioctl = e_ioctl,
};

static long t_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct t_dev *t = file->private_data;
	int ret = -EINVAL;

	mutex_lock(&t->lock);
	switch (cmd) {
	case T_SET:
		if (arg > T_MAX)
			break;
		ret = t_set(t, arg);
		break;
	}
	if (cmd == T_RESET) {
		if (arg)
			goto out;
		mutex_unlock(&t->lock);
		return t_reset(t);
	}
out:
	mutex_unlock(&t->lock);
	return ret;
}

static const struct file_operations t_fops = {
	.unlocked_ioctl = t_ioctl,
};
