// A caller that tries its own commands when the helper answers -ENOSYS (as
// sr.c does with cdrom_ioctl()): the helper keeps it (a reviewer's case).
static int sub_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case 1:
		return 0;
	default:
		return -ENOSYS;
	}
}

static long y_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	long ret;

	ret = sub_ioctl(f, cmd, arg);
	if (ret != -ENOSYS)
		return ret;
	switch (cmd) {
	case 2:
		return 0;
	}
	return -ENOTTY;
}

static const struct file_operations y_fops = { .unlocked_ioctl = y_ioctl, };
