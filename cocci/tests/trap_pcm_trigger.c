// SPDX-License-Identifier: GPL-2.0
#include <sound/pcm.h>

static int xpcm_trigger(struct snd_pcm_substream *substream, int cmd)
{
	struct xchip *chip = snd_pcm_substream_chip(substream);

	switch (cmd) {
	case SNDRV_PCM_TRIGGER_START:
		return xchip_start(chip);
	case SNDRV_PCM_TRIGGER_STOP:
		return xchip_stop(chip);
	default:
		return -EINVAL;
	}
}

static int xpcm_ioctl(struct snd_pcm_substream *substream, unsigned int cmd,
		      void *arg)
{
	switch (cmd) {
	case SNDRV_PCM_IOCTL1_RESET:
		return xchip_reset(snd_pcm_substream_chip(substream));
	default:
		return -EINVAL;
	}
}

static const struct snd_pcm_ops xpcm_ops = {
	.open		= xpcm_open,
	.ioctl		= xpcm_ioctl,
	.trigger	= xpcm_trigger,
};
