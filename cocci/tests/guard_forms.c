// SPDX-License-Identifier: GPL-2.0
/*
 * Guard forms (issue 9): unlikely() around the test, a character constant
 * as the magic, a parenthesised or braced return, an && chain of command
 * inequalities, and (-EINVAL) under default:.  Each answers only commands
 * the handler does not know.
 */
#include <linux/fs.h>

static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	if (unlikely(_IOC_TYPE(cmd) != FOO_MAGIC))
		return -EINVAL;
	return a_do(f, cmd, arg);
}

static long b_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	if (_IOC_TYPE(cmd) != 'H')
		return -EINVAL;
	return b_do(f, cmd, arg);
}

static long c_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	if (_IOC_TYPE(cmd) != FOO_MAGIC)
		return (-EINVAL);
	return c_do(f, cmd, arg);
}

static long d_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	if (_IOC_TYPE(cmd) != FOO_MAGIC) {
		return -EINVAL;
	}
	return d_do(f, cmd, arg);
}

static long e_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	if (cmd != FOO_A && cmd != FOO_B)
		return -EINVAL;
	return e_do(f, cmd, arg);
}

static long g_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case FOO_A:
		return g_a(f);
	default:
		return (-EINVAL);
	}
}

static long h_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	if (cmd == FOO_A)
		return h_a(f);
	else if (cmd == FOO_B)
		return h_b(f);
	else
		return -EINVAL;
}

static const struct file_operations fops = {
	.unlocked_ioctl = a_ioctl,
	.compat_ioctl = b_ioctl,
};
static const struct file_operations fops2 = {
	.unlocked_ioctl = c_ioctl,
	.compat_ioctl = d_ioctl,
};
static const struct file_operations fops3 = {
	.unlocked_ioctl = e_ioctl,
	.compat_ioctl = g_ioctl,
};
static const struct file_operations fops4 = {
	.unlocked_ioctl = h_ioctl,
};
