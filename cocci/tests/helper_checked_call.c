// SPDX-License-Identifier: GPL-2.0
/*
 * A helper whose negative answer the handler returns through
 * `if (ret < 0) return ret;` (fs/orangefs/devorangefs-req.c): its guard
 * on the command's type answers for the handler, also after a log call.
 */
#include <linux/fs.h>
#include <linux/ioctl.h>

static inline long check_command(unsigned int command)
{
	if (_IOC_TYPE(command) != DEV_MAGIC) {
		pr_err("magic %x does not match\n", _IOC_TYPE(command));
		return -EINVAL;
	}
	return 0;
}

static long dev_ioctl(struct file *file, unsigned int command, unsigned long arg)
{
	long ret;

	ret = check_command(command);
	if (ret < 0)
		return (int)ret;
	return dev_dispatch(command, arg);
}

static const struct file_operations dev_fops = { .unlocked_ioctl = dev_ioctl, };
