// SPDX-License-Identifier: GPL-2.0
// A handler whose preset -EINVAL is only reported (a case leaves with it:
// its switch needs a default) is held whole: the type guard of its caller
// (x_ioctl) and the default of a helper it calls after the switch
// (w_other) are neither reported nor changed.  A handler that another rule
// leaves alone gets no report for its preset either: a program reads its
// -EINVAL (v_ioctl, RTC_RD_TIME), a state check answers -EINVAL first, or
// the caller compares the preset with -EINVAL (a reviewer's cases).
#include <linux/fs.h>

static long x_do(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;	/* reported only */

	switch (cmd) {
	case X_ONE:
		if (arg > 4)
			break;
		ret = x_one(arg);
		break;
	case X_TWO:
		ret = x_two();
		break;
	}
	return ret;
}

static long x_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (_IOC_TYPE(cmd) != X_MAGIC)
		return -EINVAL;
	return x_do(file, cmd, arg);
}
static const struct file_operations x_fops = { .unlocked_ioctl = x_ioctl };

static long w_other(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case W_THREE:
		return w_three();
	default:
		return -EINVAL;
	}
}

static long w_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;	/* reported only */

	switch (cmd) {
	case W_ONE:
		if (arg > 4)
			break;
		ret = w_one(arg);
		break;
	case W_TWO:
		ret = w_two();
		break;
	}
	if (ret == -EINVAL && cmd == W_THREE)
		return w_other(file, cmd, arg);
	return ret;
}
static const struct file_operations w_fops = { .unlocked_ioctl = w_ioctl };

static long v_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;

	switch (cmd) {
	case V_ONE:
		if (arg > 4)
			break;
		ret = v_one(arg);
		break;
	case RTC_RD_TIME:
		ret = v_two();
		break;
	}
	return ret;
}
static const struct file_operations v_fops = { .unlocked_ioctl = v_ioctl };

static long o_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct v *v = file->private_data;
	int ret = -EINVAL;

	if (!v->ready)
		return -EINVAL;
	switch (cmd) {
	case V_ONE:
		if (arg > 4)
			break;
		ret = v_one(arg);
		break;
	case V_TWO:
		ret = v_two();
		break;
	}
	return ret;
}
static const struct file_operations o_fops = { .unlocked_ioctl = o_ioctl };

static long z_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;

	switch (cmd) {
	case Z_ONE:
		if (arg > 4)
			break;
		ret = z_one(arg);
		break;
	case Z_TWO:
		ret = z_two();
		break;
	}
	if (ret != -EINVAL)
		return ret;
	switch (cmd) {
	case Z_THREE:
		return z_three();
	default:
		return -EINVAL;
	}
}
static const struct file_operations z_fops = { .unlocked_ioctl = z_ioctl };
