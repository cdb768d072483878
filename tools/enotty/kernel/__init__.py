"""The kernel the stages read, build and boot: one layer, like
tools/testing/kunit's kunit_kernel with its qemu_config.

tree: the default tree unpacked into the cache, or KDIR read only.
worktree: hard-link work trees of it, where patches are applied.
kconfig: which symbols build a file, what they depend on, and which files
  no configuration of any architecture compiles (Unbuildable).
build: configure out of tree and run kbuild.  A bootable kernel is
  tinyconfig plus fragments (TinyKernel: `make qemu-test`, `make audit`);
  the object checks of `make patches` use a wide configuration, a config
  target such as allmodconfig plus settings (configure_wide, BuildTree:
  enotty.verify.verify and enotty.verify.crossbuild).
qemu: a typed QEMU configuration turned into the argv, one boot with a
  time limit, the guest's framed console output and its kernel trouble.
initramfs: the busybox initramfs the guest boots; tap: its TAP output.

What runs in the guest (init scripts, the kselftest, the probe, config
fragments) stays in selftests/; enotty.qemutest and enotty.audit are the
host sides of `make qemu-test` and `make audit`.
"""
