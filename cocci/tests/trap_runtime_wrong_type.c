// SPDX-License-Identifier: GPL-2.0
#include <sound/pcm.h>

static int ypcm_ioctl(struct snd_pcm_substream *substream, unsigned int cmd,
		      void *arg)
{
	switch (cmd) {
	case SNDRV_PCM_IOCTL1_INFO:
		return ypcm_info(substream, arg);
	default:
		return -EINVAL;
	}
}

static void ypcm_setup(struct snd_pcm_ops *ops)
{
	ops->ioctl = ypcm_ioctl;
}
