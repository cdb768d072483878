// The else of an if-chain on cmd that sets ret (mptctl), and a switch
// whose return follows a loop's break earlier in the handler (pcm_oss).
static long x_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	int ret;

	if (cmd == 1)
		ret = 0;
	else if (cmd == 2)
		ret = 1;
	else
		ret = -EINVAL;
	return ret;
}

static long y_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	int idx;

	if (cmd == 7) {
		for (idx = 0; idx < 2; ++idx)
			if (arg)
				break;
		return idx;
	}
	switch (cmd) {
	case 1:
		return 0;
	default:
		pr_debug("unknown\n");
	}
	return -EINVAL;
}

static const struct file_operations x_fops = { .unlocked_ioctl = x_ioctl, };
static const struct file_operations y_fops = { .unlocked_ioctl = y_ioctl, };
