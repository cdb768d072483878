// The -EINVAL set first is dead: every case sets rv and the default
// answers -ENOTTY already (ipmi_devintf's ipmi_ioctl()); nothing to say.
static long ctl_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int rv = -EINVAL;

	switch (cmd) {
	case 1:
		rv = one(arg);
		break;
	case 2:
		rv = two(arg);
		break;
	default:
		rv = -ENOTTY;
		break;
	}

	return rv;
}

static const struct file_operations ctl_fops = {
	.unlocked_ioctl = ctl_ioctl,
};
