// SPDX-License-Identifier: GPL-2.0
// Helpers called only in the then branch of "if (cmd == A)" or
// "if (cmd == A || cmd == B)" see only those commands; the handler answers
// the other commands itself.  Neither helper is followed.
#include <linux/fs.h>

static long lamp_set(struct lamp *lamp, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case LAMP_SET:
		return lamp_write(lamp, arg);
	default:
		return -EINVAL;
	}
}

static long lamp_query(struct lamp *lamp, unsigned int cmd, void __user *argp)
{
	long ret;

	switch (cmd) {
	case LAMP_GET:
		ret = lamp_read(lamp, argp);
		break;
	case LAMP_GET_MAX:
		ret = lamp_read_max(lamp, argp);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	return ret;
}

static long lamp_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct lamp *lamp = file->private_data;

	if (cmd == LAMP_SET)
		return lamp_set(lamp, cmd, arg);
	if (cmd == LAMP_GET || cmd == LAMP_GET_MAX) {
		long ret;

		mutex_lock(&lamp->lock);
		ret = lamp_query(lamp, cmd, (void __user *)arg);
		mutex_unlock(&lamp->lock);
		return ret;
	}
	return -ENOTTY;
}

static const struct file_operations lamp_fops = {
	.unlocked_ioctl = lamp_ioctl,
};
