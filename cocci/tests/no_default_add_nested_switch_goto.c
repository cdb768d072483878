// The inner switch of the case leaves the case by goto before err is
// assigned (its break is its own, the goto is not): a known command can
// return the initialiser, which stays; a default added after the last
// case answers -ENOTTY (ioctl_switch_add_default).
#include <linux/fs.h>

static long apm_ioctl(struct file *filp, u_int cmd, u_long arg)
{
	struct apm_user *as = filp->private_data;
	int err = -EINVAL;

	switch (cmd) {
	case APM_IOC_SUSPEND:
		switch (as->suspend_state) {
		case SUSPEND_READ:
			goto out;
		default:
			break;
		}
		err = as->suspend_result;
		break;
	}
out:
	return err;
}

static const struct file_operations apm_bios_fops = {
	.unlocked_ioctl	= apm_ioctl,
};
