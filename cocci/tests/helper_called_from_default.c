// SPDX-License-Identifier: GPL-2.0
// A helper that the handler calls under default: (or after its switch)
// gets the unknown commands: it is followed.  Its own helper, called only
// under an explicit case label, is not.
#include <linux/fs.h>

static long cam_old_set(struct cam *cam, unsigned int cmd, void __user *argp)
{
	if (cmd != CAM_OLD_SET)
		return -EINVAL;
	return cam_write_old(cam, argp);
}

static long cam_legacy(struct cam *cam, unsigned int cmd, void __user *argp)
{
	switch (cmd) {
	case CAM_OLD_GET:
		return cam_read_old(cam, argp);
	case CAM_OLD_SET:
		return cam_old_set(cam, cmd, argp);
	default:
		return -EINVAL;
	}
}

static long cam_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct cam *cam = file->private_data;

	switch (cmd) {
	case CAM_START:
		return cam_start(cam);
	case CAM_OLD_GET:
		return cam_legacy(cam, cmd, (void __user *)arg);
	default:
		return cam_legacy(cam, cmd, (void __user *)arg);
	}
}

static long cam_aux_query(struct cam *cam, unsigned int cmd, void __user *argp)
{
	long ret;

	switch (cmd) {
	case CAM_AUX_GET:
		ret = cam_aux_read(cam, argp);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	return ret;
}

static long cam_aux_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct cam *cam = file->private_data;
	long ret;

	switch (cmd) {
	case CAM_AUX_RESET:
		return cam_aux_reset(cam);
	}
	mutex_lock(&cam->lock);
	ret = cam_aux_query(cam, cmd, (void __user *)arg);
	mutex_unlock(&cam->lock);
	return ret;
}

static const struct file_operations cam_fops = {
	.unlocked_ioctl = cam_ioctl,
};

static const struct file_operations cam_aux_fops = {
	.unlocked_ioctl = cam_aux_ioctl,
};
