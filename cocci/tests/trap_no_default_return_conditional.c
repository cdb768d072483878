// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

/* LED_SET returns only when the value is valid and otherwise leaves the
 * switch: the final -EINVAL answers a known command, left alone. */
static long led_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case LED_GET:
		return led_get(file, arg);
	case LED_SET:
		if (arg <= LED_MAX)
			return led_set(file, arg);
	}

	return -EINVAL;
}

static const struct file_operations led_fops = {
	.unlocked_ioctl = led_ioctl,
};
