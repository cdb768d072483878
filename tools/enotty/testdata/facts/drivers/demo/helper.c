// SPDX-License-Identifier: GPL-2.0
/* Helpers of fops.c; this file names no ops member. */
#include "demo.h"

int shared_helper(struct file *f, unsigned int cmd, unsigned long arg)
{
	if (cmd != DEMO_FIVE)
		return deeper_helper(f, cmd);
	return 0;
}

int case_only_helper(struct file *f, unsigned int cmd)
{
	return -EINVAL;
}

int equal_only_helper(struct file *f, unsigned int cmd)
{
	return -EINVAL;
}

int trynext_helper(struct file *f, unsigned int cmd)
{
	return -ENOIOCTLCMD;
}

int fall_helper(struct file *f, unsigned int cmd)
{
	return -EINVAL;
}
