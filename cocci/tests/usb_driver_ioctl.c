// SPDX-License-Identifier: GPL-2.0
#include <linux/usb.h>

static int hubx_ioctl(struct usb_interface *intf, unsigned int code, void *user_data)
{
	switch (code) {
	case USBDEVFS_HUB_PORTINFO:
		return hubx_port_info(intf, user_data);
	default:
		return -EINVAL;
	}
}

static struct usb_driver hubx_driver = {
	.name =		"hubx",
	.unlocked_ioctl = hubx_ioctl,
};
