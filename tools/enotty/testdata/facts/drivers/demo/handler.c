// SPDX-License-Identifier: GPL-2.0
/* Handlers bound in fops.c: the rules of this file cannot know them. */
#include "demo.h"

static int ext_do_ioctl(struct file *f, unsigned int cmd, void *parg)
{
	switch (cmd) {
	case DEMO_ONE:
		return 0;
	default:
		return -EINVAL;
	}
}

static int ext_static(struct file *f, unsigned int nr, unsigned int cmd)
{
	return -EINVAL;
}

static int ext_fallback(struct file *f, unsigned int nr, unsigned int cmd)
{
	return -EINVAL;
}

long ext_handler(struct file *f, unsigned int cmd, unsigned long arg)
{
	if (cmd == DEMO_TWO)
		return ext_static(f, 0, cmd);
	if (_IOC_TYPE(cmd) != 'd')
		return ext_fallback(f, 0, cmd);
	return dvb_usercopy(f, cmd, arg, ext_do_ioctl);
}

int ext_tty_handler(struct tty_struct *tty, unsigned int cmd, unsigned long arg)
{
	return -ENOIOCTLCMD;
}

int ext_hwdep_ioctl(struct snd_hwdep *hw, struct file *file, unsigned int cmd, unsigned long arg)
{
	return -EINVAL;
}

/* Same name as a helper elsewhere, but static: not that helper. */
static int shared_helper(struct file *f, unsigned int cmd, unsigned long arg)
{
	return 0;
}
