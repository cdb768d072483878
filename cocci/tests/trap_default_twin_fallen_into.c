// Trap: the default made of an #ifdef group of two returns is reached by
// the case above it falling through, so it answers that known command
// too: neither branch changes.
#include <linux/fb.h>

static int sfb_ioctl(struct fb_info *info, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case FBIO_WAITFORVSYNC:
		sfb_wait_vsync(info);
		fallthrough;
	default:
#ifdef SFB_OLD_ANSWER
		return -ENOSYS;
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
