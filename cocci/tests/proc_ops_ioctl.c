// SPDX-License-Identifier: GPL-2.0
#include <linux/proc_fs.h>

static long pcix_proc_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case PCIIOC_CONTROLLER:
		return pcix_controller(file);
	default:
		return -EINVAL;
	}
}

static long pcix_proc_compat_ioctl(struct file *file, unsigned int cmd,
				   unsigned long arg)
{
	switch (cmd) {
	case PCIIOC_MMAP_IS_IO:
		return pcix_mmap_io(file);
	default:
		return -ENOSYS;
	}
}

static const struct proc_ops pcix_proc_ops = {
	.proc_ioctl	= pcix_proc_ioctl,
	.proc_compat_ioctl = pcix_proc_compat_ioctl,
};
