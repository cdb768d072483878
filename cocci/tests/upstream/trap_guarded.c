// A check of the argument before the command is looked at answers -EFAULT
// to every command first: the handler is left alone, default and all.
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
