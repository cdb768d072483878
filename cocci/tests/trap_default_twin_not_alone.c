// Trap: the #ifdef group with the -EINVAL is not the whole default (a
// state test comes first), and the other one is outside any switch on
// the command: neither is an unknown-command answer of this shape.
#include <linux/fb.h>

static int sfb_ioctl(struct fb_info *info, unsigned int cmd, unsigned long arg)
{
	switch (info->state) {
	default:
#ifdef SFB_CHECK_STATE
		return -EBUSY;
#else
		return -EINVAL;
#endif
	}
	switch (cmd) {
	case FBIO_WAITFORVSYNC:
		return sfb_wait_vsync(info);
	default:
		if (info->blank)
			return -EBUSY;
#ifdef SFB_CHECK_STATE
		return -EBUSY;
#else
		return -EINVAL;
#endif
	}
	return 0;
}

static const struct fb_ops sfb_ops = {
	.owner		= THIS_MODULE,
	.fb_ioctl	= sfb_ioctl,
};
