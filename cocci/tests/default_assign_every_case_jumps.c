// SPDX-License-Identifier: GPL-2.0
/*
 * default: r = -EINVAL; goto done; in a switch whose every case leaves by
 * goto, so no path reaches its end (issue 9;
 * drivers/gpu/drm/amd/amdgpu/amdgpu_debugfs.c amdgpu_debugfs_gprwave_ioctl):
 * the rule follows the jump to the return, not the end of the switch.
 * In b_ioctl the default's statements sit in a bare block.
 */
#include <linux/fs.h>

static long a_ioctl(struct file *f, unsigned int cmd, unsigned long data)
{
	struct a_data *rd = f->private_data;
	int r = 0;

	mutex_lock(&rd->lock);

	switch (cmd) {
	case A_IOC_SET_STATE:
		if (copy_from_user(&rd->id, (void __user *)data, sizeof(rd->id)))
			r = -EFAULT;
		goto done;
	default:
		r = -EINVAL;
		goto done;
	}

done:
	mutex_unlock(&rd->lock);
	return r;
}

static long b_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	long ret;

	switch (cmd) {
	case FOO_A:
		ret = b_a(f);
		break;
	default: {
		pr_debug("unknown ioctl %u\n", cmd);
		ret = -EINVAL;
		break;
	}
	}
	return ret;
}

static const struct file_operations fops = {
	.unlocked_ioctl = a_ioctl,
	.compat_ioctl = b_ioctl,
};
