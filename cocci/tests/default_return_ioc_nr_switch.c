// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static long qux_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	switch (_IOC_NR(cmd)) {
	case _IOC_NR(QUX_READ):
		return qux_read(filp, arg);
	case _IOC_NR(QUX_WRITE):
		return qux_write(filp, arg);
	default:
		pr_debug("qux: bad ioctl\n");
		return -EINVAL;
	}
}

static const struct file_operations qux_fops = {
	.unlocked_ioctl = qux_ioctl,
};
