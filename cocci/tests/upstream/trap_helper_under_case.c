// A function called under a case label gets one known command: its
// default is not the handler's answer to an unknown command.
static int sub_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	switch (arg) {
	case 0:
		return 0;
	default:
		return -EINVAL;
	}
}

static long x_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case 1:
		return sub_ioctl(f, cmd, arg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations x_fops = { .unlocked_ioctl = x_ioctl, };
