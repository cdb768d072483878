// SPDX-License-Identifier: GPL-2.0
/*
 * Switches on an expression of the command (issue 9): the number without
 * its size bits, a macro of the command (_IOC_DIR, a driver macro), and a
 * default-less switch whose every case returns, with preprocessor lines
 * before the first case and a default that only breaks, followed by the
 * final return.
 */
#include <linux/fs.h>

#define EA_IOCTL(cmd) ((cmd) & 0xff)

static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	switch (cmd & ~IOCSIZE_MASK) {
	case FOO_GET_NAME(0):
		return a_name(f, arg, _IOC_SIZE(cmd));
	default:
		return -EINVAL;
	}
}

static long b_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	long ret;

	switch (_IOC_DIR(cmd)) {
	case _IOC_READ:
		ret = b_read(f, cmd, arg);
		break;
	case _IOC_WRITE:
		ret = b_write(f, cmd, arg);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	return ret;
}

static long c_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	switch (EA_IOCTL(cmd)) {
	case EA_IOCTL(EA_GET_INFO):
		return c_info(f, arg);
	default:
		return -ENOSYS;
	}
}

static long d_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
#ifdef CONFIG_FOO_DEBUG
	case FOO_DEBUG:
		return d_debug(f);
#endif
	case FOO_A:
		return d_a(f, arg);
	case FOO_B:
		return d_b(f, arg);
	default:
		break;
	}
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
