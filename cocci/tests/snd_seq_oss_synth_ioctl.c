// SPDX-License-Identifier: GPL-2.0
#include <sound/seq_oss.h>

static int opl_oss_ioctl(struct snd_seq_oss_arg *arg, unsigned int cmd,
			 unsigned long ioarg)
{
	switch (cmd) {
	case SNDCTL_FM_4OP_ENABLE:
		return opl_oss_4op(arg->private_data);
	default:
		return -EINVAL;
	}
}

static struct snd_seq_oss_callback oss_callback = {
	.owner = 	THIS_MODULE,
	.ioctl =	opl_oss_ioctl,
};
