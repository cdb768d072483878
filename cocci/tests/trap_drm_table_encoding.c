// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: a DRM driver that checks a command against its own ioctl table
 * (drivers/gpu/drm/vmwgfx/vmwgfx_drv.c vmw_generic_ioctl).  drm_ioctl()
 * answers -EINVAL for an unknown number in the driver range itself
 * (drivers/gpu/drm/drm_ioctl.c), so the drivers keep the core's answer
 * (cocci/INTERFACES.rst, "drm").
 */
#include <linux/fs.h>
#include <drm/drm_ioctl.h>

static long a_generic_ioctl(struct file *filp, unsigned int cmd,
			    unsigned long arg,
			    long (*ioctl_func)(struct file *, unsigned int,
					       unsigned long))
{
	unsigned int nr = DRM_IOCTL_NR(cmd);

	if ((nr >= DRM_COMMAND_BASE) && (nr < DRM_COMMAND_END)
	    && (nr < DRM_COMMAND_BASE + A_NUM_IOCTLS)) {
		const struct drm_ioctl_desc *ioctl =
			&a_ioctls[nr - DRM_COMMAND_BASE];

		if (unlikely(ioctl->cmd != cmd))
			goto out_io_encoding;
	} else if (!drm_ioctl_flags(nr, &flags))
		return -EINVAL;

	return ioctl_func(filp, cmd, arg);

out_io_encoding:
	DRM_ERROR("Invalid command format, ioctl %d\n", nr - DRM_COMMAND_BASE);
	return -EINVAL;
}

static long a_unlocked_ioctl(struct file *filp, unsigned int cmd,
			     unsigned long arg)
{
	return a_generic_ioctl(filp, cmd, arg, &drm_ioctl);
}

static const struct file_operations a_driver_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = a_unlocked_ioctl,
};
