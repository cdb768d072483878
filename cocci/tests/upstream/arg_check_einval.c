// -EINVAL for the argument before the command is looked at (toshiba's
// NULL test, aspeed-lpc-ctrl's field of the copy): every unknown command
// with a valid argument then gets -ENOTTY, so the handler converts (the
// V4L2 core reads the argument first too).
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

/* aspeed-lpc-ctrl: the pointer declared from the argument, the field tested
 * right after the copy, and the final return after a switch without default */
static long a_ioctl(struct file *f, unsigned int cmd, unsigned long param)
{
	void __user *p = (void __user *)param;
	struct z_map map;

	if (copy_from_user(&map, p, sizeof(map)))
		return -EFAULT;

	if (map.flags != 0)
		return -EINVAL;

	switch (cmd) {
	case 1:
		return do_map(&map);
	}

	return -EINVAL;
}

static const struct file_operations z_fops = { .unlocked_ioctl = z_ioctl, };
static const struct file_operations n_fops = { .unlocked_ioctl = n_ioctl, };
static const struct file_operations a_fops = { .unlocked_ioctl = a_ioctl, };
