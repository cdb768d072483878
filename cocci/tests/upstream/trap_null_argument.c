// A NULL argument answered -EINVAL before the command is looked at
// (toshiba's tosh_ioctl()): ioctl(fd, cmd, 0), the usual probe of a
// command, would keep -EINVAL, so the handler is left alone.
static long n_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;

	if (!argp)
		return -EINVAL;
	switch (cmd) {
	case 1:
		return do_two(argp);
	default:
		return -EINVAL;
	}
}

static const struct file_operations n_fops = { .unlocked_ioctl = n_ioctl, };
