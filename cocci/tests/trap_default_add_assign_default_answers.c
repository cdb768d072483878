// SPDX-License-Identifier: GPL-2.0
// Trap (ioctl_default_add_assign): a default that answers every command
// it gets itself lets none out with the initialiser, which only known
// commands' cases leave with: by a return (kvm_dev_ioctl() hands the
// command to kvm_arch_dev_ioctl()) or by an answer of its own
// (ipmi_ioctl() sets -ENOTTY).
#include <linux/fs.h>

static long k_ioctl(struct file *filp, unsigned int ioctl, unsigned long arg)
{
	int r = -EINVAL;

	switch (ioctl) {
	case K_GET_API_VERSION:
		if (arg)
			goto out;
		r = K_API_VERSION;
		break;
	default:
		return k_arch_dev_ioctl(filp, ioctl, arg);
	}
out:
	return r;
}

static long i_ioctl(struct file *file, unsigned int cmd, unsigned long data)
{
	int rv = -EINVAL;

	switch (cmd) {
	case I_SEND:
		if (!data)
			break;
		rv = i_send(data);
		break;
	default:
		rv = -ENOTTY;
		break;
	}
	return rv;
}

static const struct file_operations k_fops = {
	.unlocked_ioctl = k_ioctl,
};

static const struct file_operations i_fops = {
	.unlocked_ioctl = i_ioctl,
};
