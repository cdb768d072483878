// SPDX-License-Identifier: GPL-2.0
static long atomisp_vidioc_default(struct file *file, void *fh,
				   bool valid_prio, unsigned int cmd, void *arg)
{
	/* Disable all private IOCTLs for now! */
	if (cmd)
		return -EINVAL;

	struct video_device *vdev = video_devdata(file);
	int err;

	switch (cmd) {
	case ATOMISP_IOC_S_SENSOR_RUNMODE:
		err = atomisp_set_sensor_runmode(asd, arg);
		break;
	default:
		err = -EINVAL;
		break;
	}

	return err;
}

const struct v4l2_ioctl_ops atomisp_ioctl_ops = {
	.vidioc_querycap = atomisp_querycap,
	.vidioc_default = atomisp_vidioc_default,
};
