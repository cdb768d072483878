// A handler and the two static functions it hands the command to: a test
// of the command's type, a table lookup's miss, a switch's default and the
// return after the compat switch all convert.
static const unsigned int table[] = { 0x0201, 0x0202 };

static int lookup(unsigned int *cmd)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (*cmd == table[i])
			return 0;
	}
	return -EINVAL;
}

static int locked_ioctl(struct block_device *bdev, blk_mode_t mode,
			unsigned int cmd, unsigned long arg)
{
	int ret;

	if ((cmd & 0xff00) != 0x0200)
		return -EINVAL;
	ret = lookup(&cmd);
	if (ret)
		return ret;
	switch (cmd) {
	case 0x0201:
		return 0;
	default:
		return -EINVAL;
	}
}

static int x_ioctl(struct block_device *bdev, blk_mode_t mode,
		   unsigned int cmd, unsigned long arg)
{
	int ret;

	mutex_lock(&x_mutex);
	ret = locked_ioctl(bdev, mode, cmd, arg);
	mutex_unlock(&x_mutex);
	return ret;
}

static int x_compat_ioctl(struct block_device *bdev, blk_mode_t mode,
			  unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case 0x0201:
		return x_ioctl(bdev, mode, cmd, arg);
	}
	return -EINVAL;
}

static const struct block_device_operations x_fops = {
	.ioctl = x_ioctl,
	.compat_ioctl = x_compat_ioctl,
};
