// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

/* Found in drivers/misc/genwqe/card_dev.c: once one rule has changed a
 * function, spatch reparses it from a temporary file; the later sites must
 * still be reported with the original file and line. */
static long cam2_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct cam2 *cam = filp->private_data;

	if (_IOC_TYPE(cmd) != CAM2_IOC_CODE)
		return -EINVAL;

	switch (cmd) {
	case CAM2_GET:
		return cam2_get(cam, arg);
	default:
		return -EINVAL;
	}
}

static long cam2_compat_ioctl(struct file *filp, unsigned int cmd,
			      unsigned long arg)
{
	long ret;

	if (_IOC_NR(cmd) >= CAM2_NR)
		return -EINVAL;
	if (cmd == CAM2_GET32)
		ret = cam2_get(filp->private_data, (unsigned long)compat_ptr(arg));
	else
		ret = -EINVAL;
	if (ret == -ENOIOCTLCMD)
		return -ENOIOCTLCMD;
	return ret;
}

static const struct file_operations cam2_fops = {
	.unlocked_ioctl = cam2_ioctl,
	.compat_ioctl = cam2_compat_ioctl,
};
