// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static long zz_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case ZZ_GET:
		return zz_get(file, arg);
	}
	return -ENOIOCTLCMD;
}

/* The compat handler tries the native one first and falls back on its own
 * translation when the native handler answers -ENOIOCTLCMD. */
static long zz_compat_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	long ret;

	ret = zz_ioctl(file, cmd, (unsigned long)compat_ptr(arg));
	if (ret == -ENOIOCTLCMD)
		ret = zz_compat_translate(file, cmd, arg);
	return ret;
}

static const struct file_operations zz_fops = {
	.unlocked_ioctl = zz_ioctl,
	.compat_ioctl = zz_compat_ioctl,
};
