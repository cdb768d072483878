// A case that can break (nested in an if) before it assigns ret leaves
// with the initialiser for a known command: it stays, and `default:
// break;` sets -ENOTTY first (ioctl_default_add_assign).
#include <linux/fs.h>

static long ctl_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;

	switch (cmd) {
	case CTL_ADD:
		if (!arg) {
			pr_err("no argument\n");
			break;
		}
		ret = add(arg);
		break;
	default:
		break;
	}

	return ret;
}

static const struct file_operations ctl_fops = {
	.unlocked_ioctl	= ctl_ioctl,
};
