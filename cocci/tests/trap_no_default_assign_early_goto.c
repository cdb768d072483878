// Trap: a check before the switch jumps past it without assigning ret, so
// the initialiser answers that check (an argument) for every command,
// known ones included: it stays.
#include <linux/fs.h>

static long tmc_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct tmc_data *data = file->private_data;
	int retval = -EINVAL;

	mutex_lock(&data->io_mutex);
	if (!arg)
		goto out;

	switch (cmd) {
	case TMC_IOCTL_CLEAR:
		retval = tmc_clear(data);
		break;
	}

out:
	mutex_unlock(&data->io_mutex);
	return retval;
}

static const struct file_operations tmc_fops = {
	.unlocked_ioctl	= tmc_ioctl,
};
