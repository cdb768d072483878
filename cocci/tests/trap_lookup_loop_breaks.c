// Traps: a loop that breaks on a match (the return after it is reached by
// known commands too), and a loop over something that is not the command.
#include <linux/fs.h>

static const unsigned int table[] = { 0x0201, 0x0202 };

static int find(unsigned int *cmd)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(table); i++) {
		if (*cmd == table[i])
			break;
	}
	return -EINVAL;
}

static int check_arg(unsigned int *cmd, unsigned long arg)
{
	int i;

	for (i = 0; i < 4; i++) {
		if (arg == table[i])
			return 0;
	}
	return -EINVAL;
}

static long t_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	int ret;

	ret = find(&cmd);
	if (ret)
		return ret;
	ret = check_arg(&cmd, arg);
	if (ret)
		return ret;
	switch (cmd) {
	case 0x0201:
		return 0;
	}
	return -ENOTTY;
}

static const struct file_operations fops = {
	.unlocked_ioctl = t_ioctl,
};
