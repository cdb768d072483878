// SPDX-License-Identifier: GPL-2.0
// An initialiser that survives: every case of the default-less switch
// leaves by return (some under #ifdef, some after a test), so only an
// unknown command reaches "return error;" with the initial -EINVAL
// (drivers/macintosh/via-pmu.c pmu_ioctl()).
#include <linux/fs.h>
#include <linux/capability.h>
#include <linux/uaccess.h>

static int pmu_ioctl(struct file *filp, u_int cmd, u_long arg)
{
	__u32 __user *argp = (__u32 __user *)arg;
	int error = -EINVAL;

	switch (cmd) {
#ifdef CONFIG_PPC_PMAC
	case PMU_IOC_SLEEP:
		if (!capable(CAP_SYS_ADMIN))
			return -EACCES;
		return pm_suspend(PM_SUSPEND_MEM);
#endif
	case PMU_IOC_GET_BACKLIGHT:
	{
		int brightness;

		brightness = get_brightness();
		if (brightness < 0)
			return brightness;
		else
			return put_user(brightness, argp);
	}
	case PMU_IOC_SET_BACKLIGHT:
	{
		int brightness;

		error = get_user(brightness, argp);
		if (error)
			return error;
		return set_brightness(brightness);
	}
	case PMU_IOC_GET_MODEL:
		return put_user(pmu_kind, argp);
	}
	return error;
}

static const struct file_operations pmu_fops = {
	.unlocked_ioctl	= pmu_ioctl,
};
