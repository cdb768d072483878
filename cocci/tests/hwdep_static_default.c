// SPDX-License-Identifier: GPL-2.0
#include <sound/hwdep.h>

static int fw_hwdep_ioctl_compat(struct snd_hwdep *hwdep, struct file *file,
				 unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case SNDRV_FIREWIRE_IOCTL_GET_INFO:
		return fw_get_info(hwdep->private_data, compat_ptr(arg));
	default:
		return -EINVAL;
	}
}

static const struct snd_hwdep_ops fw_hwdep_ops = {
	.read		= fw_hwdep_read,
	.ioctl_compat	= fw_hwdep_ioctl_compat,
};
