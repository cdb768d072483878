// An -EINVAL after a test that turned away every unknown command answers
// a known command's bad argument: it stays, the test converts.
static long raw_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct raw raw;

	if (cmd != RAW_CMD)
		return -EINVAL;
	if (_IOC_SIZE(cmd) != sizeof(raw))
		return -EINVAL;
	return do_raw(&raw, arg);
}

static long mm_ioctl(struct file *filep, unsigned int cmd, unsigned long arg)
{
	if ((_IOC_TYPE(cmd) != MM_MAGIC) && (cmd != MM_CMD)) {
		return (-EINVAL);
	}
	return mm_do(arg);
}

static const struct file_operations raw_fops = {
	.unlocked_ioctl = raw_ioctl,
};

static const struct file_operations mm_fops = {
	.unlocked_ioctl = mm_ioctl,
};
