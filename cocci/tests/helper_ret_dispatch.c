// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/mutex.h>

static long ring_cmd(struct ring *ring, unsigned int cmd, unsigned long arg)
{
	long ret;

	switch (cmd) {
	case RING_PUSH:
		ret = ring_push(ring, arg);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	return ret;
}

static long ring_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct ring *ring = file->private_data;
	long ret;

	mutex_lock(&ring->lock);
	ret = ring_cmd(ring, cmd, arg);
	mutex_unlock(&ring->lock);
	return ret;
}

static const struct file_operations ring_fops = {
	.unlocked_ioctl = ring_ioctl,
};
