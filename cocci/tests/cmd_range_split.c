// SPDX-License-Identifier: GPL-2.0
/*
 * drivers/scsi/esas2r/esas2r_ioctl.c esas2r_ioctl_handler(): one if tests
 * the argument for NULL and the range of the driver's own command numbers,
 * and answers both with -ENOTSUPP (the proc entry's interface lists it in
 * also_from).  Every command outside the range is unknown: the output tests
 * the range first and answers -ENOTTY; the NULL test keeps -ENOTSUPP
 * (ioctl_cmd_range_split).
 */
#include <linux/proc_fs.h>

#define FOO_IOCTL_MIN 0x4500
#define FOO_IOCTL_MAX 0x450F

static long foo_proc_ioctl(struct file *fp, unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;

	if ((argp == NULL)
	    || (cmd < FOO_IOCTL_MIN)
	    || (cmd > FOO_IOCTL_MAX))
		return -ENOTSUPP;

	return foo_do(cmd, argp);
}

static const struct proc_ops foo_proc_ops = {
	.proc_ioctl = foo_proc_ioctl,
};
