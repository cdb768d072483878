// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static int mbox_do_ioctl(struct mbox *mbox, unsigned int code, void __user *argp)
{
	switch (code) {
	case MBOX_SEND:
		return mbox_send(mbox, argp);
	case MBOX_RECV:
		return mbox_recv(mbox, argp);
	default:
		return -EINVAL;
	}
}

static long mbox_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct mbox *mbox = file->private_data;

	if (!mbox)
		return -ENODEV;
	return (long)mbox_do_ioctl(mbox, cmd, (void __user *)arg);
}

static const struct file_operations mbox_fops = {
	.unlocked_ioctl = mbox_ioctl,
};
