// SPDX-License-Identifier: GPL-2.0
// A default that answers -ENOTSUPP (524, kernel-internal: user space sees
// "Unknown error 524"), -EOPNOTSUPP or -EFAULT on a file_operations-like
// member (interfaces.tsv, also_from): each becomes -ENOTTY.  Shaped after
// dvb_frontend_handle_ioctl(), the landisk gio_ioctl() and usbtest_ioctl().
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/uaccess.h>
#include <media/dvbdev.h>

#define FOO_GET	_IOR('f', 1, int)
#define FOO_SET	_IOW('f', 2, int)

static int fe_ioctl(struct file *file, unsigned int cmd, void *parg)
{
	int err;

	switch (cmd) {
	case FOO_GET:
		err = fe_get(file, parg);
		break;
	case FOO_SET:
		err = fe_set(file, parg);
		break;
	default:
		return -ENOTSUPP;
	}
	return err;
}

static struct dvb_device fe_template = {
	.kernel_ioctl	= fe_ioctl,
};

static long gio_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	unsigned int data;

	switch (cmd) {
	case FOO_GET:
		data = gio_read();
		break;
	default:
		return -EFAULT;
		break;
	}
	return put_user(data, (int __user *)arg);
}

static long test_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int retval;

	mutex_lock(&test_lock);
	switch (cmd) {
	case FOO_SET:
		retval = test_run(arg);
		break;
	default:
		retval = -EOPNOTSUPP;
		break;
	}
	mutex_unlock(&test_lock);
	return retval;
}

static const struct file_operations gio_fops = {
	.unlocked_ioctl	= gio_ioctl,
};

static const struct file_operations test_fops = {
	.unlocked_ioctl	= test_ioctl,
};
