// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/ioctl.h>

#define ADC_MAGIC	'a'
#define ADC_MAXNR	4

static long adc_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (_IOC_TYPE(cmd) != ADC_MAGIC)
		return -EINVAL;
	if (_IOC_NR(cmd) > ADC_MAXNR)
		return -EINVAL;

	switch (cmd) {
	case ADC_START:
		return adc_start(file);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations adc_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = adc_ioctl,
};
