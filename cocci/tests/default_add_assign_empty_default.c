// SPDX-License-Identifier: GPL-2.0
// A recognised command that breaks before assigning ret answers -EINVAL
// too: the initialiser is not only the unknown-command answer, so it
// stays, and `default: break;` sets -ENOTTY first
// (ioctl_default_add_assign).
#include <linux/fs.h>

static long vk_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	long ret = -EINVAL;

	switch (cmd) {
	case VK_LOAD_IMAGE:
		if (!vk_ready(file))
			break;
		ret = vk_load_image(file, arg);
		break;
	case VK_RESET:
		ret = vk_reset(file, arg);
		break;
	default:
		break;
	}

	return ret;
}

static const struct file_operations vk_fops = {
	.unlocked_ioctl = vk_ioctl,
};
