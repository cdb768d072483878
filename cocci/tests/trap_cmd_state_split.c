// SPDX-License-Identifier: GPL-2.0
/*
 * Trap (ioctl_cmd_state_split): an if that joins a test of the command with
 * a second test stays when the second test names the command (an argument
 * size of the command: a known command can fail it, the command test
 * being no longer separable as "unknown"), when it assigns (splitting
 * would not change that, but the rule does not rewrite side effects), when
 * the state is tested first (the split would reorder the tests), and
 * when the if is nested under another test of the state.
 */
#include <linux/fs.h>

static long foo_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct foo_dev *foo = filp->private_data;

	if (cmd != FOO_GET || _IOC_SIZE(cmd) < sizeof(struct foo_req))
		return -EINVAL;

	return foo_get(foo, arg);
}

static long bar_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct bar_dev *bar;

	if (cmd != BAR_GET || !(bar = filp->private_data))
		return -EINVAL;

	return bar_get(bar, arg);
}

static long baz_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct baz_dev *baz = filp->private_data;

	if (!baz->ready || cmd != BAZ_GET)
		return -EINVAL;

	return baz_get(baz, arg);
}

static long qux_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct qux_dev *qux = filp->private_data;

	if (qux->mode == QUX_RAW) {
		if (cmd != QUX_GET || !qux->open)
			return -EINVAL;
	}

	return qux_get(qux, cmd, arg);
}

/* the if under another without braces: a reviewer's case of the range split */
static long raw_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct raw_dev *raw = filp->private_data;

	if (raw->locked)
		if (cmd != RAW_GET || !raw->open)
			return -EINVAL;
	return raw_get(raw, cmd, arg);
}

static const struct file_operations foo_fops = {
	.unlocked_ioctl = foo_ioctl,
};

static const struct file_operations bar_fops = {
	.unlocked_ioctl = bar_ioctl,
};

static const struct file_operations baz_fops = {
	.unlocked_ioctl = baz_ioctl,
};

static const struct file_operations qux_fops = {
	.unlocked_ioctl = qux_ioctl,
};

static const struct file_operations raw_fops = {
	.unlocked_ioctl = raw_ioctl,
};
