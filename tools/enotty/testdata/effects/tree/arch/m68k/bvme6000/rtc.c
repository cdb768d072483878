// SPDX-License-Identifier: GPL-2.0
static long rtc_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	volatile RtcPtr_t rtc = (RtcPtr_t)BVME_RTC_BASE;
	void __user *argp = (void __user *)arg;
	struct rtc_time wtime;

	switch (cmd) {
	case RTC_RD_TIME:	/* Read the time/date from RTC	*/
		return copy_to_user(argp, &wtime, sizeof wtime) ? -EFAULT : 0;
	case RTC_SET_TIME:	/* Set the RTC */
		if (!capable(CAP_SYS_ADMIN))
			return -EACCES;
		return 0;
	default:
		return -EINVAL;
	}
}

static const struct file_operations rtc_fops = {
	.unlocked_ioctl =	rtc_ioctl,
	.open =		rtc_open,
};

static struct miscdevice rtc_dev = {
	.minor =	RTC_MINOR,
	.name =		"rtc",
	.fops =		&rtc_fops
};
