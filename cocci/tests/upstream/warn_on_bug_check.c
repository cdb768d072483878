// if (WARN_ON(...)) return -EINVAL; reports a kernel bug and does not block
// y_ioctl(); a plain WARN_ON() before a state check does not hide z_ioctl's,
// which is reported only (test the command first).
static long y_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct y *y = f->private_data;

	if (WARN_ON(!y->ready))
		return -EINVAL;
	switch (cmd) {
	case 1:
		return 0;
	default:
		return -EINVAL;
	}
}

static long z_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct y *y = f->private_data;

	WARN_ON(!y);
	if (!y->ready)
		return -EINVAL;	/* reported only */
	switch (cmd) {
	case 1:
		return 0;
	default:
		return -EINVAL;	/* reported only */
	}
}

static const struct file_operations y_fops = { .unlocked_ioctl = y_ioctl, };
static const struct file_operations z_fops = { .unlocked_ioctl = z_ioctl, };
