// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/proc_fs.h>

/* As drivers/pci/proc.c: PCIIOC_WRITE_COMBINE is a known command that falls
 * through into the default label when the arch cannot do write combining.
 * That -EINVAL answers a recognised command: left alone. */
static long wc_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct wc_priv *priv = file->private_data;
	int ret = 0;

	switch (cmd) {
	case WCIOC_CONTROLLER:
		ret = wc_domain(priv);
		break;

#ifdef HAVE_WC_MMAP
	case WCIOC_MMAP_IS_MEM:
		priv->mmap_state = 1;
		break;

	case WCIOC_WRITE_COMBINE:
		if (arch_can_wc()) {
			priv->write_combine = !!arg;
			break;
		}
		/* If arch decided it can't, fall through... */
		fallthrough;
#endif /* HAVE_WC_MMAP */
	default:
		ret = -EINVAL;
		break;
	}

	return ret;
}

/* The same in the return shape, the case falling in without a marker. */
static long wc2_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case WC2_GET:
		return wc2_get(file, arg);
	case WC2_SET:
		if (wc2_can_set(file))
			return wc2_set(file, arg);
		pr_debug("WC2_SET not supported\n");
	default:
		return -EINVAL;
	}
}

static const struct proc_ops wc_proc_ops = {
	.proc_ioctl = wc_ioctl,
};

static const struct file_operations wc2_fops = {
	.unlocked_ioctl = wc2_ioctl,
};
