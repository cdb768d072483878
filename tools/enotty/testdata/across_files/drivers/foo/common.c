// SPDX-License-Identifier: GPL-2.0
/* Helpers of fops.c; this file binds no handler. */
#include <linux/fs.h>

/* Reached from foo_ioctl's default: converts. */
long foo_common_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case FOO_STATUS:
		return 0;
	default:
		return -EINVAL;
	}
}

/* Reached only under case FOO_RESET: its default is dead, and stays. */
int foo_reset_cmd(struct file *f, unsigned int cmd)
{
	switch (cmd) {
	case FOO_RESET:
		return 0;
	default:
		return -EINVAL;
	}
}

/* foo_ioctl compares its value with -EINVAL (try-next): stays. */
int foo_probe_cmd(struct file *f, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case FOO_PROBE:
		return 0;
	default:
		return -EINVAL;
	}
}
