// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static long dbfsx_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case HYPFS_DIAG304:
		return dbfsx_diag304(file, (void __user *)arg);
	default:
		return -EINVAL;
	}
}

static long fsckx_ioctl(struct thread_with_stdio *stdio, unsigned int cmd,
			unsigned long arg)
{
	switch (cmd) {
	case FSCKX_IOC_ABORT:
		return fsckx_abort(stdio);
	default:
		return -EINVAL;
	}
}

static struct hypfs_dbfs_file dbfsx_file = {
	.name		= "diag_304",
	.unlocked_ioctl	= dbfsx_ioctl,
};

static const struct thread_with_stdio_ops fsckx_ops = {
	.fn		= fsckx_thread_fn,
	.unlocked_ioctl	= fsckx_ioctl,
};
