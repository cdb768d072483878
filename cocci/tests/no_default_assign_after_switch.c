// SPDX-License-Identifier: GPL-2.0
/*
 * ret = -EINVAL; right after a default-less switch on the command whose
 * every case leaves by goto, falling into the label that returns it
 * (issue 9; drivers/input/misc/uinput.c uinput_ioctl_handler: a first
 * switch on cmd, then one on cmd & ~IOCSIZE_MASK).
 */
#include <linux/fs.h>

static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	void __user *p = (void __user *)arg;
	unsigned int size;
	long retval;

	retval = mutex_lock_interruptible(&f->mutex);
	if (retval)
		return retval;

	switch (cmd) {
	case FOO_GET_VERSION:
		if (put_user(FOO_VERSION, (unsigned int __user *)p))
			retval = -EFAULT;
		goto out;

	case FOO_CREATE:
		retval = a_create(f);
		goto out;
	}

	size = _IOC_SIZE(cmd);

	/* Now check variable-length commands */
	switch (cmd & ~IOCSIZE_MASK) {
	case FOO_GET_NAME(0):
		if (f->state != FOO_CREATED) {
			retval = -ENOENT;
			goto out;
		}
		retval = a_name_to_user(p, f->name, size);
		goto out;

	case FOO_SETUP & ~IOCSIZE_MASK:
		retval = a_setup(f, p, size);
		goto out;
	}

	retval = -EINVAL;
 out:
	mutex_unlock(&f->mutex);
	return retval;
}

static const struct file_operations fops = {
	.unlocked_ioctl = a_ioctl,
};
