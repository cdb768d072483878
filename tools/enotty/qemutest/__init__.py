"""`make qemu-test`: the host side of the vivid selftests booted in QEMU.

guest: the kernel (selftests/qemu/config), the kselftest, the initramfs
(selftests/qemu/init.sh as /init) and the QEMU configuration; console: the
console's TAP and v4l2-compliance results and the verdict; run: the
command.  Building and booting are enotty.kernel's.
"""
