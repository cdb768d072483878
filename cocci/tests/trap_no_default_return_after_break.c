// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

/* EEP2_SET breaks out of the switch on a bad value and so reaches the
 * final -EINVAL as a known command: left alone. */
static long eep2_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct eep *eep = file->private_data;

	switch (cmd) {
	case EEP2_GET:
		return put_user(eep->val, (int __user *)arg);
	case EEP2_SET:
		if (arg > EEP2_MAX)
			break;
		eep->val = arg;
		return 0;
	}

	return -EINVAL;
}

static const struct file_operations eep2_fops = {
	.unlocked_ioctl = eep2_ioctl,
};
