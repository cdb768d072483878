// SPDX-License-Identifier: GPL-2.0
/*
 * Guards that look like a type guard with exceptions but also test the
 * argument or the state, or a field that is not the type: a known
 * command gets the -EINVAL, which stays.
 */
#include <linux/fs.h>
#include <linux/ioctl.h>

static long a_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (_IOC_TYPE(cmd) != A_MAGIC && !arg)
		return -EINVAL;
	return a_do(file, cmd, arg);
}

static long b_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (cmd != B_GET && cmd != B_SET && b_busy(file))
		return -EINVAL;
	return b_do(file, cmd, arg);
}

static long c_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (((cmd >> 4) & 0xff) != 'C')
		return -EINVAL;
	return c_do(file, cmd, arg);
}

static long d_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (_IOC_TYPE(cmd) != D_MAGIC && cmd != D_OLD || arg > 4)
		return -EINVAL;
	return d_do(file, cmd, arg);
}

static long e_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	/* != binds first: this tests (cmd >> 8) & 1 */
	if ((cmd >> 8) & 0xff != 'E')
		return -EINVAL;
	return e_do(file, cmd, arg);
}

static const struct file_operations a_fops = { .unlocked_ioctl = a_ioctl, };
static const struct file_operations b_fops = { .unlocked_ioctl = b_ioctl, };
static const struct file_operations c_fops = { .unlocked_ioctl = c_ioctl, };
static const struct file_operations d_fops = { .unlocked_ioctl = d_ioctl, };
static const struct file_operations e_fops = { .unlocked_ioctl = e_ioctl, };
