// A check of the device's state before the command is looked at answers
// -EINVAL to every command, known or not: the handler is left alone, its
// check and default reported (test the command first, as fs/pidfs.c does),
// and so is one whose -EINVAL a program reads (the RTC's, rtctest).
static long x_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct x_dev *dev = f->private_data;

	if (!dev->ready)
		return -EINVAL;	/* reported only */
	switch (cmd) {
	case 1:
		return do_one(dev);
	default:
		return -EINVAL;	/* reported only */
	}
}

static long rtc_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case RTC_RD_TIME:
		return rtc_read(arg);
	default:
		return -EINVAL;
	}
}

static const struct file_operations x_fops = { .unlocked_ioctl = x_ioctl, };
static const struct file_operations rtc_fops = { .unlocked_ioctl = rtc_ioctl, };
