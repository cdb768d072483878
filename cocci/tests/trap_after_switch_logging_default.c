// SPDX-License-Identifier: GPL-2.0
/*
 * Defaults that do more than log, fall into a case, or that a case falls
 * into: a known command reaches the return after the switch, which stays.
 */
#include <linux/fs.h>

static long a_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case A_RESET:
		return a_reset(file);
	case A_OLD:
	default:
		pr_debug("a: unknown command = 0x%x\n", cmd);
	}
	return -EINVAL;
}

static long b_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	default:
		pr_info("b: command 0x%x\n", cmd);
	case B_RESET:
		b_reset(file);
		break;
	}
	return -EINVAL;
}

static long c_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case C_RESET:
		return c_reset(file);
	default:
		pr_debug("c: command 0x%x\n", cmd);
		c_stop(file);
	}
	return -EINVAL;
}

static const struct file_operations a_fops = { .unlocked_ioctl = a_ioctl, };
static const struct file_operations b_fops = { .unlocked_ioctl = b_ioctl, };
static const struct file_operations c_fops = { .unlocked_ioctl = c_ioctl, };
