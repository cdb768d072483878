// A case that jumps to the exit without setting ret also answers -EINVAL,
// for a known command (pci_endpoint_test's PCITEST_BAR with a bad BAR):
// the preset stays as it is, and the rule reports it (add a default).
static long ctl_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;	/* reported only */

	mutex_lock(&ctl_mutex);
	switch (cmd) {
	case 1:
		if (arg > 5)
			goto out;
		ret = bar(arg);
		break;
	case 2:
		ret = bars();
		break;
	}
out:
	mutex_unlock(&ctl_mutex);
	return ret;
}

static const struct file_operations ctl_fops = {
	.unlocked_ioctl = ctl_ioctl,
};
