// excerpt in the shape of 6.12.118's kvm/lib/x86_64/processor.c (7.2 moved it to lib/x86)
void __vm_xsave_require_permission(uint64_t xfeature, const char *name)
{
	kvm_fd = open_kvm_dev_path_or_exit();
	rc = __kvm_ioctl(kvm_fd, KVM_GET_DEVICE_ATTR, &attr);
	close(kvm_fd);

	if (rc == -1 && (errno == ENXIO || errno == EINVAL))
		__TEST_REQUIRE(0, "KVM_X86_XCOMP_GUEST_SUPP not supported");
}
