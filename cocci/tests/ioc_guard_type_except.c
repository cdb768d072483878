// SPDX-License-Identifier: GPL-2.0
/*
 * A type guard with named exceptions (drivers/scsi/megaraid.c): the
 * command is neither of magic MEGA nor USCSICMD.  The type field also
 * open-coded (sound/core/oss/pcm_oss.c): (cmd >> 8) & 0xff.
 */
#include <linux/fs.h>
#include <linux/ioctl.h>

static long mega_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if ((_IOC_TYPE(cmd) != MEGA_MAGIC) && (cmd != USCSICMD)) {
		return (-EINVAL);
	}
	return mega_do(file, cmd, arg);
}

static long pcm_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (((cmd >> 8) & 0xff) != 'P')
		return -EINVAL;
	return pcm_do(file, cmd, arg);
}

static long ctl_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (((cmd >> _IOC_TYPESHIFT) & _IOC_TYPEMASK) != 'C' && cmd != CTL_OLD)
		return -EINVAL;
	return ctl_do(file, cmd, arg);
}

static const struct file_operations mega_fops = {
	.unlocked_ioctl = mega_ioctl,
};

static const struct file_operations pcm_fops = {
	.unlocked_ioctl = pcm_ioctl,
};

static const struct file_operations ctl_fops = {
	.unlocked_ioctl = ctl_ioctl,
};
