// SPDX-License-Identifier: GPL-2.0
/*
 * The handler's switch returns for every command it does not know before
 * it calls the helper (mm/gup_test.c): the helper gets known commands
 * only, so its own default answers no unknown command and stays.
 */
#include <linux/fs.h>

static int __test_ioctl(unsigned int cmd, struct test *t)
{
	switch (cmd) {
	case TEST_A:
		return test_a(t);
	default:
		return -EINVAL;
	}
}

static long test_ioctl(struct file *filep, unsigned int cmd, unsigned long arg)
{
	struct test t;
	int ret;

	switch (cmd) {
	case TEST_A:
		break;
	default:
		return -EINVAL;
	}
	if (copy_from_user(&t, (void __user *)arg, sizeof(t)))
		return -EFAULT;
	ret = __test_ioctl(cmd, &t);
	if (ret)
		return ret;
	return 0;
}

static const struct file_operations test_fops = { .unlocked_ioctl = test_ioctl, };
