// An exported helper behind a static one has callers in other files: not
// followed, its answer stays (a reviewer's case).
int common_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case 1:
		return 0;
	default:
		return -EINVAL;
	}
}
EXPORT_SYMBOL(common_ioctl);

static long mid_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	return common_ioctl(f, cmd, arg);
}

static long y_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	return mid_ioctl(f, cmd, arg);
}

static const struct file_operations y_fops = { .unlocked_ioctl = y_ioctl, };
