// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include "header_functions_seen.h"

/* spatch also matches the functions of the local header; they must not
 * make the rules forget the targets of this file (seen on
 * drivers/misc/genwqe/card_dev.c with card_base.h). */
static long aaa_hdr_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	if (_IOC_TYPE(cmd) != HDR_MAGIC)
		return -EINVAL;
	if (!zzz_hdr_ready(file->private_data))
		return -EAGAIN;

	switch (cmd) {
	case HDR_GET:
		return hdr_get(file, arg);
	default:
		return -EINVAL;
	}
}

static const struct file_operations hdr_fops = {
	.unlocked_ioctl = aaa_hdr_ioctl,
};
