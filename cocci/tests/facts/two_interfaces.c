// SPDX-License-Identifier: GPL-2.0
// A helper another file's socket handlers call from both .ioctl and
// .compat_ioctl (net/bluetooth/rfcomm/tty.c rfcomm_dev_ioctl()): the
// facts name it under both; the native row is its interface.
#include <net/sock.h>

int bar_dev_ioctl(struct sock *sk, unsigned int cmd, void __user *arg)
{
	switch (cmd) {
	case BARCREATEDEV:
		return bar_create_dev(sk, arg);
	case BARRELEASEDEV:
		return bar_release_dev(arg);
	}

	return -EINVAL;
}
