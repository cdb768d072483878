// SPDX-License-Identifier: GPL-2.0
/*
 * After a default-less switch whose every case returns, the command goes
 * to an optional operation (sound/oss/dmasound/dmasound_core.c); without
 * it no one knows the command.
 */
#include <linux/fs.h>

static long mixer_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case OSS_GETVERSION:
		return put_user(SOUND_VERSION, (int __user *)arg);
	case SOUND_MIXER_INFO:
		{
			if (mixer_info_out(arg))
				return -EFAULT;
			return 0;
		}
	}
	if (mach.mixer_ioctl)
		return mach.mixer_ioctl(cmd, arg);
	return -EINVAL;
}

static const struct file_operations mixer_fops = { .unlocked_ioctl = mixer_ioctl, };
