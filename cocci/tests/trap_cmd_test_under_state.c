// SPDX-License-Identifier: GPL-2.0
/*
 * Trap (drivers/tty/moxa.c): on its control node the driver refuses every
 * command but three.  The test of the command sits under a test of the
 * state, so its -EINVAL also refuses commands the tty core knows (which
 * -ENOIOCTLCMD would hand to the core): it is no unknown-command answer
 * and stays (guard_forms.c: the same test in the body of a function
 * converts).
 */
#include <linux/tty.h>

static int foo_ioctl(struct tty_struct *tty, unsigned int cmd, unsigned long arg)
{
	struct foo_port *ch = tty->driver_data;

	if (tty->index == FOO_CONTROL_PORT) {
		if (cmd != FOO_GETDATACOUNT && cmd != FOO_GETMSTATUS)
			return -EINVAL;
	} else if (!ch)
		return -ENODEV;

	return foo_do_ioctl(tty, cmd, arg);
}

static const struct tty_operations foo_ops = {
	.ioctl = foo_ioctl,
};
