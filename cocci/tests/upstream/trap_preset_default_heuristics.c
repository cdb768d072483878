// SPDX-License-Identifier: GPL-2.0
// Trap, a reviewer's cases for the preset that a case leaves with (reported
// only where a command it does not know leaves with it too): a default whose
// first break is a loop's (a), an inner switch's (h) or a known command's
// (f); "break" in a comment (b); a default that assigns first (c, d, g),
// spelt "default :" (e), or jumps (k); a test of cmd before the switch (j);
// and a type guard that answers -EINVAL too (a_ioctl: the handler is held,
// so that guard does not convert while the preset stays).  Nothing is
// reported, nothing changes.
#include <linux/fs.h>

static long ax_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;

	switch (cmd) {
	case X_ONE:
		if (arg > 4)
			break;
		ret = x_one(arg);
		break;
	default:
		for (i = 0; i < N; i++)
			if (tbl[i].cmd == cmd)
				break;
		if (i == N)
			return -ENOTTY;
		ret = tbl[i].fn(arg);
		break;
	}
	return ret;
}
static const struct file_operations ax_fops = { .unlocked_ioctl = ax_ioctl };

static long bx_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;

	switch (cmd) {
	case X_ONE:
		if (arg > 4)
			break;
		ret = x_one(arg);
		break;
	default:
		/* do not break user space: unknown commands get ENOTTY */
		return -ENOTTY;
	}
	return ret;
}
static const struct file_operations bx_fops = { .unlocked_ioctl = bx_ioctl };

static long cx_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;

	switch (cmd) {
	case X_ONE:
		if (arg > 4)
			break;
		ret = x_one(arg);
		break;
	default:
		ret = x_other_ioctl(file, cmd, arg);
		break;
	}
	return ret;
}
static const struct file_operations cx_fops = { .unlocked_ioctl = cx_ioctl };

static long dx_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;

	switch (cmd) {
	case X_ONE:
		if (arg > 4)
			break;
		ret = x_one(arg);
		break;
	default:
		ret=-ENOTTY;
		break;
	}
	return ret;
}
static const struct file_operations dx_fops = { .unlocked_ioctl = dx_ioctl };

static long ex_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;

	switch (cmd) {
	case X_ONE:
		if (arg > 4)
			break;
		ret = x_one(arg);
		break;
	default :
		return -ENOTTY;
	}
	return ret;
}
static const struct file_operations ex_fops = { .unlocked_ioctl = ex_ioctl };

static long fx_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;

	switch (cmd) {
	case X_ONE:
		if (arg > 4)
			break;
		ret = x_one(arg);
		break;
	default:
		if (cmd == X_TWO) {
			ret = x_two();
			break;
		}
		return -ENOTTY;
	}
	return ret;
}
static const struct file_operations fx_fops = { .unlocked_ioctl = fx_ioctl };

static long gx_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;

	switch (cmd) {
	case X_ONE:
		if (arg > 4)
			break;
		ret = x_one(arg);
		break;
	default:
		ret = X_ERR_UNKNOWN;	/* -ENOTTY */
		break;
	}
	return ret;
}
static const struct file_operations gx_fops = { .unlocked_ioctl = gx_ioctl };

static long hx_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;

	switch (cmd) {
	case X_ONE:
		if (arg > 4)
			break;
		ret = x_one(arg);
		break;
	default:
		switch (_IOC_NR(cmd)) {
		case 7:
			ret = x_seven(arg);
			break;
		}
		return -ENOTTY;
	}
	return ret;
}
static const struct file_operations hx_fops = { .unlocked_ioctl = hx_ioctl };

static long ix_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;

	switch (cmd) {
	case X_ONE:
		if (arg > 4)
			break;	/* no default: X_ONE checks its own arg */
		ret = x_one(arg);
		break;
	default:
		return -ENOTTY;
	}
	return ret;
}
static const struct file_operations ix_fops = { .unlocked_ioctl = ix_ioctl };

static long jx_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;

	if (cmd != X_ONE && cmd != X_TWO)
		return -ENOTTY;

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
static const struct file_operations jx_fops = { .unlocked_ioctl = jx_ioctl };

static long kx_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;

	switch (cmd) {
	case X_ONE:
		if (arg > 4)
			break;
		ret = x_one(arg);
		break;
	default:
		goto unknown;
	}
	return ret;
unknown:
	pr_debug("x: unknown ioctl %u, break\n", cmd);
	return -ENOTTY;
}
static const struct file_operations kx_fops = { .unlocked_ioctl = kx_ioctl };

static long a_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;

	if (_IOC_TYPE(cmd) != A_MAGIC)
		return -EINVAL;

	switch (cmd) {
	case A_ONE:
		if (arg > 4)
			break;
		ret = a_one(arg);
		break;
	case A_TWO:
		ret = a_two();
		break;
	}
	return ret;
}
static const struct file_operations a_fops = { .unlocked_ioctl = a_ioctl };
