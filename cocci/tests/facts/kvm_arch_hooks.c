// SPDX-License-Identifier: GPL-2.0
/*
 * Phase-2 fixture: kvm_vm_ioctl and kvm_vcpu_ioctl (virt/kvm/kvm_main.c)
 * hand every command they do not know to the arch hooks from their
 * default, so phase 1 lists the hooks as targets.  Their answers stay
 * (cocci/INTERFACES.rst, "KVM arch ioctls: decision"): the rows for them
 * add nothing.  kvm_foo_dev_ioctl, a handler of another file's ops table
 * with a row of its own, converts.
 */
#include <linux/kvm_host.h>

long kvm_arch_vm_ioctl(struct file *filp, unsigned int ioctl, unsigned long arg)
{
	struct kvm *kvm = filp->private_data;

	switch (ioctl) {
	case KVM_IRQ_LINE:
		return kvm_vm_ioctl_irq_line(kvm, arg);
	default:
		return -EINVAL;
	}
}

long kvm_arch_vcpu_ioctl(struct file *filp, unsigned int ioctl, unsigned long arg)
{
	struct kvm_vcpu *vcpu = filp->private_data;
	long r;

	switch (ioctl) {
	case KVM_ARM_VCPU_INIT:
		r = kvm_arch_vcpu_ioctl_vcpu_init(vcpu, arg);
		break;
	default:
		r = -EINVAL;
	}
	return r;
}

long kvm_foo_dev_ioctl(struct file *filp, unsigned int ioctl, unsigned long arg)
{
	switch (ioctl) {
	case KVM_FOO_GET:
		return kvm_foo_get(filp, arg);
	default:
		return -EINVAL;
	}
}
