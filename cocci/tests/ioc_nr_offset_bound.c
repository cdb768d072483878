// SPDX-License-Identifier: GPL-2.0
/*
 * The number bound through a local, offset from the table's first number
 * (kernel/liveupdate/luo_core.c and luo_session.c): a number outside the
 * table is no command.
 */
#include <linux/fs.h>
#include <linux/ioctl.h>

static const struct op ops[] = { OP(LUO_CREATE, luo_create), };

static long luo_ioctl(struct file *filep, unsigned int cmd, unsigned long arg)
{
	unsigned int nr = _IOC_NR(cmd);

	if (nr - LUO_BASE >= ARRAY_SIZE(ops))
		return -EINVAL;
	return luo_call(&ops[nr - LUO_BASE], filep, cmd, arg);
}

static long session_ioctl(struct file *filep, unsigned int cmd, unsigned long arg)
{
	unsigned int nr;

	nr = _IOC_NR(cmd);
	if (nr < SESSION_BASE || (nr - SESSION_BASE) >= ARRAY_SIZE(ops)) {
		return -EINVAL;
	}
	return luo_call(&ops[nr - SESSION_BASE], filep, cmd, arg);
}

static const struct file_operations luo_fops = { .unlocked_ioctl = luo_ioctl, };
static const struct file_operations session_fops = { .unlocked_ioctl = session_ioctl, };
