// SPDX-License-Identifier: GPL-2.0
/*
 * Trap (ioctl_cmd_range_split): the test joined to the command range
 * stays when it calls a function (testing the range first would skip the
 * call for an unknown command), names the command, or assigns; and when
 * the if is nested under another test.
 */
#include <linux/fs.h>

#define FOO_MIN 0x4500
#define FOO_MAX 0x450F

static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	if (!capable(CAP_SYS_ADMIN) || cmd < FOO_MIN || cmd > FOO_MAX)
		return -EINVAL;
	return a_do(cmd, arg);
}

static long b_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	if (_IOC_SIZE(cmd) > 64 || cmd < FOO_MIN || cmd > FOO_MAX)
		return -EINVAL;
	return b_do(cmd, arg);
}

static long c_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct c_dev *c;

	if (!(c = f->private_data) || cmd < FOO_MIN || cmd > FOO_MAX)
		return -EINVAL;
	return c_do(c, cmd, arg);
}

static long d_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct d_dev *d = f->private_data;

	if (d->raw) {
		if (!arg || cmd < FOO_MIN || cmd > FOO_MAX)
			return -EINVAL;
	}
	return d_do(d, cmd, arg);
}

static const struct file_operations a_fops = { .unlocked_ioctl = a_ioctl, };
static const struct file_operations b_fops = { .unlocked_ioctl = b_ioctl, };
static const struct file_operations c_fops = { .unlocked_ioctl = c_ioctl, };
static const struct file_operations d_fops = { .unlocked_ioctl = d_ioctl, };
