// SPDX-License-Identifier: GPL-2.0-or-later
#define PPGETTIME32	_IOR(PP_IOCTL, 0x95, s32[2])
#define PPGETTIME64	_IOR(PP_IOCTL, 0x95, s64[2])

static int pp_do_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct pp_struct *pp = file->private_data;
	struct parport *port;
	void __user *argp = (void __user *)arg;

	/* First handle the cases that don't take arguments. */
	switch (cmd) {
	case PPCLAIM:
		return pp_claim(pp);
	case PPEXCL:
		pp->flags |= PP_EXCL;
		return 0;
	}

	/* Everything else requires the port to be claimed, so check
	 * that now. */
	if ((pp->flags & PP_CLAIMED) == 0) {
		pr_debug(CHRDEV "%x: claim the port first\n", minor);
		return -EINVAL;
	}

	port = pp->pdev->port;
	switch (cmd) {
	case PPGETTIME32:
		return pp_get_time32(pp, argp);
	case PPRSTATUS:
		reg = parport_read_status(port);
		if (copy_to_user(argp, &reg, sizeof(reg)))
			return -EFAULT;
		return 0;
	default:
		pr_debug(CHRDEV "%x: What? (cmd=0x%x)\n", minor, cmd);
		return -EINVAL;
	}

	/* Keep the compiler happy */
	return 0;
}

static long pp_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	long ret;

	mutex_lock(&pp_do_mutex);
	ret = pp_do_ioctl(file, cmd, arg);
	mutex_unlock(&pp_do_mutex);
	return ret;
}

static const struct file_operations pp_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= pp_ioctl,
	.compat_ioctl   = compat_ptr_ioctl,
	.open		= pp_open,
};

static long nocompat_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case PPCLAIM:
		return 0;
	default:
		return -EINVAL;
	}
}

static const struct file_operations nocompat_fops = {
	.unlocked_ioctl	= nocompat_ioctl,
};
