// SPDX-License-Identifier: GPL-2.0
#include <sound/info.h>

static int card_proc_ioctl(struct snd_info_entry *entry, void *file_private_data,
			   struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case CARD_PROC_IOC_RESET:
		return card_proc_reset(entry->private_data);
	default:
		return -EINVAL;
	}
}

static const struct snd_info_entry_ops card_proc_ops = {
	.ioctl = card_proc_ioctl,
};
