// SPDX-License-Identifier: GPL-2.0
// A preset -EINVAL that a case answers a known command with too stays; the
// rule reports it (add a default that answers -ENOTTY) and changes nothing:
// a switch without default (pci_endpoint_test), a default that lets unknown
// commands out by break (hiddev).  Not reported: a default that returns
// (kvm_dev_ioctl) or sets its own answer (ipmi_ioctl).
#include <linux/fs.h>

static long p_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int ret = -EINVAL;	/* reported only */

	mutex_lock(&p_lock);
	switch (cmd) {
	case P_BAR:
		if (arg > P_MAX)
			goto out;
		ret = p_bar(arg);
		break;
	case P_DOORBELL:
		ret = p_doorbell();
		break;
	}
out:
	mutex_unlock(&p_lock);
	return ret;
}

static long h_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int r = -EINVAL;	/* reported only */

	switch (cmd) {
	case H_APPLICATION:
		if (arg >= h_max)
			break;
		r = h_app(arg);
		break;
	default:
		if (_IOC_TYPE(cmd) != 'H')
			break;
		if (_IOC_NR(cmd) == _IOC_NR(H_NAME(0)))
			r = h_name(arg, _IOC_SIZE(cmd));
	}
	return r;
}

static long k_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int r = -EINVAL;

	switch (cmd) {
	case K_VERSION:
		if (arg)
			goto out;
		r = K_API;
		break;
	default:
		return k_arch_ioctl(file, cmd, arg);
	}
out:
	return r;
}

static long i_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int rv = -EINVAL;

	switch (cmd) {
	case I_SEND:
		if (!arg)
			break;
		rv = i_send(arg);
		break;
	default:
		rv = -ENOTTY;
		break;
	}
	return rv;
}

static const struct file_operations p_fops = { .unlocked_ioctl = p_ioctl };
static const struct file_operations h_fops = { .unlocked_ioctl = h_ioctl };
static const struct file_operations k_fops = { .unlocked_ioctl = k_ioctl };
static const struct file_operations i_fops = { .unlocked_ioctl = i_ioctl };
