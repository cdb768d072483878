// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static long eep_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct eep *eep = file->private_data;

	switch (cmd) {
	case EEP_GET_SIZE:
		return put_user(eep->size, (int __user *)arg);
	case EEP_ERASE:
	case EEP_ERASE_ALL: {
		int err = eep_erase(eep, cmd == EEP_ERASE_ALL);

		return err;
	}
	}

	return -EINVAL;
}

static const struct file_operations eep_fops = {
	.unlocked_ioctl = eep_ioctl,
};
