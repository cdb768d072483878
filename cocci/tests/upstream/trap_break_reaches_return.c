// A case that breaks reaches the return after the switch: that -EINVAL
// also answers a known command.
static long x_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case 1:
		return 0;
	case 2:
		if (arg)
			break;
		return 1;
	}
	return -EINVAL;
}

static const struct file_operations x_fops = { .unlocked_ioctl = x_ioctl, };
