// SPDX-License-Identifier: GPL-2.0
/*
 * An initialiser that a chain of switches on the command keeps for the
 * commands none of them names (drivers/gpib/common/gpib_os.c ibioctl()):
 * every case assigns the value or returns, each default breaks or jumps
 * to the final label, and the state checks between the switches assign
 * their own answer before they jump.  The ops table names the handler
 * with &.  The state check's -EINVAL is no operation missing (the
 * member is only tested, never called) and stays.
 */
#include <linux/fs.h>

long g_ioctl(struct file *filep, unsigned int cmd, unsigned long arg)
{
	struct g_board *board = g_board_of(filep);
	long retval = -EBADRQC;

	if (mutex_lock_interruptible(&board->lock))
		return -ERESTARTSYS;

	dev_dbg(board->dev, "ioctl %d\n", cmd & 0xff);

	switch (cmd) {
	case G_BOARDTYPE:
		retval = g_board_type(board, arg);
		goto done;
	default:
		break;
	}
	if (!board->online) {
		retval = -EINVAL;
		goto done;
	}
	switch (cmd) {
	case G_WAIT:
		retval = g_wait(board, arg);
		if (retval == -ERESTARTSYS)
			return retval;
		goto done;
	case G_WRITE:
		mutex_unlock(&board->lock);
		return g_write(board, arg);
	default:
		goto done;
	}

done:
	mutex_unlock(&board->lock);
	return retval;
}

static const struct file_operations g_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = &g_ioctl,
};
