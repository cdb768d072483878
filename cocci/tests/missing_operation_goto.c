// net/atm/resources.c atm_dev_ioctl() and drivers/gpu/drm/drm_ioctl.c
// drm_ioctl(): the answer for a command handed to an operation that is
// missing, braced with a jump to the common exit.  Under the default of
// the switch on the command (here fallen into: the known commands above
// reach the operation too), or outside any switch (a table entry without
// a function).  Listed; no series carries them (tools/enotty/judge/handlers.py).
#include <linux/fs.h>

static long dev_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct atm_dev *dev = file->private_data;
	int error, size = 0;

	switch (cmd) {
	case SONET_GETSTATZ:
		if (!capable(CAP_NET_ADMIN)) {
			error = -EPERM;
			goto done;
		}
		fallthrough;
	default:
		if (!dev->ops->ioctl) {
			error = -EINVAL;
			goto done;
		}
		size = dev->ops->ioctl(dev, cmd, (void __user *)arg);
		if (size < 0) {
			error = size;
			goto done;
		}
	}
	error = size;
done:
	atm_dev_put(dev);
	return error;
}

static long table_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	const struct tbl_desc *ioctl = &tbl[_IOC_NR(cmd) % TBL_COUNT];
	tbl_func_t *func;
	int retcode = -EINVAL;

	func = ioctl->func;
	if (unlikely(!func)) {
		pr_debug("no function\n");
		retcode = -EINVAL;
		goto err_i1;
	}
	retcode = func(filp, arg);
err_i1:
	return retcode;
}

static const struct file_operations dev_fops = {
	.unlocked_ioctl	= dev_ioctl,
};

static const struct file_operations table_fops = {
	.unlocked_ioctl	= table_ioctl,
};
