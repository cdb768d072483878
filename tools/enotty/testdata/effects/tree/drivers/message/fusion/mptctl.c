// SPDX-License-Identifier: GPL-2.0
/* Excerpt of 6.12's mptctl.c: the header is copied from the argument before the switch. */
static long
__mptctl_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	mpt_ioctl_header __user *uhdr = (void __user *) arg;
	mpt_ioctl_header	 khdr;
	unsigned iocnumX;
	int ret;
	MPT_ADAPTER *iocp = NULL;

	if (copy_from_user(&khdr, uhdr, sizeof(khdr))) {
		printk(KERN_ERR MYNAM "%s::mptctl_ioctl() @%d - "
				"Unable to copy mpt_ioctl_header data @ %p\n",
				__FILE__, __LINE__, uhdr);
		return -EFAULT;
	}
	ret = -ENXIO;				/* (-6) No such device or address */

	iocnumX = khdr.iocnum & 0xFF;
	if ((mpt_verify_adapter(iocnumX, &iocp) < 0) || (iocp == NULL))
		return -ENODEV;

	switch (cmd) {
	case MPTFWDOWNLOAD:
		ret = mptctl_fw_download(iocp, arg);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	return ret;
}
