// A default: that only breaks: the return after a switch whose cases all
// return, and a ret preset to -EINVAL that every case sets, both convert.
static long cdev_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case 1:
		return get(arg);
	default:
		break;
	}

	return -EINVAL;
}

static long ctl_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;

	switch (cmd) {
	case 2:
		ret = add(arg);
		if (ret) {
			ret = -EFAULT;
			break;
		}
		break;
	default:
		break;
	}

	return ret;
}

static const struct file_operations cdev_fops = {
	.unlocked_ioctl = cdev_ioctl,
};

static const struct file_operations ctl_fops = {
	.unlocked_ioctl = ctl_ioctl,
};
