// SPDX-License-Identifier: GPL-2.0
/*
 * Chains of switches on the command whose initialiser a recognised
 * command can reach: it stays.  A case that breaks before it assigns
 * (a_ioctl), a test of the command between the switches (b_ioctl), a
 * jump that does not assign first (c_ioctl), an assignment outside any
 * block (d_ioctl).
 */
#include <linux/fs.h>

static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	long ret = -EINVAL;

	switch (cmd) {
	case A_ONE:
		if (!arg)
			break;
		ret = a_one(f, arg);
		goto done;
	default:
		break;
	}
	switch (cmd) {
	case A_TWO:
		ret = a_two(f, arg);
		goto done;
	default:
		break;
	}
done:
	return ret;
}

static long b_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	long ret = -EINVAL;

	switch (cmd) {
	case B_ONE:
		ret = b_one(f, arg);
		goto done;
	default:
		break;
	}
	if (cmd == B_OLD)
		b_log(f);
	switch (cmd) {
	case B_TWO:
		ret = b_two(f, arg);
		goto done;
	default:
		break;
	}
done:
	return ret;
}

static long c_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	long ret = -EINVAL;

	switch (cmd) {
	case C_ONE:
		ret = c_one(f, arg);
		goto done;
	default:
		break;
	}
	if (c_busy(f))
		goto done;
	switch (cmd) {
	case C_TWO:
		ret = c_two(f, arg);
		goto done;
	default:
		break;
	}
done:
	return ret;
}

static long d_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	long ret = -EINVAL;

	switch (cmd) {
	case D_ONE:
		ret = d_one(f, arg);
		goto done;
	default:
		break;
	}
	ret = d_prepare(f);
	switch (cmd) {
	case D_TWO:
		ret = d_two(f, arg);
		goto done;
	default:
		break;
	}
done:
	return ret;
}

static const struct file_operations a_fops = { .unlocked_ioctl = a_ioctl, };
static const struct file_operations b_fops = { .unlocked_ioctl = b_ioctl, };
static const struct file_operations c_fops = { .unlocked_ioctl = c_ioctl, };
static const struct file_operations d_fops = { .unlocked_ioctl = d_ioctl, };
