// excerpt in the shape of 7.2.13's kvm/lib/x86/processor.c
void __vm_xsave_require_permission(u64 xfeature, const char *name)
{
	kvm_fd = open_kvm_dev_path_or_exit();
	rc = __kvm_ioctl(kvm_fd, KVM_GET_DEVICE_ATTR, &attr);
	close(kvm_fd);

	if (rc == -1 && (errno == ENXIO || errno == EINVAL))
		__TEST_REQUIRE(0, "KVM_X86_XCOMP_GUEST_SUPP not supported");
}
