// default: err = -EOPNOTSUPP; in a DVB CA device's handler, and a default
// that answers -ENOTSUPP (524, which user space cannot name): both convert.
static int ca_ioctl(struct file *file, unsigned int cmd, void *arg)
{
	int err;

	switch (cmd) {
	case CA_RESET:
		err = ca_reset(arg);
		break;
	default:
		err = -EOPNOTSUPP;
	}
	ca_status(file);
	return err;
}

static int fe_ioctl(struct file *file, unsigned int cmd, void *parg)
{
	switch (cmd) {
	case FE_GET_INFO:
		return fe_info(parg);
	default:
		return -ENOTSUPP;
	}
}

static const struct file_operations ca_fops = { .unlocked_ioctl = ca_ioctl, };
static const struct file_operations fe_fops = { .unlocked_ioctl = fe_ioctl, };
