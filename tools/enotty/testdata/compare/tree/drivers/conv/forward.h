/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _FORWARD_H
#define _FORWARD_H

static inline long forward_common_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case FORWARD_SET:
		return 0;
	default:
		return -ENOTTY;
	}
}

#endif
