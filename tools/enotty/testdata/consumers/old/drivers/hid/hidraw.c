static long hidraw_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case HIDIOCGRDESCSIZE:
		return 0;
	default:
		return -EINVAL;
	}
}
static const struct file_operations hidraw_ops = { .unlocked_ioctl = hidraw_ioctl };
