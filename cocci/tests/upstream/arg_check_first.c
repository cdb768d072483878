// A check of the argument before the command is looked at (a copy that
// faults, a field of the copy) answers a bad argument:
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

static long z_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct z_map map;

	if (copy_from_user(&map, (void __user *)arg, sizeof(map)))
		return -EFAULT;
	if (map.flags != 0)
		return -EINVAL;
	switch (cmd) {
	case 1:
		return do_map(&map);
	default:
		return -EINVAL;
	}
}

static const struct file_operations x_fops = { .unlocked_ioctl = x_ioctl, };
static const struct file_operations z_fops = { .unlocked_ioctl = z_ioctl, };
