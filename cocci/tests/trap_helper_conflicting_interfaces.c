// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/tty_driver.h>

/* One helper behind a tty driver (unknown: -ENOIOCTLCMD, the ldisc is
 * tried next) and a character device (unknown: -ENOTTY): no single answer
 * fits both callers, so the helper is left alone. */
static int modem_cmd(struct modem *m, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case MODEM_HANGUP:
		return modem_hangup(m);
	default:
		return -EINVAL;
	}
}

static int modem_tty_ioctl(struct tty_struct *tty, unsigned int cmd,
			   unsigned long arg)
{
	return modem_cmd(tty->driver_data, cmd, arg);
}

static long modem_chr_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	return modem_cmd(file->private_data, cmd, arg);
}

static const struct tty_operations modem_tty_ops = {
	.ioctl = modem_tty_ioctl,
};

static const struct file_operations modem_fops = {
	.unlocked_ioctl = modem_chr_ioctl,
};
