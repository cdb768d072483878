// Handlers that know one command or a few, tested by if.
static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	if (cmd != 1)
		return -EINVAL;
	return 0;
}

static long b_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	if (cmd == 1)
		return 0;
	else if (cmd == 2)
		return 3;
	else
		return -EINVAL;
}

static long c_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	if (cmd == 1) {
		if (arg)
			return -EFAULT;
		return 0;
	}
	return -EINVAL;
}

static const struct file_operations a_fops = { .unlocked_ioctl = a_ioctl, };
static const struct file_operations b_fops = { .unlocked_ioctl = b_ioctl, };
static const struct file_operations c_fops = { .unlocked_ioctl = c_ioctl, };
