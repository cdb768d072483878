// SPDX-License-Identifier: GPL-2.0
/* Named in the dispatch column of cocci/interfaces.tsv: a core, stays. */
#include <linux/fs.h>

long blkdev_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case BLKROSET:
		return 0;
	default:
		return -EINVAL;
	}
}
