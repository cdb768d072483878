// A check of the state that sets -EINVAL and jumps to the common exit
// answers every command first (gpib's !board->online): left alone whole.
static long x_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	long ret;

	if (!f->private_data) {
		ret = -EINVAL;
		goto out;
	}
	switch (cmd) {
	case 1:
		ret = 0;
		break;
	default:
		ret = -EINVAL;
		break;
	}
out:
	return ret;
}

static const struct file_operations x_fops = { .unlocked_ioctl = x_ioctl, };
