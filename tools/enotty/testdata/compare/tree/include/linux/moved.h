/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MOVED_H
#define _LINUX_MOVED_H

long gone_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

static inline long moved_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (_IOC_NR(cmd)) {
	case 1:
		return 0;
	default:
		return -ENOTTY;
	}
}

#endif
