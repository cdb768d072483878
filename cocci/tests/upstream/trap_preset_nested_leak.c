// A case whose inner switch leaves ret preset and then breaks out of the
// switch on the command answers -EINVAL for a known command: it stays.
static long ctl_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;

	switch (cmd) {
	case 2:
		switch (arg) {
		case 0:
			break;
		default:
			ret = add(arg);
		}
		break;
	default:
		break;
	}

	return ret;
}

static const struct file_operations ctl_fops = {
	.unlocked_ioctl = ctl_ioctl,
};
