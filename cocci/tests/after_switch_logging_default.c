// SPDX-License-Identifier: GPL-2.0
/*
 * A default that only logs the command and leaves the switch
 * (sound/core/oss/pcm_oss.c): every case returns, so only an unknown
 * command reaches the return after the switch.
 */
#include <linux/fs.h>

static long a_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case A_RESET:
		return a_reset(file);
	case A_SYNC:
		return a_sync(file);
	default:
		pr_debug("a: unknown command = 0x%x\n", cmd);
	}
	return -EINVAL;
}

static long b_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	default:
		dev_warn(b_dev(file), "unknown ioctl %u\n", cmd);
		break;
	case B_RESET:
		return b_reset(file);
	}
	return -EINVAL;
}

static const struct file_operations a_fops = { .unlocked_ioctl = a_ioctl, };
static const struct file_operations b_fops = { .unlocked_ioctl = b_ioctl, };
