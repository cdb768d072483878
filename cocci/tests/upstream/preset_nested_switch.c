// A ret preset to -EINVAL that the one case sets after a switch of its own
// (apm-emulation): the inner switch's breaks leave only that switch.
static long apm_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct apm_user *as = filp->private_data;
	int err = -EINVAL;

	switch (cmd) {
	case APM_IOC_SUSPEND:
		switch (as->suspend_state) {
		case SUSPEND_READ:
			as->suspend_state = SUSPEND_ACKED;
			break;
		case SUSPEND_ACKTO:
			as->suspend_result = -ETIMEDOUT;
			break;
		default:
			as->suspend_result = pm_suspend(PM_SUSPEND_MEM);
		}
		while (wait(as))
			break;
		err = as->suspend_result;
		break;
	}

	return err;
}

static const struct file_operations apm_bios_fops = {
	.unlocked_ioctl = apm_ioctl,
};
