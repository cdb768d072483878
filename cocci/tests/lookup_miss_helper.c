// A handler hands its command to a lookup helper that searches a table
// (floppy's normalize_ioctl()): the helper's table miss is the unknown
// command's answer, so it changes with the handler's default.
#include <linux/fs.h>

static const unsigned int table[] = { 0x0201, 0x0202 };

static int normalize(unsigned int *cmd, int *size)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(table); i++) {
		if ((*cmd & 0xffff) == (table[i] & 0xffff)) {
			*size = _IOC_SIZE(*cmd);
			*cmd = table[i];
			if (*size > _IOC_SIZE(*cmd))
				return -EFAULT;
			return 0;
		}
	}
	return -EINVAL;
}

static long fd_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	int ret, size;

	ret = normalize(&cmd, &size);
	if (ret)
		return ret;

	switch (cmd) {
	case 0x0201:
		return 0;
	default:
		return -EINVAL;
	}
}

static const struct file_operations fops = {
	.unlocked_ioctl = fd_ioctl,
};
