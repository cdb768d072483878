// A second-level helper whose caller tries its own commands when it answers
// -EINVAL: known command 2 must not turn into -ENOTTY (a reviewer's case).
static int sub_ioctl(struct y *y, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case 1:
		return 0;
	default:
		return -EINVAL;
	}
}

static int mid_ioctl(struct y *y, unsigned int cmd, unsigned long arg)
{
	int ret;

	ret = sub_ioctl(y, cmd, arg);
	if (ret != -EINVAL)
		return ret;
	switch (cmd) {
	case 2:
		return 0;
	}
	return -ENOTTY;
}

static long y_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	return mid_ioctl(f->private_data, cmd, arg);
}


static const struct file_operations y_fops = { .unlocked_ioctl = y_ioctl, };
