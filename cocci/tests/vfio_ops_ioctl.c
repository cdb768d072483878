// SPDX-License-Identifier: GPL-2.0
#include <linux/vfio.h>

static long mdevx_ioctl(struct vfio_device *vdev, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case VFIO_DEVICE_GET_INFO:
		return mdevx_get_info(vdev, (void __user *)arg);
	default:
		return -EINVAL;
	}
}

static long iommux_ioctl(void *iommu_data, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case VFIO_CHECK_EXTENSION:
		return iommux_check_extension(iommu_data, arg);
	default:
		return -EINVAL;
	}
}

static const struct vfio_device_ops mdevx_dev_ops = {
	.name		= "vfio-mdevx",
	.ioctl		= mdevx_ioctl,
};

static const struct vfio_iommu_driver_ops iommux_driver_ops = {
	.name		= "vfio-iommux",
	.ioctl		= iommux_ioctl,
};
