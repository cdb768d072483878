// A handler whose -EINVAL a program reads for a command it has no case for
// (binder's BINDER_SET_IDLE_PRIORITY, Android's binder driver test) is
// reported, not changed: its fix tests for that command before -ENOTTY,
// which a token rule cannot write.
static long binder_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	int ret;

	switch (cmd) {
	case BINDER_WRITE_READ:
		ret = binder_write_read(f, arg);
		break;
	default:
		ret = -EINVAL;	/* reported only */
		break;
	}
	return ret;
}

static const struct file_operations binder_fops = { .unlocked_ioctl = binder_ioctl, };
