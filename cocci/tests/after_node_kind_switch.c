// SPDX-License-Identifier: GPL-2.0
/*
 * A switch on the kind of node, each case a switch on the command whose
 * cases all return, then break (drivers/staging/vme_user/vme_user.c
 * vme_user_ioctl()): only a command that the node's kind does not
 * implement reaches the return after it.  A dead break after a return
 * does not let a case out.
 */
#include <linux/fs.h>

static long k_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	unsigned int minor = iminor(file_inode(file));

	switch (kind[minor]) {
	case K_CONTROL:
		switch (cmd) {
		case K_IRQ_GEN:
			return k_irq_generate(arg);
		}
		break;
	case K_MASTER:
		switch (cmd) {
		case K_GET_MASTER:
			return k_get_master(minor, arg);
		case K_SET_MASTER:
			if (k_mapped(minor))
				return -EPERM;
			return k_set_master(minor, arg);

			break;
		}
		break;
	}

	return -EINVAL;
}

static const struct file_operations k_fops = { .unlocked_ioctl = k_ioctl, };
