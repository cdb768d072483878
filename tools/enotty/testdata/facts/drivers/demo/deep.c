// SPDX-License-Identifier: GPL-2.0
/* Reached from helper.c, which names no ops member either. */
#include "demo.h"

int deeper_helper(struct file *f, unsigned int cmd)
{
	return -EINVAL;
}
