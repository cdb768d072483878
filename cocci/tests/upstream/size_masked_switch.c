// joydev: fixed-size commands first, then the variable-sized ones by their
// command with the size masked off; the return after both answers the rest.
// Its ops table takes the handler's address.
static int a_ioctl_common(struct file *f, unsigned int cmd, void __user *argp)
{
	switch (cmd) {
	case 1:
		return 0;
	}

	switch (cmd & ~IOCSIZE_MASK) {
	case (2 & ~IOCSIZE_MASK):
		return a_map(argp, _IOC_SIZE(cmd));
	}

	return -EINVAL;
}

static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	return a_ioctl_common(f, cmd, (void __user *)arg);
}

static const struct file_operations a_fops = { .unlocked_ioctl = &a_ioctl, };
