// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/uaccess.h>

static long req_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct req_args req;

	if (cmd != REQ_SUBMIT)
		return -ENOTTY;
	if (copy_from_user(&req, (void __user *)arg, sizeof(req)))
		return -EFAULT;

	switch (req.type) {
	case REQ_READ:
		return req_read(&req);
	case REQ_WRITE:
		return req_write(&req);
	default:
		return -EINVAL;
	}
}

static const struct file_operations req_fops = {
	.unlocked_ioctl = req_ioctl,
};
