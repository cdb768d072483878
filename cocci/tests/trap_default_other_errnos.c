// SPDX-License-Identifier: GPL-2.0
// Answers that stay: -EOPNOTSUPP is the convention of a socket (proto_ops
// has no also_from: sock_no_ioctl() answers it), a default whose -EFAULT
// or -EOPNOTSUPP runs only under a test of the argument or of the state
// checks that first, and an -ENOTSUPP after a switch (only a default of
// the switch on the command converts these answers).
#include <linux/fs.h>
#include <linux/net.h>
#include <linux/uaccess.h>

#define FOO_GET	_IOR('f', 1, int)

static int foo_sock_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case FOO_GET:
		return foo_get(sock, arg);
	default:
		return -EOPNOTSUPP;
	}
}

static const struct proto_ops foo_proto_ops = {
	.ioctl	= foo_sock_ioctl,
};

static long bar_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct bar_req req;

	switch (cmd) {
	case FOO_GET:
		return bar_get(file, arg);
	default:
		if (copy_from_user(&req, (void __user *)arg, sizeof(req)))
			return -EFAULT;
		if (!bar_ready(file))
			return -EOPNOTSUPP;
		return bar_other(file, cmd, &req);
	}
}

static long baz_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case FOO_GET:
		return baz_get(file, arg);
	}
	return -ENOTSUPP;
}

static const struct file_operations bar_fops = {
	.unlocked_ioctl	= bar_ioctl,
};

static const struct file_operations baz_fops = {
	.unlocked_ioctl	= baz_ioctl,
};
