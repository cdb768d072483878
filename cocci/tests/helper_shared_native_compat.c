// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/compat.h>

/* Like drivers/char/lp.c: one helper serves the native and the compat
 * handler; the site belongs to the first interface of the table. */
static int prn_do_ioctl(unsigned int minor, unsigned int cmd,
			unsigned long arg, void __user *argp)
{
	int retval = 0;

	switch (cmd) {
	case PRN_RESET:
		prn_reset(minor);
		break;
	default:
		retval = -EINVAL;
	}
	return retval;
}

static long prn_compat_ioctl(struct file *file, unsigned int cmd,
			     unsigned long arg)
{
	unsigned int minor = iminor(file_inode(file));
	int ret;

	mutex_lock(&prn_mutex);
	ret = prn_do_ioctl(minor, cmd, arg, compat_ptr(arg));
	mutex_unlock(&prn_mutex);
	return ret;
}

static long prn_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	unsigned int minor = iminor(file_inode(file));
	int ret;

	mutex_lock(&prn_mutex);
	switch (cmd) {
	case PRN_SETTIMEOUT:
		ret = prn_set_timeout(minor, (void __user *)arg);
		break;
	default:
		ret = prn_do_ioctl(minor, cmd, arg, (void __user *)arg);
		break;
	}
	mutex_unlock(&prn_mutex);
	return ret;
}

static const struct file_operations prn_fops = {
	.owner		= THIS_MODULE,
	.compat_ioctl	= prn_compat_ioctl,
	.unlocked_ioctl	= prn_ioctl,
};
