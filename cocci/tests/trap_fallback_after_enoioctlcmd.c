// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/net.h>

/* The core's own commands, tried last (net/socket.c
 * compat_sock_ioctl_trans): reached only once the protocol answered
 * -ENOIOCTLCMD, so its -ENOIOCTLCMD is the answer of the whole chain and
 * the compat syscall turns it into -ENOTTY. */
static int xsock_compat_trans(struct file *file, struct socket *sock,
			      unsigned int cmd, unsigned long arg)
{
	const struct proto_ops *ops;

	switch (cmd) {
	case SIOCGSTAMP_OLD:
		ops = READ_ONCE(sock->ops);
		if (!ops->gettstamp)
			return -ENOIOCTLCMD;
		return ops->gettstamp(sock, compat_ptr(arg), true, false);
	case SIOCGIFNAME:
		return xsock_do_ioctl(sock, cmd, arg);
	}

	return -ENOIOCTLCMD;
}

/* Same chain written the other way round. */
static long xsock_native_trans(struct socket *sock, unsigned int cmd,
			       unsigned long arg)
{
	switch (cmd) {
	case SIOCGIFNAME:
		return xsock_do_ioctl(sock, cmd, arg);
	}
	return -ENOIOCTLCMD;
}

static long xsock_compat_ioctl(struct file *file, unsigned int cmd,
			       unsigned long arg)
{
	struct socket *sock = file->private_data;
	const struct proto_ops *ops = READ_ONCE(sock->ops);
	int ret = -ENOIOCTLCMD;

	if (ops->compat_ioctl)
		ret = ops->compat_ioctl(sock, cmd, arg);

	if (ret == -ENOIOCTLCMD)
		ret = xsock_compat_trans(file, sock, cmd, arg);

	return ret;
}

static long xsock_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct socket *sock = file->private_data;
	long ret;

	ret = READ_ONCE(sock->ops)->ioctl(sock, cmd, arg);
	if (ret != -ENOIOCTLCMD)
		return ret;
	return xsock_native_trans(sock, cmd, arg);
}

static const struct file_operations xsock_fops = {
	.unlocked_ioctl = xsock_ioctl,
	.compat_ioctl = xsock_compat_ioctl,
};
