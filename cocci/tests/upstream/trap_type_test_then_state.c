// A state check after a test of the command's type answers -EINVAL to an
// unknown command of that type: the handler is left alone (a reviewer's case).
static long y_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct y *y = f->private_data;

	if (_IOC_TYPE(cmd) != Y_MAGIC)
		return -EINVAL;
	if (!y->ready)
		return -EINVAL;
	switch (cmd) {
	case Y_ONE:
		return y_one(y, arg);
	default:
		return -EINVAL;
	}
}

static long z_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct y *y = f->private_data;

	if (_IOC_TYPE(cmd) != Y_MAGIC)
		return -EINVAL;
	if (!y->ready)
		return -EINVAL;
	switch (cmd) {
	case Y_ONE:
		return y_one(y, arg);
	}
	return -ENOTTY;
}

static const struct file_operations y_fops = { .unlocked_ioctl = y_ioctl, };
static const struct file_operations z_fops = { .unlocked_ioctl = z_ioctl, };
