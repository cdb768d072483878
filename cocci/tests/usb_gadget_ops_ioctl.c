// SPDX-License-Identifier: GPL-2.0
#include <linux/usb/gadget.h>

static int udcx_ioctl(struct usb_gadget *gadget, unsigned int code, unsigned long param)
{
	switch (code) {
	case UDCX_IOC_GET_FIFO:
		return udcx_get_fifo(gadget, param);
	default:
		return -EINVAL;
	}
}

static const struct usb_gadget_ops udcx_ops = {
	.get_frame	= udcx_get_frame,
	.ioctl		= udcx_ioctl,
};
