// SPDX-License-Identifier: GPL-2.0
// A recognised command that falls into the default when a state test
// fails (no handler was looked up in the case) gets the default's -EINVAL
// as a recognised-but-unsupported answer: it stays.
#include <linux/fs.h>

static long ht_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct ht_dev *dev = file->private_data;
	int rc = 0;

	switch (cmd) {
	case HT_WRITE_COMBINE:
		if (dev->can_wc)
			break;

		fallthrough;
	default:
		rc = -EINVAL;
		goto out;
	}

	rc = ht_set_wc(dev, arg);
out:
	return rc;
}

static const struct file_operations ht_fops = {
	.unlocked_ioctl = ht_ioctl,
};
