// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static long gen_ioctl(struct gen *gen, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case GEN_VERSION:
		return GEN_API_VERSION;
	default:
		return -ENOIOCTLCMD;
	}
}

static long dev_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct gen *gen = file->private_data;
	long ret;

	ret = gen_ioctl(gen, cmd, arg);
	if (ret == -ENOIOCTLCMD)
		ret = gen->ops->ioctl(gen, cmd, arg);
	return ret;
}

static const struct file_operations dev_fops = {
	.unlocked_ioctl = dev_ioctl,
};
