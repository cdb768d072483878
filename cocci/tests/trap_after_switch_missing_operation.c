// SPDX-License-Identifier: GPL-2.0
/*
 * The if before the final return tests the state, not the operation it
 * calls; or a case breaks out of the switch: a known command reaches the
 * -EINVAL, which stays.
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

static const struct file_operations a_fops = { .unlocked_ioctl = a_ioctl, };
static const struct file_operations b_fops = { .unlocked_ioctl = b_ioctl, };
