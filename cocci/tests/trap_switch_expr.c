// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: the shapes of switch_on_command_expr.c where the default does not
 * answer an unknown command: a switch on the argument with a mask, a
 * switch on two bits of the number (its default is dead), a recognised
 * command falling into default: break; before the final return, and a
 * final return that does not directly follow the switch.
 */
#include <linux/fs.h>

static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	switch (arg & ~FOO_FLAGS_MASK) {
	case FOO_MODE_A:
		return a_mode(f, cmd);
	default:
		return -EINVAL;
	}
}

static long b_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	switch (_IOC_NR(cmd) & 3) {
	case 0:
	case 1:
	case 2:
	case 3:
		return b_do(f, cmd, arg);
	default:
		return -EINVAL;
	}
}

static long c_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case FOO_A:
		return c_a(f, arg);
	case FOO_OLD_A:
	default:
		break;
	}
	return -EINVAL;
}

static long d_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case FOO_A:
		return d_a(f, arg);
	default:
		break;
	}
	if (d_legacy(f))
		return 0;
	return -EINVAL;
}

static const struct file_operations a_fops = {
	.unlocked_ioctl = a_ioctl,
	.compat_ioctl = b_ioctl,
};

static const struct file_operations c_fops = {
	.unlocked_ioctl = c_ioctl,
	.compat_ioctl = d_ioctl,
};
