// SPDX-License-Identifier: GPL-2.0
#include <linux/tty.h>
#include <linux/tty_ldisc.h>

static int xldisc_ioctl(struct tty_struct *tty, unsigned int cmd,
			unsigned long arg)
{
	struct xldisc *x = tty->disc_data;

	switch (cmd) {
	case XLDISC_GETUNIT:
		return put_user(x->unit, (int __user *)arg);
	default:
		return -EINVAL;
	}
}

static int xldisc_compat_ioctl(struct tty_struct *tty, unsigned int cmd,
			       unsigned long arg)
{
	if (cmd == XLDISC_GETUNIT)
		return xldisc_ioctl(tty, cmd, (unsigned long)compat_ptr(arg));
	else
		return -EINVAL;
}

static struct tty_ldisc_ops xldisc = {
	.owner		= THIS_MODULE,
	.num		= N_XLDISC,
	.name		= "xldisc",
	.ioctl		= xldisc_ioctl,
	.compat_ioctl	= xldisc_compat_ioctl,
};
