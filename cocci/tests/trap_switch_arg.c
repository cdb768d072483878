// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

/* A handler for one command whose argument selects the mode: -EINVAL is a
 * bad argument here, not an unknown command. */
static long clk_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (cmd != CLK_SET_MODE)
		return -ENOTTY;

	switch (arg) {
	case CLK_MODE_SLOW:
		return clk_slow();
	case CLK_MODE_FAST:
		return clk_fast();
	default:
		return -EINVAL;
	}
}

static const struct file_operations clk_fops = {
	.unlocked_ioctl = clk_ioctl,
};
