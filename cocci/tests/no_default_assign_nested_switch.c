// drivers/char/apm-emulation.c apm_ioctl(): err initialised to -EINVAL, a
// switch on the command with one case and no default; the case holds a
// switch of its own (on the suspend state, with its own default and
// breaks) before it assigns err.  The inner breaks leave only the inner
// switch, so every command the outer switch knows assigns err: only an
// unknown command returns the initialiser.
#include <linux/fs.h>

static long apm_ioctl(struct file *filp, u_int cmd, u_long arg)
{
	struct apm_user *as = filp->private_data;
	int err = -EINVAL;

	if (!as->suser || !as->writer)
		return -EPERM;

	switch (cmd) {
	case APM_IOC_SUSPEND:
		mutex_lock(&state_lock);
		switch (as->suspend_state) {
		case SUSPEND_READ:
			as->suspend_state = SUSPEND_ACKED;
			while (wait_acked(as))
				msleep(10);
			break;
		case SUSPEND_ACKTO:
			as->suspend_result = -ETIMEDOUT;
			break;
		default:
			as->suspend_result = pm_suspend(PM_SUSPEND_MEM);
		}
		err = as->suspend_result;
		mutex_unlock(&state_lock);
		break;
	}

	return err;
}

static const struct file_operations apm_bios_fops = {
	.unlocked_ioctl	= apm_ioctl,
};
