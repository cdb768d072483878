// binderfs's binder_ctl_ioctl(): ret initialised to -EINVAL, a default
// that only breaks, and a case that leaves early through a break nested
// in an if.  Every case assigns ret first, so only an unknown command
// returns the initialiser.
#include <linux/fs.h>

static long ctl_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;
	struct req req;

	switch (cmd) {
	case CTL_ADD:
		ret = copy_from_user(&req, (void __user *)arg, sizeof(req));
		if (ret) {
			ret = -EFAULT;
			break;
		}
		ret = add(&req);
		break;
	default:
		break;
	}

	return ret;
}

static const struct file_operations ctl_fops = {
	.unlocked_ioctl	= ctl_ioctl,
	.compat_ioctl	= ctl_ioctl,
};
