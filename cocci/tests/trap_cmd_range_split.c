// SPDX-License-Identifier: GPL-2.0
/*
 * Trap (ioctl_cmd_range_split): the test joined to the command range
 * stays when it calls a function (testing the range first would skip the
 * call for an unknown command), names the command, or assigns; and when
 * the if is nested under another test.
 */
#include <linux/fs.h>

#define FOO_MIN 0x4500
#define FOO_MAX 0x450F

static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	if (!capable(CAP_SYS_ADMIN) || cmd < FOO_MIN || cmd > FOO_MAX)
		return -EINVAL;
	return a_do(cmd, arg);
}

static long b_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	if (_IOC_SIZE(cmd) > 64 || cmd < FOO_MIN || cmd > FOO_MAX)
		return -EINVAL;
	return b_do(cmd, arg);
}

static long c_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct c_dev *c;

	if (!(c = f->private_data) || cmd < FOO_MIN || cmd > FOO_MAX)
		return -EINVAL;
	return c_do(c, cmd, arg);
}

static long d_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct d_dev *d = f->private_data;

	if (d->raw) {
		if (!arg || cmd < FOO_MIN || cmd > FOO_MAX)
			return -EINVAL;
	}
	return d_do(d, cmd, arg);
}

/* A reviewer's cases: the if under another without braces, an else if,
 * the command reassigned or handled by a switch before the range, and a
 * preprocessor line in the condition (a known command met the range). */
static long e_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct e_dev *e = f->private_data;

	if (e->raw)
		if (!arg || cmd < FOO_MIN || cmd > FOO_MAX)
			return -EINVAL;
	return e_do(e, cmd, arg);
}

static long g_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct g_dev *g = f->private_data;

	if (g->legacy)
		return g_legacy(g, cmd, arg);
	else if (!arg || cmd < FOO_MIN || cmd > FOO_MAX)
		return -EINVAL;
	return g_do(g, cmd, arg);
}

static long h_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct h_req r;

	if (cmd != H_REQUEST)
		return -ENOTTY;
	if (copy_from_user(&r, (void __user *)arg, sizeof(r)))
		return -EFAULT;
	cmd = r.op;
	if (!r.buf || cmd < FOO_MIN || cmd > FOO_MAX)
		return -EINVAL;
	return h_do(&r, cmd);
}

static long k_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct k_dev *k = f->private_data;

	switch (cmd) {
	case K_LOCK:
		k_lock(k);
		break;
	}
	if (!k->open || cmd < FOO_MIN || cmd > FOO_MAX)
		return -EINVAL;
	return k_do(k, cmd, arg);
}

static long m_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct m_dev *m = f->private_data;

	if (!arg
#ifdef CONFIG_M_READY
	    || !m->ready
#endif
	    || cmd < FOO_MIN || cmd > FOO_MAX)
		return -EINVAL;
	return m_do(m, cmd, arg);
}

static const struct file_operations a_fops = { .unlocked_ioctl = a_ioctl, };
static const struct file_operations b_fops = { .unlocked_ioctl = b_ioctl, };
static const struct file_operations c_fops = { .unlocked_ioctl = c_ioctl, };
static const struct file_operations d_fops = { .unlocked_ioctl = d_ioctl, };
static const struct file_operations e_fops = { .unlocked_ioctl = e_ioctl, };
static const struct file_operations g_fops = { .unlocked_ioctl = g_ioctl, };
static const struct file_operations h_fops = { .unlocked_ioctl = h_ioctl, };
static const struct file_operations k_fops = { .unlocked_ioctl = k_ioctl, };
static const struct file_operations m_fops = { .unlocked_ioctl = m_ioctl, };
