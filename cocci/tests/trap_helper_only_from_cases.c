// SPDX-License-Identifier: GPL-2.0
// Helpers that the handler calls only under explicit case labels see only
// recognised commands: their "unknown command" answers are dead code, or
// argument checks of a recognised command.  None of them is followed.
#include <linux/fs.h>

static int vnode_next(struct vnode_data *data, unsigned int cmd, void __user *argp)
{
	struct vnode *np = data->current;

	if (np) {
		switch (cmd) {
		case VNODE_NEXT:
			np = np->sibling;
			break;
		case VNODE_CHILD:
			np = np->child;
			break;
		default:
			break;
		}
	} else {
		/* Sibling of node zero is the root node. */
		if (cmd != VNODE_NEXT)
			return -EINVAL;
		np = vnode_root();
	}
	data->current = np;
	return vnode_copyout(argp, np);
}

static long vnode_sub_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case VNODE_GETPROP:
		return vnode_getprop(file->private_data, (void __user *)arg);
	case VNODE_SETPROP:
		return vnode_setprop(file->private_data, (void __user *)arg);
	default:
		return -EINVAL;
	}
}

static int vnode_dma(struct file *file, unsigned int cmd, void __user *argp)
{
	switch (cmd) {
	case VNODE_DMA_FRAME:
		return vnode_dma_frame(file->private_data, argp);
	default:
		return -EINVAL;
	}
}

static long vnode_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct vnode_data *data = file->private_data;
	long ret;

	switch (cmd) {
	case VNODE_NEXT:
	case VNODE_CHILD:
		ret = vnode_next(data, cmd, (void __user *)arg);
		break;
	case VNODE_GETPROP:
	case VNODE_SETPROP:
		if (!capable(CAP_SYS_ADMIN))
			return -EPERM;
		return vnode_sub_ioctl(file, cmd, arg);
	case VNODE_DMA_FRAME: {
		void __user *argp = (void __user *)arg;

		return vnode_dma(file, cmd, argp);
	}
	default:
		ret = -ENOTTY;
		break;
	}
	return ret;
}

static const struct file_operations vnode_fops = {
	.unlocked_ioctl = vnode_ioctl,
};
