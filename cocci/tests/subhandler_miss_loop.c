// SPDX-License-Identifier: GPL-2.0
// The default hands the command to each sub-feature in turn; a sub-feature
// answers -ENODEV for a command that is not its own, so only a command
// that no case and no sub-feature knows falls out to the -EINVAL after the
// switch (drivers/fpga/dfl-afu-main.c afu_ioctl(), dfl-fme-main.c).
#include <linux/fs.h>
#include <linux/fpga-dfl.h>

static long afu_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct dfl_feature_dev_data *fdata = to_fdata(filp);
	struct dfl_feature *f;
	long ret;

	switch (cmd) {
	case DFL_FPGA_GET_API_VERSION:
		return DFL_FPGA_API_VERSION;
	case DFL_FPGA_CHECK_EXTENSION:
		return afu_ioctl_check_extension(fdata, arg);
	default:
		/*
		 * Sub-feature's ioctl returns -ENODEV when cmd is not
		 * handled in this sub feature.
		 */
		dfl_fpga_dev_for_each_feature(fdata, f)
			if (f->ops && f->ops->ioctl) {
				ret = f->ops->ioctl(fdata, f, cmd, arg);
				if (ret != -ENODEV)
					return ret;
			}
	}

	return -EINVAL;
}

static const struct file_operations afu_fops = {
	.unlocked_ioctl = afu_ioctl,
};
