// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static long tmr_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case TMR_START:
		return tmr_start(file);
	case TMR_STOP:
		return tmr_stop(file);
	}
	return -ENOIOCTLCMD;
}

static const struct file_operations tmr_fops = {
	.unlocked_ioctl = tmr_ioctl,
};
