// A copy of the argument that faults before the command is looked at
// answers a bad address, not EINVAL:
// every unknown command with a valid argument then gets -ENOTTY, so the
// handler converts.
static long x_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct x_req req;

	if (copy_from_user(&req, (void __user *)arg, sizeof(req)))
		return -EFAULT;
	switch (cmd) {
	case 1:
		return do_one(&req);
	default:
		return -EINVAL;
	}
}

static const struct file_operations x_fops = { .unlocked_ioctl = x_ioctl, };
