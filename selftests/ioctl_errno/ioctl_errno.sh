#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs ioctl_errno, and ioctl_errno_32 where it was built and the kernel
# runs it, on the nodes of the vivid and vimc test drivers.  A driver that
# is not loaded yet is loaded here and unloaded at the end; vivid gets its
# default node types plus its framebuffer (node_types bit 16).  The
# program skips the kinds of node a missing driver would have given; this
# skips when neither driver can be loaded.

ksft_skip=4
vivid_node_types=0xf1d3d

# loading the drivers and opening their nodes take root
if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: must be run as root"
	exit $ksft_skip
fi

cd "$(dirname "$0")" || exit 1

loaded=""
present=0
for mod in vivid vimc; do
	if [ -d "/sys/module/$mod" ]; then
		present=1
		continue
	fi
	args=""
	[ "$mod" = vivid ] && args="node_types=$vivid_node_types"
	if modprobe -q "$mod" $args; then
		present=1
		loaded="$mod $loaded"
	else
		echo "# cannot load $mod: its nodes are not tested"
	fi
done
if [ $present -eq 0 ]; then
	echo "SKIP: cannot load vivid or vimc (CONFIG_VIDEO_VIVID, CONFIG_VIDEO_VIMC?)"
	exit $ksft_skip
fi

rc=0
ran=0
for prog in ioctl_errno ioctl_errno_32; do
	[ -x "./$prog" ] || continue
	# a 64-bit kernel without 32-bit support cannot run ioctl_errno_32:
	# it does not even list its tests
	if ! "./$prog" -l 2>&1 | grep -q unknown_own_range; then
		echo "# $prog does not run on this kernel"
		continue
	fi
	echo "# running $prog"
	ran=1
	# the harness exits 0 or 1 (a case it cannot run is a SKIP line)
	./$prog || rc=1
done

# fbcon may have taken vivid's framebuffer: the module then stays
for mod in $loaded; do
	modprobe -q -r "$mod" || echo "# cannot unload $mod: it is in use"
done
if [ $ran -eq 0 ]; then
	echo "SKIP: no ioctl_errno program runs here"
	exit $ksft_skip
fi
exit $rc
