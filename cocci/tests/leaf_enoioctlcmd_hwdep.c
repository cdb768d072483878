// SPDX-License-Identifier: GPL-2.0
#include <sound/core.h>
#include <sound/hwdep.h>

static int dsp_hwdep_ioctl(struct snd_hwdep *hw, struct file *file,
			   unsigned int cmd, unsigned long arg)
{
	struct dsp_chip *chip = hw->private_data;

	switch (cmd) {
	case SNDRV_DSP_IOCTL_LOAD:
		return dsp_load(chip, (void __user *)arg);
	case SNDRV_DSP_IOCTL_INFO:
		return dsp_info(chip, (void __user *)arg);
	}
	return -ENOIOCTLCMD;
}

static int dsp_hwdep_new(struct dsp_chip *chip, int device)
{
	struct snd_hwdep *hw;
	int err;

	err = snd_hwdep_new(chip->card, "DSP", device, &hw);
	if (err < 0)
		return err;
	hw->private_data = chip;
	hw->ops.ioctl = dsp_hwdep_ioctl;
	hw->ops.ioctl_compat = dsp_hwdep_ioctl;
	return 0;
}
