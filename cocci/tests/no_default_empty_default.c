// SPDX-License-Identifier: GPL-2.0
// A default that only breaks is no answer of its own: an unknown command
// leaves the switch with ret still -EINVAL (drivers/misc/bcm-vk).
#include <linux/fs.h>

static long vk_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	long ret = -EINVAL;

	mutex_lock(&vk_mutex);

	switch (cmd) {
	case VK_LOAD_IMAGE:
		ret = vk_load_image(file, arg);
		break;

	case VK_RESET:
		ret = vk_reset(file, arg);
		break;

	default:
		break;
	}

	mutex_unlock(&vk_mutex);

	return ret;
}

static const struct file_operations vk_fops = {
	.unlocked_ioctl = vk_ioctl,
};
