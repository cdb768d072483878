// SPDX-License-Identifier: GPL-2.0
#include <linux/kvm_host.h>

static long vgicx_ioctl(struct kvm_device *dev, unsigned int ioctl, unsigned long arg)
{
	switch (ioctl) {
	case KVM_DEV_VGICX_SAVE:
		return vgicx_save(dev);
	default:
		return -EINVAL;
	}
}

static int kvmppc_x_arch_vm_ioctl(struct file *filp, unsigned int ioctl,
				  unsigned long arg)
{
	switch (ioctl) {
	case KVM_PPC_X_GET_INFO:
		return kvmppc_x_get_info(filp->private_data, (void __user *)arg);
	default:
		return -EINVAL;
	}
}

static const struct kvm_device_ops vgicx_ops = {
	.name = "kvm-vgicx",
	.ioctl = vgicx_ioctl,
};

static struct kvmppc_ops kvm_ops_x = {
	.arch_vm_ioctl  = kvmppc_x_arch_vm_ioctl,
};
