// SPDX-License-Identifier: GPL-2.0
/*
 * The number bound through a local assigned from the command
 * (drivers/dma-buf/dma-heap.c): a number past the table is no command.
 */
#include <linux/fs.h>
#include <linux/ioctl.h>

static unsigned int heap_cmds[] = {
	HEAP_IOCTL_ALLOC,
};

static long heap_ioctl(struct file *file, unsigned int ucmd, unsigned long arg)
{
	unsigned int kcmd;
	int nr = _IOC_NR(ucmd);

	if (nr >= ARRAY_SIZE(heap_cmds))
		return -EINVAL;
	kcmd = heap_cmds[nr];
	return heap_do(file, kcmd, arg);
}

static const struct file_operations heap_fops = { .unlocked_ioctl = heap_ioctl, };
