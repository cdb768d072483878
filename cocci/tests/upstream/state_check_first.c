// SPDX-License-Identifier: GPL-2.0
/*
 * A check of the state before the dispatch answers an unknown command
 * -EINVAL too (ppdev before PPCLAIM, userfaultfd before UFFDIO_API): it and
 * the default are reported, to test the command first as fs/pidfs.c does;
 * the rule cannot add that test, so its handler does not change.  A check
 * of what was read from the argument lets a valid argument past it: that
 * default converts.
 */
#include <linux/fs.h>

static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct a_dev *a = f->private_data;

	if (cmd != A_HELLO && !a->ready)
		return -EINVAL;	/* reported only */
	switch (cmd) {
	case A_HELLO:
		return a_hello(a);
	case A_GET:
		return a_get(a, arg);
	default:
		return -EINVAL;	/* reported only */
	}
}

static long b_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct b_req req;

	if (copy_from_user(&req, (void __user *)arg, sizeof(req)))
		return -EFAULT;
	if (req.flags & ~B_FLAGS)
		return -EINVAL;
	if (req.size > B_MAX)
		return -EINVAL;
	switch (cmd) {
	case B_GET:
		return b_get(f, &req);
	default:
		return -EINVAL;
	}
}

static const struct file_operations a_fops = { .unlocked_ioctl = a_ioctl, };
static const struct file_operations b_fops = { .unlocked_ioctl = b_ioctl, };
