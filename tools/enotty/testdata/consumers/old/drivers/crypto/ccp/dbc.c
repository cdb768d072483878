static long dbc_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case DBCIOCNONCE:
		return 0;
	default:
		return -EINVAL;
	}
}
static const struct file_operations dbc_ops = { .unlocked_ioctl = dbc_ioctl };
