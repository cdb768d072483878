// SPDX-License-Identifier: GPL-2.0
// Sub-handler loops whose fall-out a known command reaches too: a loop
// that breaks when a sub-handler took the command, one whose test lets 0
// (a handled command) fall out, a case that breaks out of the switch, and
// a default that is not the last label.
#include <linux/fs.h>

static long a_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct sub *s;
	long ret = 0;

	switch (cmd) {
	case A_VERSION:
		return 1;
	default:
		for_each_sub(s) {
			ret = s->ioctl(s, cmd, arg);
			if (ret == 0)
				break;
			if (ret != -ENODEV)
				return ret;
		}
	}

	return -EINVAL;
}

static long b_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct sub *s;
	long ret;

	switch (cmd) {
	case A_VERSION:
		return 1;
	default:
		for_each_sub(s) {
			ret = s->ioctl(s, cmd, arg);
			if (ret)
				return ret;
		}
	}

	return -EINVAL;
}

static long c_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct sub *s;
	long ret;

	switch (cmd) {
	case A_VERSION:
		c_version();
		break;
	default:
		for_each_sub(s) {
			ret = s->ioctl(s, cmd, arg);
			if (ret != -ENODEV)
				return ret;
		}
	}

	return -EINVAL;
}

static long d_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct sub *s;
	long ret;

	switch (cmd) {
	default:
		for_each_sub(s) {
			ret = s->ioctl(s, cmd, arg);
			if (ret != -ENODEV)
				return ret;
		}
	case A_VERSION:
		return 1;
	}

	return -EINVAL;
}

static const struct file_operations a_fops = { .unlocked_ioctl = a_ioctl };
static const struct file_operations b_fops = { .unlocked_ioctl = b_ioctl };
static const struct file_operations c_fops = { .unlocked_ioctl = c_ioctl };
static const struct file_operations d_fops = { .unlocked_ioctl = d_ioctl };
