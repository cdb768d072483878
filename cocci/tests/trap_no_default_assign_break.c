// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: ret = -EINVAL; after a default-less switch on the command that a
 * known command also reaches (a case that breaks, one that ends in a
 * conditional jump), or that is reached by a label: not only unknown
 * commands get that answer.
 */
#include <linux/fs.h>

static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	long ret;

	switch (cmd) {
	case FOO_A:
		ret = a_a(f);
		goto out;
	case FOO_B:
		if (!arg)
			break;
		ret = a_b(f, arg);
		goto out;
	}
	ret = -EINVAL;
out:
	return ret;
}

static long b_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	long ret;

	switch (cmd) {
	case FOO_A:
		ret = b_a(f);
		goto out;
	case FOO_B:
		if (arg)
			goto out;
	}
	ret = -EINVAL;
out:
	return ret;
}

static long c_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	long ret;

	switch (cmd) {
	case FOO_A:
		ret = c_a(f);
		if (ret)
			goto bad;
		goto out;
	}
bad:
	ret = -EINVAL;
out:
	return ret;
}

static const struct file_operations a_fops = {
	.unlocked_ioctl = a_ioctl,
	.compat_ioctl = b_ioctl,
};

static const struct file_operations c_fops = {
	.unlocked_ioctl = c_ioctl,
};
