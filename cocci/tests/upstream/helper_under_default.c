// A helper called under default: (loop's lo_simple_ioctl) gets every
// command the cases above do not take; hwdep ops assigned at run time
// (hdsp) and a helper whose value can reach the return (hpet) count too.
static int simple_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	int err;

	switch (cmd) {
	case 2:
		err = 0;
		break;
	default:
		err = -EINVAL;
	}
	return err;
}

static long x_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	int err;

	switch (cmd) {
	case 1:
		return 0;
	default:
		err = simple_ioctl(f, cmd, arg);
		break;
	}
	return err;
}

static int common_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case 1:
		return 0;
	default:
		return -EINVAL;
	}
}

static long y_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	int err;

	err = common_ioctl(f, cmd, arg);
	if (cmd == 1 && !err && copy_to_user((void __user *)arg, &err, 4))
		err = -EFAULT;
	return err;
}

static int z_hwdep_ioctl(struct snd_hwdep *hw, struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case 1:
		return 0;
	default:
		return -EINVAL;
	}
}

static int z_create(struct snd_card *card)
{
	struct snd_hwdep *hw;

	hw->ops.ioctl = z_hwdep_ioctl;
	return 0;
}

static const struct file_operations x_fops = { .unlocked_ioctl = x_ioctl, };
static const struct file_operations y_fops = { .unlocked_ioctl = y_ioctl, };
