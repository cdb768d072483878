// SPDX-License-Identifier: GPL-2.0
#include <scsi/scsi_host.h>

static int raidx_ioctl(struct scsi_device *sdev, unsigned int cmd, void __user *arg)
{
	switch (cmd) {
	case RAIDX_IOC_PASSTHRU:
		return raidx_passthru(sdev, arg);
	default:
		return -EINVAL;
	}
}

static int raidx_compat_ioctl(struct scsi_device *sdev, unsigned int cmd,
			      void __user *arg)
{
	int ret;

	switch (cmd) {
	case RAIDX_IOC_PASSTHRU32:
		ret = raidx_passthru32(sdev, arg);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	return ret;
}

static const struct scsi_host_template raidx_sht = {
	.name			= "raidx",
	.ioctl			= raidx_ioctl,
	.compat_ioctl		= raidx_compat_ioctl,
};
