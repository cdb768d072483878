// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static long led_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct led_dev *led = file->private_data;
	int err;

	if (!led->present)
		return -ENODEV;

	switch (cmd) {
	case LED_ON:
		err = led_on(led);
		if (err)
			goto out;
		break;
	case LED_OFF:
		err = led_off(led);
		break;
	default:
		err = -ENOSYS;
		goto out;
	}
	led->state = cmd;
out:
	return err;
}

static const struct file_operations led_fops = {
	.unlocked_ioctl = led_ioctl,
};
