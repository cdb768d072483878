// SPDX-License-Identifier: GPL-2.0
/*
 * The local is bound again, or holds the size, before the test: the
 * -EINVAL answers an argument of a known command and stays.
 */
#include <linux/fs.h>
#include <linux/ioctl.h>

static long a_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int nr = _IOC_NR(cmd);

	nr = a_index(arg);
	if (nr >= A_MAX)
		return -EINVAL;
	return a_do(file, nr, arg);
}

static long b_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int n = _IOC_SIZE(cmd);

	if (n > B_MAX)
		return -EINVAL;
	return b_do(file, cmd, arg);
}

static const struct file_operations a_fops = { .unlocked_ioctl = a_ioctl, };
static const struct file_operations b_fops = { .unlocked_ioctl = b_ioctl, };
