// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static long mux_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case MUX_SELECT:
		switch (arg) {
		case MUX_A:
		case MUX_B:
			return mux_select(arg);
		default:
			return -EINVAL;
		}
	default:
		return -EINVAL;
	}
}

static const struct file_operations mux_fops = {
	.unlocked_ioctl = mux_ioctl,
};
