// SPDX-License-Identifier: GPL-2.0
// A loop over handlers that a recognised command also reaches (handled
// before the loop, not returned), and one under a test of the state: the
// -ENODEV after them stays.
#include <linux/fs.h>
#include <linux/list.h>

static long a_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct a_handler *h;
	int ret;

	if (cmd == A_RESET)
		a_reset(filp);

	list_for_each_entry(h, &a_handlers, entry) {
		ret = h->ioctl(filp, cmd, arg);
		if (ret != A_UNHANDLED)
			return ret;
	}

	return -ENODEV;
}

static long b_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct b_handler *h;
	int ret;

	if (b_ready(filp)) {
		list_for_each_entry(h, &b_handlers, entry) {
			ret = h->ioctl(filp, cmd, arg);
			if (ret != B_UNHANDLED)
				return ret;
		}
		return -ENODEV;
	}
	return -EIO;
}

static const struct file_operations a_fops = { .unlocked_ioctl = a_ioctl };
static const struct file_operations b_fops = { .unlocked_ioctl = b_ioctl };
