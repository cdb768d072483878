// SPDX-License-Identifier: GPL-2.0
/*
 * Switches on the kind of node that let a recognised command out too:
 * the return after them stays.  A case that breaks after a conditional
 * return (l_ioctl), an outer default that answers every command of an
 * unknown kind (m_ioctl), and a kind whose case does more than switch on
 * the command (n_ioctl).
 */
#include <linux/fs.h>

static long l_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (kind(file)) {
	case L_MASTER:
		switch (cmd) {
		case L_GET:
			if (l_busy(file))
				return -EBUSY;
			break;
		case L_SET:
			if (!arg)
				return -EFAULT; break;
		}
		break;
	}

	return -EINVAL;
}

static long m_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (kind(file)) {
	case M_MASTER:
		switch (cmd) {
		case M_GET:
			return m_get(file, arg);
		}
		break;
	default:
		m_log(file);
		break;
	}

	return -EINVAL;
}

static long n_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (kind(file)) {
	case N_MASTER:
		n_prepare(file);
		switch (cmd) {
		case N_GET:
			return n_get(file, arg);
		}
		break;
	}

	return -EINVAL;
}

static const struct file_operations l_fops = { .unlocked_ioctl = l_ioctl, };
static const struct file_operations m_fops = { .unlocked_ioctl = m_ioctl, };
static const struct file_operations n_fops = { .unlocked_ioctl = n_ioctl, };
