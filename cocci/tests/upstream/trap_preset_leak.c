// A case that breaks without setting ret also answers -EINVAL, for a
// known command: the preset stays as it is, and the rule reports it, as
// default: break; lets unknown commands out with it (add the answer there).
static long ctl_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;	/* reported only */

	switch (cmd) {
	case 2:
		if (arg > 4)
			break;
		ret = add(arg);
		break;
	default:
		break;
	}

	return ret;
}

static const struct file_operations ctl_fops = {
	.unlocked_ioctl = ctl_ioctl,
};
