// SPDX-License-Identifier: GPL-2.0
#include <sound/rawmidi.h>

static long umidi_ioctl(struct snd_rawmidi *rmidi, unsigned int cmd, void __user *argp)
{
	switch (cmd) {
	case SNDRV_UMP_IOCTL_ENDPOINT_INFO:
		return umidi_endpoint_info(rmidi, argp);
	default:
		return -EINVAL;
	}
}

static const struct snd_rawmidi_global_ops umidi_ops = {
	.ioctl = umidi_ioctl,
};
