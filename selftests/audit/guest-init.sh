#!/bin/sh
# /init of the audit kernel's initramfs (busybox).  Mounts what the probe
# needs, runs the setup steps the instantiation table names (listed one per
# line in /audit/setups), then the probe, native and -m32, then the in-tree
# kselftests listed in /audit/kselftests/list, each framed by ENOTTY-AUDIT
# markers for enotty.audit.bootlog, and leaves QEMU through isa-debug-exit
# (I/O port 0xf4).
/bin/busybox mkdir -p /proc /sys /dev /tmp /bin /sbin /usr/bin /usr/sbin
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
# CONFIG_DEVTMPFS_MOUNT does not apply to an initramfs.
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts
mount -t devpts devpts /dev/pts
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t configfs configfs /sys/kernel/config 2>/dev/null
export PATH=/bin:/sbin:/usr/bin:/usr/sbin

say() { echo "ENOTTY-AUDIT: $*"; }

frame() {	# frame KIND NAME SECONDS COMMAND... (END says how long it took)
	kind=$1 name=$2 secs=$3
	shift 3
	say "BEGIN $kind $name"
	start=$(date +%s)
	timeout "$secs" "$@" 2>&1
	rc=$?
	say "END $kind $name rc=$rc secs=$(($(date +%s) - start))"
}

# --- setup steps (named in instantiate.tsv's setup column) -----------------

setup_binderfs() {
	mkdir -p /dev/binderfs && mount -t binder binder /dev/binderfs
}

setup_loop() {
	dd if=/dev/zero of=/tmp/loop0.img bs=1024 count=1024 2>/dev/null &&
	losetup /dev/loop0 /tmp/loop0.img
}

setup_gpiosim() {
	c=/sys/kernel/config/gpio-sim/audit
	mkdir "$c" && mkdir "$c/bank0" && echo 8 > "$c/bank0/num_lines" &&
	echo 1 > "$c/live"
}

setup_iiodummy() {
	mkdir /sys/kernel/config/iio/devices/dummy/audit
}

setup_macvtap() {
	# iproute2's ip (busybox's cannot make a macvtap link).
	ip=/usr/sbin/ip
	$ip link add audit0 type dummy && $ip link set audit0 up &&
	$ip link add link audit0 name auditvtap0 type macvtap && $ip link set auditvtap0 up
}

setup_autofs() {
	# The daemon end of autofs is a pipe; nothing reads it, and nothing
	# needs to: the probe only opens the mount's root as root.
	# pgrp: the daemon's process group must exist; /init's own pid does.
	mkdir -p /autofs && mkfifo /tmp/autofs.pipe && exec 7<>/tmp/autofs.pipe &&
	mount -t autofs -o "fd=7,pgrp=$$,minproto=5,maxproto=5" autofs /autofs
}

setup_mapbench() {
	# pci-testdev (1b36:0005) has no driver of its own: hand it to
	# dma_map_benchmark, whose probe creates the debugfs file.
	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/vendor"):$(cat "$d/device")" = 0x1b36:0x0005 ] || continue
		echo dma_map_benchmark > "$d/driver_override" &&
		echo "${d##*/}" > /sys/bus/pci/drivers/dma_map_benchmark/bind
		return
	done
	return 1
}

setup_orangefs() {
	# A bare register_chrdev(): no sysfs device, so no devtmpfs node.
	major=$(awk '$2 == "pvfs2-req" { print $1 }' /proc/devices)
	[ -n "$major" ] && mknod /dev/pvfs2-req c "$major" 0
}

setup_megadev_legacy() {
	# Like pvfs2-req: a bare register_chrdev() at init, no sysfs device.
	major=$(awk '$2 == "megadev_legacy" { print $1 }' /proc/devices)
	[ -n "$major" ] && mknod /dev/megadev_legacy c "$major" 0
}

setup_joystick() {
	# joydev needs a joystick; QEMU has none.  The probe makes one through
	# uinput and keeps it while it lives (until QEMU exits).
	/audit/probe/ioctl_probe -j &
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		[ -e /dev/input/js0 ] && return 0
		sleep 1
	done
	return 1
}

setup_rpcpipefs() {
	# The sunrpc pipe filesystem; its gssd/clntXX/gssd pipe is there
	# without any RPC client.
	mkdir -p /var/lib/nfs/rpc_pipefs &&
	mount -t rpc_pipefs rpc_pipefs /var/lib/nfs/rpc_pipefs
}

setup_cachefiles() {
	# The cache of the probe's on-demand cachefiles daemon: cachefiles
	# wants user xattrs and sync_fs of its filesystem, which tmpfs lacks;
	# an ext2 image on a loop device has both (busybox's mke2fs does not
	# make user_xattr a default mount option).
	dd if=/dev/zero of=/tmp/fscache.img bs=1024 count=8192 2>/dev/null &&
	mke2fs -F -b 4096 /tmp/fscache.img >/dev/null &&
	mkdir -p /var/cache/fscache &&
	mount -t ext2 -o loop,user_xattr /tmp/fscache.img /var/cache/fscache
}

setup_usbtmc() {
	# usbtmc needs a USB test and measurement instrument; QEMU emulates
	# none.  A configfs gadget with one FunctionFS function, which the
	# probe fills with a TMC interface and keeps open (ioctl_probe -f, in
	# the background until QEMU exits), bound to a free dummy_hcd UDC
	# (dummy_hcd.num=2: a legacy gadget may hold the first): dummy_hcd's
	# host side enumerates it and usbtmc binds.
	g=/sys/kernel/config/usb_gadget/audit_tmc
	mkdir "$g" && echo 0x1d6b > "$g/idVendor" && echo 0x0104 > "$g/idProduct" &&
	mkdir "$g/functions/ffs.tmc" "$g/configs/c.1" &&
	ln -s "$g/functions/ffs.tmc" "$g/configs/c.1/" &&
	mkdir -p /dev/ffs-tmc && mount -t functionfs tmc /dev/ffs-tmc || return 1
	/audit/probe/ioctl_probe -f /dev/ffs-tmc &
	# FunctionFS makes the endpoint files once the descriptors are in.
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		[ -e /dev/ffs-tmc/ep1 ] && break
		sleep 1
	done
	for udc in /sys/class/udc/*; do
		echo "${udc##*/}" > "$g/UDC" 2>/dev/null && break
	done
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		ls /dev/usbtmc* >/dev/null 2>&1 && return 0
		sleep 1
	done
	return 1
}

setup_securityfs() {
	mount -t securityfs securityfs /sys/kernel/security
}

# -----------------------------------------------------------------------------

say "BEGIN setup all"
while read -r step; do
	[ -n "$step" ] || continue
	if "setup_$step" 2>&1; then
		say "SETUP $step ok"
	else
		say "SETUP $step failed"
	fi
done < /audit/setups
say "END setup all rc=0"

# Which driver answers for each device node: the probe reports it, and the
# audit also keeps this list to say which table rows were instantiated.
say "BEGIN nodes all"
for d in /sys/class/*/* /sys/block/*; do
	[ -f "$d/dev" ] || continue
	dev=$(sed -n 's/^DEVNAME=//p' "$d/uevent")
	drv=-
	[ -e "$d/device/driver" ] && drv=$(basename "$(readlink "$d/device/driver")")
	echo "/dev/$dev $drv"
done
say "END nodes all rc=0"

# Every node, fd kind and default file; then the targets the probe opens
# only when named (watchdogs, directories: /audit/probe-named).  Both runs
# get the setup steps of instantiate.tsv (/audit/probe-setups: -s and
# GLOB=STEP, one word a line; globs, so no pathname expansion).
for p in /audit/probe/*; do
	[ -x "$p" ] || continue
	set -f
	# shellcheck disable=SC2046 # one word per line, no spaces
	frame probe "${p##*/}" "$(cat /audit/probe-timeout)" "$p" $(cat /audit/probe-setups)
	if [ -s /audit/probe-named ]; then
		# shellcheck disable=SC2046 # one target per line, no spaces
		frame probe "${p##*/}-named" "$(cat /audit/probe-timeout)" "$p" \
			$(cat /audit/probe-setups) $(cat /audit/probe-named)
	fi
done
set +f

# The in-tree kselftests of the touched files (kselftests.tsv), after the
# probe so that nothing they leave behind changes its answers.  Each runs
# in a scratch folder of its own, stdin from /dev/null (not the list).
while IFS='	' read -r name secs args; do
	[ -n "$name" ] || continue
	mkdir -p "/tmp/kselftest/$name"
	cd "/tmp/kselftest/$name" || continue
	# shellcheck disable=SC2086 # the program and its arguments, no spaces inside
	set -- $args
	prog=$1
	shift
	frame kselftest "$name" "$secs" "/audit/kselftests/$prog" "$@" </dev/null
	cd /
done < /audit/kselftests/list

say "BEGIN dmesg kernel"
dmesg
say "END dmesg kernel rc=0"
say "DONE"
printf '\000' | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
# Without isa-debug-exit: QEMU runs with -no-reboot.
reboot -f
