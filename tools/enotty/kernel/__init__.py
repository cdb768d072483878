"""The one kernel build-and-boot layer (tools/testing/kunit's kunit_kernel
with its qemu_config, for this project's two kinds of kernel).

build: configure out of tree and run kbuild.  A bootable kernel is
  tinyconfig plus fragments (TinyKernel: `make qemu-test`, `make audit`);
  the object checks of `make patches` use a wide configuration, a config
  target such as allmodconfig plus settings (configure_wide, BuildTree:
  enotty.verify and enotty.crossbuild).
qemu: a typed QEMU configuration turned into the argv, one boot with a
  time limit, the guest's framed console output and its kernel trouble.
initramfs: the busybox initramfs the guest boots.

What runs in the guest (init scripts, the kselftest, the probe, config
fragments) stays in selftests/; enotty.qemutest and enotty.audit are the
host sides of `make qemu-test` and `make audit`.
"""
