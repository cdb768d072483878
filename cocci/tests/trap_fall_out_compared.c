// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: the answer after an if chain or a default-less switch is compared
 * with -EINVAL on its way to the return, so the errno means something to
 * the function itself (as in drivers/md/md.c md_ioctl): it stays.
 */
#include <linux/fs.h>

static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	long ret;

	if (cmd == FOO_START) {
		ret = a_start(f);
		goto out;
	}
	ret = -EINVAL;
out:
	if (ret != -EINVAL)
		a_touch(f);
	return ret;
}

static long b_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	long ret;

	switch (cmd) {
	case FOO_A:
		ret = b_a(f);
		goto out;
	}
	ret = -EINVAL;
out:
	if (ret == -EINVAL)
		b_log(f);
	return ret;
}

static const struct file_operations fops = {
	.unlocked_ioctl = a_ioctl,
	.compat_ioctl = b_ioctl,
};
