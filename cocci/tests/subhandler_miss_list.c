// SPDX-License-Identifier: GPL-2.0
// The handler hands every command to its registered handlers in turn; one
// that does not know it answers IIO_IOCTL_UNHANDLED, so the -ENODEV after
// the loop answers only a command none of them took
// (drivers/iio/industrialio-core.c iio_ioctl()).  The -ENODEV of the
// device that is gone stays.
#include <linux/fs.h>
#include <linux/list.h>

static long iio_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct iio_dev *indio_dev = filp->private_data;
	struct iio_ioctl_handler *h;
	int ret;

	if (!indio_dev->info)
		return -ENODEV;

	list_for_each_entry(h, &indio_dev->ioctl_handlers, entry) {
		ret = h->ioctl(indio_dev, filp, cmd, arg);
		if (ret != IIO_IOCTL_UNHANDLED)
			return ret;
	}

	return -ENODEV;
}

static const struct file_operations iio_fops = {
	.unlocked_ioctl = iio_ioctl,
};
