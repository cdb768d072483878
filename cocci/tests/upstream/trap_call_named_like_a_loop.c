// A call whose name begins like a loop keyword (do_reset()) is no loop:
// the break beside it leaves the switch, so known command 1 reaches the
// return after it, which stays (a reviewer found it converted).
static long x_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case 1: do_reset(); break;
	case 2: return 0;
	}
	return -EINVAL;
}

static const struct file_operations x_fops = { .unlocked_ioctl = x_ioctl, };
