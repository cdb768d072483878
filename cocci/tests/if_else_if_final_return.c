// SPDX-License-Identifier: GPL-2.0
/*
 * An if/else-if chain on the command whose every branch leaves by return
 * or goto, then the final answer (issue 9; drivers/crypto/hisilicon/qm.c
 * hisi_qm_uacce_ioctl): only an unknown command falls out of the chain.
 */
#include <linux/fs.h>

static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	if (cmd == FOO_SET_CTX) {
		if (copy_from_user(&f->ctx, (void __user *)arg, sizeof(f->ctx)))
			return -EFAULT;
		if (f->ctx.type > 1)
			return -EINVAL;
		return 0;
	} else if (cmd == FOO_GET_INFO || cmd == FOO_GET_INFO_OLD) {
		if (copy_to_user((void __user *)arg, &f->info, sizeof(f->info)))
			return -EFAULT;
		return 0;
	} else if (cmd == FOO_RESET)
		return a_reset(f);

	return -EINVAL;
}

static long b_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	long ret;

	mutex_lock(&f->lock);
	if (cmd == FOO_START) {
		ret = b_start(f);
		goto out;
	} else if (cmd == FOO_STOP) {
		ret = b_stop(f);
		goto out;
	}
	ret = -EINVAL;
out:
	mutex_unlock(&f->lock);
	return ret;
}

static const struct file_operations fops = {
	.unlocked_ioctl = a_ioctl,
	.compat_ioctl = b_ioctl,
};
