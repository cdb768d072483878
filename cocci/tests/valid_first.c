// SPDX-License-Identifier: GPL-2.0
/*
 * A state check before the dispatch answers every command -EINVAL, an
 * unknown one too (ioctl_valid_first).  As upstream did for pidfd_ioctl(),
 * the command is tested first against the case labels of the switches on
 * it, and the check keeps -EINVAL for the known commands.
 *
 * uffd_ioctl(): mm/userfaultfd.c, the handshake UFFDIO_API first, a
 * switch without a default after an initialiser.
 * ctxt_ioctl(): drivers/infiniband/hw/hfi1/file_ops.c, a context must be
 * assigned, a log call before the check, a default after it.
 * pp_ioctl(): drivers/char/ppdev.c, two switches on the command, the
 * check between them in a block that logs; a case before it reads the
 * argument of its own command.
 * mirror_ioctl(): lib/test_hmm.c, the check before a copy of the
 * argument.
 */
#include <linux/fs.h>

static long uffd_ioctl(struct file *file, unsigned cmd, unsigned long arg)
{
	int ret = -EINVAL;
	struct uffd_ctx *ctx = file->private_data;

	if (cmd != UFFDIO_API && !uffd_is_initialized(ctx))
		return -EINVAL;

	switch (cmd) {
	case UFFDIO_API:
		ret = uffd_api(ctx, arg);
		break;
	case UFFDIO_REGISTER:
		ret = uffd_register(ctx, arg);
		break;
	}
	return ret;
}

static long ctxt_ioctl(struct file *fp, unsigned int cmd, unsigned long arg)
{
	struct ctxt_filedata *fd = fp->private_data;
	int ret = 0;

	ctxt_cdbg(IOCTL, "IOCTL recv: 0x%x", cmd);
	if (cmd != CTXT_ASSIGN &&
	    cmd != CTXT_GET_VERS &&
	    !fd->uctxt)
		return -EINVAL;

	switch (cmd) {
	case CTXT_ASSIGN:
		ret = assign_ctxt(fd, arg, _IOC_SIZE(cmd));
		break;
	case CTXT_INFO:
		ret = get_ctxt_info(fd, arg, _IOC_SIZE(cmd));
		break;
	case CTXT_GET_VERS:
		ret = put_user(2, (int __user *)arg);
		break;
	default:
		return -EINVAL;
	}

	return ret;
}

static int pp_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct pp_struct *pp = file->private_data;
	int mode;

	switch (cmd) {
	case PPCLAIM:
		return pp_claim(pp);
	case PPSETMODE:
		if (copy_from_user(&mode, (void __user *)arg, sizeof(mode)))
			return -EFAULT;
		pp->mode = mode;
		return 0;
	case PPEXCL:
		pp->flags |= PP_EXCL;
		return 0;
	}

	if ((pp->flags & PP_CLAIMED) == 0) {
		pr_debug("claim the port first\n");
		return -EINVAL;
	}

	switch (cmd) {
	case PPRSTATUS:
		return pp_status(pp, arg);
	case PPRELEASE:
		return pp_release(pp);
	default:
		dev_dbg(pp->dev, "What? (cmd=0x%x)\n", cmd);
		return -EINVAL;
	}
}

static long mirror_ioctl(struct file *filp, unsigned int command, unsigned long arg)
{
	struct mirror_cmd cmd;
	struct mirror *mirror;
	int ret;

	mirror = filp->private_data;
	if (!mirror)
		return -EINVAL;

	if (copy_from_user(&cmd, (void __user *)arg, sizeof(cmd)))
		return -EFAULT;

	switch (command) {
	case MIRROR_READ:
		ret = mirror_read(mirror, &cmd);
		break;
	case MIRROR_WRITE:
		ret = mirror_write(mirror, &cmd);
		break;
	default:
		return -EINVAL;
	}
	return ret;
}

static const struct file_operations uffd_fops = {
	.unlocked_ioctl = uffd_ioctl,
};

static const struct file_operations ctxt_fops = {
	.unlocked_ioctl = ctxt_ioctl,
};

static const struct file_operations pp_fops = {
	.unlocked_ioctl = pp_ioctl,
};

static const struct file_operations mirror_fops = {
	.unlocked_ioctl = mirror_ioctl,
};
