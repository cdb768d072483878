#!/bin/sh
# /init of the QEMU run's initramfs (busybox).  Runs the kernel's
# `make kselftest-install` output (/kselftest) the way a kselftest user
# does, through run_kselftest.sh (the media test loads vivid and vimc
# itself), then loads vivid again for v4l2-compliance on every vivid video
# node, framing each program's output with ENOTTY-QEMU markers for
# enotty.qemutest.console, then leaves QEMU through isa-debug-exit (I/O
# port 0xf4, so QEMU exits with 1).
/bin/busybox mkdir -p /proc /sys /dev /tmp /bin /sbin /usr/bin /usr/sbin
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
# CONFIG_DEVTMPFS_MOUNT does not apply to an initramfs.
mount -t devtmpfs devtmpfs /dev
# What udev makes on a real system: kselftest's runner writes to /dev/stdout.
ln -s /proc/self/fd /dev/fd
ln -s /proc/self/fd/0 /dev/stdin
ln -s /proc/self/fd/1 /dev/stdout
ln -s /proc/self/fd/2 /dev/stderr
export PATH=/bin:/sbin:/usr/bin:/usr/sbin

frame() {	# frame KIND NAME COMMAND...
	kind=$1 name=$2
	shift 2
	echo "ENOTTY-QEMU: BEGIN $kind $name"
	"$@" 2>&1
	echo "ENOTTY-QEMU: END $kind $name rc=$?"
}

# TCG runs the programs many times slower than hardware: more than
# kselftest's default 45 seconds per test.
frame kselftest run_kselftest.sh /kselftest/run_kselftest.sh --override-timeout 400

# vivid's default nodes plus its framebuffer, as the kselftest loads it.
modprobe vivid node_types=0xf1d3d

# vivid's video device nodes, found through sysfs, named by their
# sysfs name (stable across kernels) rather than their /dev name.
if [ -x /usr/bin/v4l2-compliance ]; then
	for d in /sys/class/video4linux/*; do
		[ -e "$d/device/driver" ] || continue
		drv=$(basename "$(readlink "$d/device/driver")")
		[ "$drv" = vivid ] || continue
		dev=$(sed -n 's/^DEVNAME=//p' "$d/uevent")
		name=$(cat "$d/name" | tr ' ' _)
		frame compliance "$name" stdbuf -oL v4l2-compliance -d "/dev/$dev"
	done
fi

echo "ENOTTY-QEMU: BEGIN dmesg kernel"
dmesg
echo "ENOTTY-QEMU: END dmesg kernel rc=0"
echo "ENOTTY-QEMU: DONE"
printf '\000' | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
# Without isa-debug-exit: QEMU runs with -no-reboot.
reboot -f
