// SPDX-License-Identifier: GPL-2.0
/*
 * State checks before the dispatch that ioctl_valid_first leaves alone:
 * the commands the function handles cannot all be listed from the case
 * labels, the test of the command could not go where the check is, or
 * nothing answers an unknown command -EINVAL after the check anyway.  The
 * defaults convert as ever (the pipeline then leaves these handlers out
 * for the check that answers first); no test of the command is added.
 */
#include <linux/fs.h>

/* a case under #ifdef: the list would hold it in every configuration */
static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct a_dev *a = f->private_data;

	if (!a->ready)
		return -EINVAL;
	switch (cmd) {
	case A_GET:
		return a_get(a, arg);
#ifdef CONFIG_A_DEBUG
	case A_DUMP:
		return a_dump(a, arg);
#endif
	default:
		return -EINVAL;
	}
}

/* a command handed to another function: it may know more commands */
static long b_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct b_dev *b = f->private_data;

	if (!b->ready)
		return -EINVAL;
	if (_IOC_TYPE(cmd) == B_LEGACY_MAGIC)
		return b_legacy_ioctl(b, cmd, arg);
	switch (cmd) {
	case B_GET:
		return b_get(b, arg);
	default:
		return -EINVAL;
	}
}

/* the command rewritten before the dispatch */
static long c_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct c_dev *c = f->private_data;

	cmd = c_native_cmd(cmd);
	if (!c->ready)
		return -EINVAL;
	switch (cmd) {
	case C_GET:
		return c_get(c, arg);
	default:
		return -EINVAL;
	}
}

/* the block of the check releases what was taken before it */
static long d_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct d_dev *d = f->private_data;
	void *buf = kmalloc(64, GFP_KERNEL);

	if (!d->ready) {
		kfree(buf);
		return -EINVAL;
	}
	switch (cmd) {
	case D_GET:
		return d_get(d, buf, arg);
	default:
		kfree(buf);
		return -EINVAL;
	}
}

/* a check of the argument: it may answer first (the V4L2 core does) */
static long e_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	if (!arg)
		return -EINVAL;
	switch (cmd) {
	case E_GET:
		return e_get(f, arg);
	default:
		return -EINVAL;
	}
}

/* a check of the argument read before it: it may answer first */
static long f_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct f_map map;

	if (copy_from_user(&map, (void __user *)arg, sizeof(map)))
		return -EFAULT;
	if (map.flags != 0)
		return -EINVAL;
	switch (cmd) {
	case F_GET:
		return f_get(f, &map);
	default:
		return -EINVAL;
	}
}

/* the check is the branch of another if without braces */
static long g_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct g_dev *g = f->private_data;

	if (g->strict)
		if (!g->ready)
			return -EINVAL;
	switch (cmd) {
	case G_GET:
		return g_get(g, arg);
	default:
		return -EINVAL;
	}
}

/* the name the test would call is taken */
static bool h_ioctl_valid(unsigned int cmd)
{
	return cmd == H_GET;
}

static long h_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct h_dev *h = f->private_data;

	if (!h->ready)
		return -EINVAL;
	switch (cmd) {
	case H_GET:
		return h_get(h, arg);
	default:
		return -EINVAL;
	}
}

/* the switch is on a value computed from the command */
static long i_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct i_dev *i = f->private_data;

	if (!i->ready)
		return -EINVAL;
	switch (_IOC_NR(cmd)) {
	case I_GET_NR:
		return i_get(i, arg);
	default:
		return -EINVAL;
	}
}

/* unknown commands already get -ENOTTY after the check: no exit to fix */
static long j_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct j_dev *j = f->private_data;

	if (!j->ready)
		return -EINVAL;
	switch (cmd) {
	case J_GET:
		return j_get(j, arg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations a_fops = { .unlocked_ioctl = a_ioctl, };
static const struct file_operations b_fops = { .unlocked_ioctl = b_ioctl, };
static const struct file_operations c_fops = { .unlocked_ioctl = c_ioctl, };
static const struct file_operations d_fops = { .unlocked_ioctl = d_ioctl, };
static const struct file_operations e_fops = { .unlocked_ioctl = e_ioctl, };
static const struct file_operations f_fops = { .unlocked_ioctl = f_ioctl, };
static const struct file_operations g_fops = { .unlocked_ioctl = g_ioctl, };
static const struct file_operations h_fops = { .unlocked_ioctl = h_ioctl, };
static const struct file_operations i_fops = { .unlocked_ioctl = i_ioctl, };
static const struct file_operations j_fops = { .unlocked_ioctl = j_ioctl, };
