// SPDX-License-Identifier: GPL-2.0
// A recognised command falls into the default only when the handler it
// looked up is missing (drivers/scsi/cxlflash): the default answers "no
// handler", for that command and for an unknown one, and converts.
#include <linux/fs.h>

typedef int (*hioctl)(struct ht_cfg *, void *);

static long ht_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	static const struct {
		size_t size;
		hioctl ioctl;
	} ioctl_tbl[] = {
		{ sizeof(struct ht_provision), ht_provision },
		{ sizeof(struct ht_debug), ht_debug },
	};
	hioctl do_ioctl = NULL;
	size_t size = 0;
	int idx, rc = 0;

	switch (cmd) {
	case HT_PROVISION:
	case HT_DEBUG:
		idx = _IOC_NR(HT_PROVISION) - _IOC_NR(cmd);
		size = ioctl_tbl[idx].size;
		do_ioctl = ioctl_tbl[idx].ioctl;

		if (likely(do_ioctl))
			break;

		fallthrough;
	default:
		rc = -EINVAL;
		goto out;
	}

	rc = do_ioctl(file->private_data, (void __user *)arg);
out:
	return rc;
}

static const struct file_operations ht_fops = {
	.unlocked_ioctl = ht_ioctl,
};
