// SPDX-License-Identifier: GPL-2.0
/*
 * The if before the final return tests the state, not the operation it
 * calls, or tests one operation and calls another (ioctl_switch_no_default's
 * nrm states "if (X) return X(..);" in SmPL); or a case breaks out of the
 * switch: a known command reaches the -EINVAL, which stays.
 */
#include <linux/fs.h>

static long a_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case A_RESET:
		return a_reset(file);
	}
	if (a_ready(file))
		return mach.a_ioctl(cmd, arg);
	return -EINVAL;
}

static long b_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case B_RESET:
		b_reset(file);
		break;
	}
	if (mach.b_ioctl)
		return mach.b_ioctl(cmd, arg);
	return -EINVAL;
}

static long c_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case C_RESET:
		return c_reset(file);
	}
	if (mach.c_ioctl)
		return mach.c_compat_ioctl(cmd, arg);
	return -EINVAL;
}

static const struct file_operations a_fops = { .unlocked_ioctl = a_ioctl, };
static const struct file_operations b_fops = { .unlocked_ioctl = b_ioctl, };
static const struct file_operations c_fops = { .unlocked_ioctl = c_ioctl, };
