// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static long pwm_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct pwm_dev *pwm = file->private_data;

	if (cmd == PWM_SET_PERIOD) {
		pwm->period = arg;
		return 0;
	} else if (cmd == PWM_SET_DUTY) {
		pwm->duty = arg;
		return 0;
	} else {
		return -EINVAL;
	}
}

static const struct file_operations pwm_fops = {
	.unlocked_ioctl = pwm_ioctl,
};
