// drivers/usb/class/usbtmc.c usbtmc_ioctl(): retval initialised to
// -EBADRQC (no answer of the ioctl convention either), a state check
// that assigns retval before it jumps past the switch, and a switch on
// the command whose every case assigns retval and which has no default.
// Only an unknown command returns the initialiser.
#include <linux/fs.h>

static long tmc_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct tmc_data *data = file->private_data;
	int retval = -EBADRQC;

	mutex_lock(&data->io_mutex);
	if (data->zombie) {
		retval = -ENODEV;
		goto skip_io_on_zombie;
	}

	switch (cmd) {
	case TMC_IOCTL_CLEAR:
		retval = tmc_clear(data);
		break;
	case TMC_IOCTL_GET_TIMEOUT:
		retval = put_user(data->timeout, (__u32 __user *)arg);
		break;
	}

skip_io_on_zombie:
	mutex_unlock(&data->io_mutex);
	return retval;
}

static const struct file_operations tmc_fops = {
	.unlocked_ioctl	= tmc_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};
