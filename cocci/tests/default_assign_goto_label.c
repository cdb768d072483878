// SPDX-License-Identifier: GPL-2.0
/*
 * A default that leaves by jumping (issue 9): default: r = -EINVAL; goto
 * done; where done: returns r.
 */
#include <linux/fs.h>

static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	long r;

	mutex_lock(&f->lock);
	switch (cmd) {
	case FOO_A:
		r = a_a(f);
		break;
	default:
		r = -EINVAL;
		goto done;
	}
	r = a_post(f, r);
done:
	mutex_unlock(&f->lock);
	return r;
}

static const struct file_operations fops = {
	.unlocked_ioctl = a_ioctl,
};
