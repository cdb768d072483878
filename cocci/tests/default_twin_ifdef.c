// drivers/video/fbdev/sis/sis_main.c sisfb_ioctl(): the default is an
// #ifdef group of two returns.  spatch parses one branch of it in the
// function; ioctl_default_twin finds the -EINVAL of the #else branch, and
// the -ENOIOCTLCMD of the other is the leaf shape's.  Both answer unknown
// commands only: the handler converts whole.
#include <linux/fb.h>

static int sfb_ioctl(struct fb_info *info, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case FBIO_WAITFORVSYNC:
		return sfb_wait_vsync(info);
	default:
#ifdef SFB_NEW_CONFIG_COMPAT
		return -ENOIOCTLCMD;
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
