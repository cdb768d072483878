// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl_errno - what media, CEC and framebuffer nodes answer to ioctls.
 *
 * A handler called with an unknown command returns -ENOTTY or
 * -ENOIOCTLCMD, so user space sees ENOTTY; "Some subsystems return -ENOSYS
 * or -EINVAL here for historic reasons, but this is wrong"
 * (Documentation/driver-api/ioctl.rst).  v4l2-compliance's "test invalid
 * ioctls" asks the same of the V4L2 node it tests; this test runs where
 * kselftests run, also covers the media, CEC and framebuffer nodes, and
 * checks that a supported ioctl with a bad argument still answers EINVAL.
 * For every node of the test drivers (vivid: video, vbi, radio, sdr,
 * touch, meta, media, media requests, CEC and its framebuffer; vimc: media
 * and sub-devices) it checks, table-driven:
 *
 *   unknown_own_range  unknown command numbers in the node's own ioctl
 *                      range answer ENOTTY
 *   unknown_foreign    commands from a foreign ioctl range answer ENOTTY
 *   known_unsupported  a known ioctl this node type does not support
 *                      answers ENOTTY
 *   bad_argument       a supported ioctl with a bad argument answers EINVAL
 *                      (catches conversions that went too far)
 *   good_argument      a supported ioctl with a good argument succeeds
 *
 * Nodes are found through sysfs (/sys/class/video4linux, /sys/bus/media,
 * /sys/bus/cec/devices, /sys/class/graphics) and their uevent DEVNAME, never by
 * fixed /dev names.  A kind with no node (no vivid, no vimc) is skipped;
 * ioctl_errno.sh loads both drivers first.
 *
 * Quirk: the V4L2 core copies a write-direction ioctl's argument from
 * user space before it looks the command up, so such an unknown command
 * called with a NULL argument answers EFAULT, not ENOTTY.  Every call here
 * passes a valid buffer of the size the command encodes.
 *
 * Built as a 32-bit program too (ioctl_errno_32, where the compiler can
 * build one): on a 64-bit kernel that takes the compat paths
 * (v4l2_compat_ioctl32, fb_compat_ioctl, ...).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/cec.h>
#include <linux/fb.h>
#include <linux/media.h>
#include <linux/v4l2-subdev.h>
#include <linux/videodev2.h>

#include "../../kselftest_harness.h"

#define MAX_NODES 16
#define ARG_BYTES 4096

enum kind {
	K_VID_CAP, K_VID_OUT, K_VBI_CAP, K_VBI_OUT, K_RADIO_RX, K_RADIO_TX,
	K_SDR_CAP, K_TOUCH, K_META_CAP, K_META_OUT, K_SUBDEV, K_MEDIA, K_REQUEST,
	K_CEC, K_FB, K_COUNT,
};

#define BIT_OF(k) (1u << (k))
/* Video device kinds, all served by the V4L2 core (video_ioctl2). */
#define V4L2_RX (BIT_OF(K_VID_CAP) | BIT_OF(K_VBI_CAP) | BIT_OF(K_RADIO_RX) | \
		 BIT_OF(K_SDR_CAP) | BIT_OF(K_TOUCH) | BIT_OF(K_META_CAP))
#define V4L2_TX (BIT_OF(K_VID_OUT) | BIT_OF(K_VBI_OUT) | BIT_OF(K_RADIO_TX) | \
		 BIT_OF(K_META_OUT))
#define V4L2_ALL (V4L2_RX | V4L2_TX)
#define HAS_FMT (V4L2_ALL & ~(BIT_OF(K_RADIO_RX) | BIT_OF(K_RADIO_TX)))
#define HAS_INPUTS (BIT_OF(K_VID_CAP) | BIT_OF(K_VBI_CAP) | BIT_OF(K_TOUCH) | \
		    BIT_OF(K_META_CAP))
#define HAS_OUTPUTS (BIT_OF(K_VID_OUT) | BIT_OF(K_VBI_OUT) | BIT_OF(K_META_OUT))

enum check {
	C_UNKNOWN_OWN, C_UNKNOWN_FOREIGN, C_KNOWN_UNSUPPORTED, C_BAD_ARG, C_GOOD_ARG,
};

/* What a node offers beyond its kind */
#define NODE_PAD_FMT	(1u << 0)	/* sub-device with pad formats (not a lens) */

struct node {
	char path[PATH_MAX];
	char name[64];
	__u32 buf_type;		/* the node's own buffer type, for G_FMT */
	unsigned int flags;	/* NODE_* */
};

/* Unknown commands.  A 64-byte buffer is big enough for every one. */
struct blob { char b[64]; };
#define V4L2_UNUSED_NR		_IOWR('V', 120, struct blob)	/* past the last V4L2 ioctl */
#define V4L2_PRIVATE_NR		_IOWR('V', 250, struct blob)	/* BASE_VIDIOC_PRIVATE range */
#define V4L2_QUERYCAP_WRONG_SIZE _IOR('V', 0, __u64)	/* nr 0, a size no 'V' 0 ioctl has */
#define V4L2_NOARG_NR		_IO('V', 121)
#define MEDIA_UNUSED_NR		_IOWR('|', 0x70, struct blob)
#define REQUEST_UNUSED_NR	_IO('|', 0x82)		/* after MEDIA_REQUEST_IOC_REINIT */
#define REQUEST_UNUSED_RW	_IOWR('|', 0x83, struct blob)
#define CEC_UNUSED_NR		_IOWR('a', 0x70, struct blob)
#define FB_UNUSED_PLAIN		0x46EE			/* 'F' numbering, no size bits */
#define FB_UNUSED_NR		_IOWR('F', 0x7f, struct blob)
#define FOREIGN_RW		_IOWR(0xEE, 0x42, struct blob)
#define FOREIGN_NOARG		_IO(0xEE, 0x43)

struct ioctl_case {
	unsigned int kinds;	/* BIT_OF(kind) mask */
	enum check check;
	const char *name;
	unsigned long cmd;
	void (*prep)(void *arg, const struct node *n);
	int expect;		/* errno, 0 for success */
	unsigned int needs;	/* NODE_* flags the node must have */
};

static void prep_prio_bad(void *arg, const struct node *n)
{
	*(__u32 *)arg = 99;	/* not a v4l2_priority */
}

static void prep_index_bad(void *arg, const struct node *n)
{
	*(__u32 *)arg = 0x7fff;	/* index is the first member of all these */
}

static void prep_fmt_bad(void *arg, const struct node *n)
{
	((struct v4l2_format *)arg)->type = 0x7f;
}

static void prep_fmt_own(void *arg, const struct node *n)
{
	((struct v4l2_format *)arg)->type = n->buf_type;
}

static void prep_subdev_pad_bad(void *arg, const struct node *n)
{
	struct v4l2_subdev_format *f = arg;

	f->which = V4L2_SUBDEV_FORMAT_ACTIVE;
	f->pad = 999;
}

static void prep_subdev_which_bad(void *arg, const struct node *n)
{
	((struct v4l2_subdev_format *)arg)->which = 99;
}

static void prep_entity_bad(void *arg, const struct node *n)
{
	((struct media_entity_desc *)arg)->id = 0x7ffffff0;
}

static void prep_cec_mode_bad(void *arg, const struct node *n)
{
	*(__u32 *)arg = 0xff;	/* initiator mode 0xf is out of range */
}

static void prep_pan_bad(void *arg, const struct node *n)
{
	((struct fb_var_screeninfo *)arg)->xoffset = 1u << 30;
}

#define CASE(k, c, cmd, prep, err) { k, c, #cmd, cmd, prep, err, 0 }
#define CASE_IF(need, k, c, cmd, prep, err) { k, c, #cmd, cmd, prep, err, need }
static const struct ioctl_case cases[] = {
	/* V4L2 video devices */
	CASE(V4L2_ALL, C_UNKNOWN_OWN, V4L2_UNUSED_NR, NULL, ENOTTY),
	CASE(V4L2_ALL, C_UNKNOWN_OWN, V4L2_PRIVATE_NR, NULL, ENOTTY),
	CASE(V4L2_ALL, C_UNKNOWN_OWN, V4L2_QUERYCAP_WRONG_SIZE, NULL, ENOTTY),
	CASE(V4L2_ALL, C_UNKNOWN_OWN, V4L2_NOARG_NR, NULL, ENOTTY),
	CASE(V4L2_RX, C_KNOWN_UNSUPPORTED, VIDIOC_ENUMOUTPUT, NULL, ENOTTY),
	CASE(V4L2_RX, C_KNOWN_UNSUPPORTED, VIDIOC_G_MODULATOR, NULL, ENOTTY),
	CASE(V4L2_TX, C_KNOWN_UNSUPPORTED, VIDIOC_ENUMINPUT, NULL, ENOTTY),
	CASE(V4L2_TX, C_KNOWN_UNSUPPORTED, VIDIOC_G_TUNER, NULL, ENOTTY),
	CASE(V4L2_ALL, C_BAD_ARG, VIDIOC_S_PRIORITY, prep_prio_bad, EINVAL),
	CASE(HAS_FMT, C_BAD_ARG, VIDIOC_G_FMT, prep_fmt_bad, EINVAL),
	CASE(HAS_INPUTS, C_BAD_ARG, VIDIOC_ENUMINPUT, prep_index_bad, EINVAL),
	CASE(HAS_OUTPUTS, C_BAD_ARG, VIDIOC_ENUMOUTPUT, prep_index_bad, EINVAL),
	CASE(BIT_OF(K_RADIO_RX) | BIT_OF(K_SDR_CAP), C_BAD_ARG, VIDIOC_G_TUNER,
	     prep_index_bad, EINVAL),
	CASE(BIT_OF(K_RADIO_TX), C_BAD_ARG, VIDIOC_G_MODULATOR, prep_index_bad, EINVAL),
	CASE(V4L2_ALL, C_GOOD_ARG, VIDIOC_QUERYCAP, NULL, 0),
	CASE(V4L2_ALL, C_GOOD_ARG, VIDIOC_G_PRIORITY, NULL, 0),
	/* vivid's raw VBI formats exist only on TV inputs and outputs */
	CASE(HAS_FMT & ~(BIT_OF(K_VBI_CAP) | BIT_OF(K_VBI_OUT)), C_GOOD_ARG, VIDIOC_G_FMT,
	     prep_fmt_own, 0),
	CASE(HAS_INPUTS, C_GOOD_ARG, VIDIOC_G_INPUT, NULL, 0),
	CASE(HAS_OUTPUTS, C_GOOD_ARG, VIDIOC_G_OUTPUT, NULL, 0),

	/* V4L2 sub-devices: unknown commands take the -ENOIOCTLCMD path */
	CASE(BIT_OF(K_SUBDEV), C_UNKNOWN_OWN, V4L2_UNUSED_NR, NULL, ENOTTY),
	CASE(BIT_OF(K_SUBDEV), C_UNKNOWN_OWN, V4L2_PRIVATE_NR, NULL, ENOTTY),
	CASE(BIT_OF(K_SUBDEV), C_UNKNOWN_OWN, V4L2_NOARG_NR, NULL, ENOTTY),
	CASE(BIT_OF(K_SUBDEV), C_KNOWN_UNSUPPORTED, VIDIOC_QUERYCAP, NULL, ENOTTY),
	CASE(BIT_OF(K_SUBDEV), C_KNOWN_UNSUPPORTED, VIDIOC_SUBDEV_G_STD, NULL, ENOTTY),
	/* A lens has no pad operations: G_FMT is unknown to it (ENOTTY) */
	CASE_IF(NODE_PAD_FMT, BIT_OF(K_SUBDEV), C_BAD_ARG, VIDIOC_SUBDEV_G_FMT,
		prep_subdev_pad_bad, EINVAL),
	CASE_IF(NODE_PAD_FMT, BIT_OF(K_SUBDEV), C_BAD_ARG, VIDIOC_SUBDEV_G_FMT,
		prep_subdev_which_bad, EINVAL),
	CASE(BIT_OF(K_SUBDEV), C_GOOD_ARG, VIDIOC_SUBDEV_QUERYCAP, NULL, 0),

	/* Media controller devices */
	CASE(BIT_OF(K_MEDIA), C_UNKNOWN_OWN, MEDIA_UNUSED_NR, NULL, ENOTTY),
	CASE(BIT_OF(K_MEDIA), C_KNOWN_UNSUPPORTED, VIDIOC_QUERYCAP, NULL, ENOTTY),
	CASE(BIT_OF(K_MEDIA), C_BAD_ARG, MEDIA_IOC_ENUM_ENTITIES, prep_entity_bad, EINVAL),
	CASE(BIT_OF(K_MEDIA), C_GOOD_ARG, MEDIA_IOC_DEVICE_INFO, NULL, 0),

	/*
	 * Request file descriptors (MEDIA_IOC_REQUEST_ALLOC on vivid's media
	 * device): media_request_ioctl() answers -ENOIOCTLCMD, which the VFS
	 * turns into ENOTTY.  Request ioctls take no argument: no bad one.
	 */
	CASE(BIT_OF(K_REQUEST), C_UNKNOWN_OWN, REQUEST_UNUSED_NR, NULL, ENOTTY),
	CASE(BIT_OF(K_REQUEST), C_UNKNOWN_OWN, REQUEST_UNUSED_RW, NULL, ENOTTY),
	CASE(BIT_OF(K_REQUEST), C_KNOWN_UNSUPPORTED, MEDIA_IOC_DEVICE_INFO, NULL, ENOTTY),
	CASE(BIT_OF(K_REQUEST), C_GOOD_ARG, MEDIA_REQUEST_IOC_REINIT, NULL, 0),

	/* CEC adapters (vivid emulates one per HDMI input and output) */
	CASE(BIT_OF(K_CEC), C_UNKNOWN_OWN, CEC_UNUSED_NR, NULL, ENOTTY),
	/* vivid's adapters lack CEC_CAP_PHYS_ADDR */
	CASE(BIT_OF(K_CEC), C_KNOWN_UNSUPPORTED, CEC_ADAP_S_PHYS_ADDR, NULL, ENOTTY),
	CASE(BIT_OF(K_CEC), C_KNOWN_UNSUPPORTED, VIDIOC_QUERYCAP, NULL, ENOTTY),
	CASE(BIT_OF(K_CEC), C_BAD_ARG, CEC_S_MODE, prep_cec_mode_bad, EINVAL),
	CASE(BIT_OF(K_CEC), C_GOOD_ARG, CEC_ADAP_G_CAPS, NULL, 0),
	CASE(BIT_OF(K_CEC), C_GOOD_ARG, CEC_G_MODE, NULL, 0),

	/*
	 * Framebuffer (vivid's output overlay): the fb core hands unknown
	 * commands to the driver's fb_ioctl
	 */
	CASE(BIT_OF(K_FB), C_UNKNOWN_OWN, FB_UNUSED_PLAIN, NULL, ENOTTY),
	CASE(BIT_OF(K_FB), C_UNKNOWN_OWN, FB_UNUSED_NR, NULL, ENOTTY),
	CASE(BIT_OF(K_FB), C_KNOWN_UNSUPPORTED, FBIO_WAITFORVSYNC, NULL, ENOTTY),
	CASE(BIT_OF(K_FB), C_BAD_ARG, FBIOPAN_DISPLAY, prep_pan_bad, EINVAL),
	CASE(BIT_OF(K_FB), C_GOOD_ARG, FBIOGET_VSCREENINFO, NULL, 0),
	CASE(BIT_OF(K_FB), C_GOOD_ARG, FBIOGET_FSCREENINFO, NULL, 0),

	/* Every kind: a command from somebody else's range */
	CASE(~0u, C_UNKNOWN_FOREIGN, FOREIGN_RW, NULL, ENOTTY),
	CASE(~0u, C_UNKNOWN_FOREIGN, FOREIGN_NOARG, NULL, ENOTTY),
};

static const char *errno_name(int err)
{
	switch (err) {
	case 0: return "success";
	case ENOTTY: return "ENOTTY";
	case EINVAL: return "EINVAL";
	case EFAULT: return "EFAULT";
	case ENODEV: return "ENODEV";
	case EBUSY: return "EBUSY";
	case EPERM: return "EPERM";
	case EIO: return "EIO";
	default: return strerror(err);
	}
}

/* snprintf() into @buf; -1 when it did not fit (a lookup that misses). */
static int __printf(3, 4) format_to(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Reads /sys/.../<file>'s first line into buf; "" when absent. */
static void read_line(const char *dir, const char *file, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;

	buf[0] = '\0';
	if (format_to(path, sizeof(path), "%s/%s", dir, file))
		return;
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* The /dev path of a sysfs device, from DEVNAME= in its uevent. */
static int dev_path(const char *sysdir, char *out, size_t len)
{
	char path[PATH_MAX], line[256];
	FILE *f;
	int found = -1;

	if (format_to(path, sizeof(path), "%s/uevent", sysdir))
		return -1;
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "DEVNAME=", 8) == 0) {
			line[strcspn(line, "\n")] = '\0';
			found = format_to(out, len, "/dev/%s", line + 8);
			break;
		}
	}
	fclose(f);
	return found;
}

/* The name of the driver bound to the device's parent, "" when none. */
static void parent_driver(const char *sysdir, char *out, size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	ssize_t n;
	const char *slash;

	out[0] = '\0';
	/* class devices (video4linux, graphics) link to their parent ... */
	n = -1;
	if (!format_to(path, sizeof(path), "%s/device/driver", sysdir))
		n = readlink(path, target, sizeof(target) - 1);
	/* ... bus devices (media, cec) sit in their parent's folder */
	if (n < 0 && !format_to(path, sizeof(path), "%s/../driver", sysdir))
		n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return;
	target[n] = '\0';
	slash = strrchr(target, '/');
	if (format_to(out, len, "%s", slash ? slash + 1 : target))
		out[0] = '\0';
}

/*
 * A video node's kind from its device capabilities, first match wins (a
 * touch device also says VIDEO_CAPTURE), with the buffer type its bad- and
 * good-argument cases use; radio nodes have no buffer type.
 */
static const struct {
	__u32 caps;
	__u32 buf_type;
	int kind;
} cap_kinds[] = {
	{ V4L2_CAP_TOUCH, V4L2_BUF_TYPE_VIDEO_CAPTURE, K_TOUCH },
	{ V4L2_CAP_VIDEO_CAPTURE, V4L2_BUF_TYPE_VIDEO_CAPTURE, K_VID_CAP },
	{ V4L2_CAP_VIDEO_CAPTURE_MPLANE, V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE, K_VID_CAP },
	{ V4L2_CAP_VIDEO_OUTPUT, V4L2_BUF_TYPE_VIDEO_OUTPUT, K_VID_OUT },
	{ V4L2_CAP_VIDEO_OUTPUT_MPLANE, V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE, K_VID_OUT },
	{ V4L2_CAP_VBI_CAPTURE, V4L2_BUF_TYPE_VBI_CAPTURE, K_VBI_CAP },
	{ V4L2_CAP_SLICED_VBI_CAPTURE, V4L2_BUF_TYPE_SLICED_VBI_CAPTURE, K_VBI_CAP },
	{ V4L2_CAP_VBI_OUTPUT, V4L2_BUF_TYPE_VBI_OUTPUT, K_VBI_OUT },
	{ V4L2_CAP_SLICED_VBI_OUTPUT, V4L2_BUF_TYPE_SLICED_VBI_OUTPUT, K_VBI_OUT },
	{ V4L2_CAP_SDR_CAPTURE, V4L2_BUF_TYPE_SDR_CAPTURE, K_SDR_CAP },
	{ V4L2_CAP_META_CAPTURE, V4L2_BUF_TYPE_META_CAPTURE, K_META_CAP },
	{ V4L2_CAP_META_OUTPUT, V4L2_BUF_TYPE_META_OUTPUT, K_META_OUT },
	{ V4L2_CAP_MODULATOR, 0, K_RADIO_TX },
	{ V4L2_CAP_TUNER | V4L2_CAP_RADIO, 0, K_RADIO_RX },
};

static int v4l2_kind(const char *devpath, __u32 *buf_type)
{
	struct v4l2_capability cap;
	unsigned int i;
	__u32 c;
	int fd, ret;

	fd = open(devpath, O_RDWR | O_NONBLOCK);
	if (fd < 0)
		return -1;
	memset(&cap, 0, sizeof(cap));
	ret = ioctl(fd, VIDIOC_QUERYCAP, &cap);
	close(fd);
	if (ret)
		return -1;
	c = cap.capabilities & V4L2_CAP_DEVICE_CAPS ? cap.device_caps : cap.capabilities;
	for (i = 0; i < ARRAY_SIZE(cap_kinds); i++) {
		if (c & cap_kinds[i].caps) {
			*buf_type = cap_kinds[i].buf_type;
			return cap_kinds[i].kind;
		}
	}
	*buf_type = 0;
	return -1;
}

/* A new request's file descriptor from a media device; -1 if it has none. */
static int request_fd(const char *devpath)
{
	int fd = open(devpath, O_RDWR), req = -1;

	if (fd < 0)
		return -1;
	if (ioctl(fd, MEDIA_IOC_REQUEST_ALLOC, &req))
		req = -1;
	close(fd);
	return req;
}

/* Whether a sub-device answers G_FMT on pad 0: a lens or flash does not. */
static unsigned int subdev_flags(const char *devpath)
{
	struct v4l2_subdev_format f;
	int fd = open(devpath, O_RDWR | O_NONBLOCK);
	unsigned int flags = 0;

	if (fd < 0)
		return 0;
	memset(&f, 0, sizeof(f));
	f.which = V4L2_SUBDEV_FORMAT_ACTIVE;
	if (!ioctl(fd, VIDIOC_SUBDEV_G_FMT, &f))
		flags |= NODE_PAD_FMT;
	close(fd);
	return flags;
}

static int add_node(struct node *nodes, int n, const char *devpath, const char *name,
		    __u32 buf_type, unsigned int flags)
{
	if (n >= MAX_NODES)
		return n;
	if (format_to(nodes[n].path, sizeof(nodes[n].path), "%s", devpath))
		return n;
	/* a long name is only shortened in the log */
	format_to(nodes[n].name, sizeof(nodes[n].name), "%s", name);
	nodes[n].buf_type = buf_type;
	nodes[n].flags = flags;
	return n + 1;
}

/* Whether a media device hands out requests (vivid's does). */
static bool has_requests(const char *devpath)
{
	int req = request_fd(devpath);

	if (req < 0)
		return false;
	close(req);
	return true;
}

/*
 * The kind of node @entry of find_nodes()' classes[@class] (@drv: its
 * parent's driver, @name: its sysfs name), -1 when it is no node of vivid
 * or vimc.  A media device is a request node when @want is K_REQUEST.
 */
static int node_kind(size_t class, const char *entry, const char *drv, const char *name,
		     const char *devpath, enum kind want, __u32 *buf_type)
{
	bool vivid = !strcmp(drv, "vivid"), vimc = !strcmp(drv, "vimc");

	switch (class) {
	case 0:		/* video4linux: vivid's video nodes, vimc's sub-devices */
		if (!strncmp(entry, "v4l-subdev", 10))
			return vimc ? K_SUBDEV : -1;
		return vivid ? v4l2_kind(devpath, buf_type) : -1;
	case 1:		/* media devices */
		if (!vivid && !vimc)
			return -1;
		if (want == K_REQUEST)
			return has_requests(devpath) ? K_REQUEST : -1;
		return K_MEDIA;
	case 2:		/* CEC adapters */
		return vivid ? K_CEC : -1;
	default:	/* vivid's fb has no parent device: match its fix.id */
		return !strncmp(name, "vioverlay", 9) ? K_FB : -1;
	}
}

/*
 * Every node of @kind that belongs to vivid or vimc.  Video devices come
 * from vivid only (vimc's capture nodes are plain and would need their own
 * table), sub-devices from vimc, media devices from both.
 */
static int find_nodes(enum kind kind, struct node *nodes)
{
	static const char * const classes[] = {
		"/sys/class/video4linux", "/sys/bus/media/devices",
		"/sys/bus/cec/devices", "/sys/class/graphics",
	};
	char sysdir[PATH_MAX], devpath[PATH_MAX], drv[64], name[64];
	int n = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(classes); i++) {
		DIR *d = opendir(classes[i]);
		struct dirent *e;

		if (!d)
			continue;
		while ((e = readdir(d))) {
			char link[PATH_MAX];
			__u32 buf_type = 0;
			int k;

			if (e->d_name[0] == '.')
				continue;
			/* resolved, so that "../driver" names the parent's driver */
			if (format_to(link, sizeof(link), "%s/%s", classes[i], e->d_name) ||
			    !realpath(link, sysdir))
				continue;
			if (dev_path(sysdir, devpath, sizeof(devpath)))
				continue;
			parent_driver(sysdir, drv, sizeof(drv));
			read_line(sysdir, "name", name, sizeof(name));
			k = node_kind(i, e->d_name, drv, name, devpath, kind, &buf_type);
			if (k == (int)kind)
				n = add_node(nodes, n, devpath, name[0] ? name : e->d_name,
					     buf_type, k == K_SUBDEV ? subdev_flags(devpath) : 0);
		}
		closedir(d);
	}
	return n;
}

static const char * const kind_names[K_COUNT] = {
	"vid_cap", "vid_out", "vbi_cap", "vbi_out", "radio_rx", "radio_tx",
	"sdr_cap", "touch", "meta_cap", "meta_out", "subdev", "media", "request", "cec", "fb",
};

FIXTURE(node) {
	int count;
	struct node nodes[MAX_NODES];
};

FIXTURE_VARIANT(node) {
	enum kind kind;
};

FIXTURE_VARIANT_ADD(node, vid_cap) { .kind = K_VID_CAP };
FIXTURE_VARIANT_ADD(node, vid_out) { .kind = K_VID_OUT };
FIXTURE_VARIANT_ADD(node, vbi_cap) { .kind = K_VBI_CAP };
FIXTURE_VARIANT_ADD(node, vbi_out) { .kind = K_VBI_OUT };
FIXTURE_VARIANT_ADD(node, radio_rx) { .kind = K_RADIO_RX };
FIXTURE_VARIANT_ADD(node, radio_tx) { .kind = K_RADIO_TX };
FIXTURE_VARIANT_ADD(node, sdr_cap) { .kind = K_SDR_CAP };
FIXTURE_VARIANT_ADD(node, touch) { .kind = K_TOUCH };
FIXTURE_VARIANT_ADD(node, meta_cap) { .kind = K_META_CAP };
FIXTURE_VARIANT_ADD(node, meta_out) { .kind = K_META_OUT };
FIXTURE_VARIANT_ADD(node, subdev) { .kind = K_SUBDEV };
FIXTURE_VARIANT_ADD(node, media) { .kind = K_MEDIA };
FIXTURE_VARIANT_ADD(node, request) { .kind = K_REQUEST };
FIXTURE_VARIANT_ADD(node, cec) { .kind = K_CEC };
FIXTURE_VARIANT_ADD(node, fb) { .kind = K_FB };

FIXTURE_SETUP(node)
{
	int i;

	self->count = find_nodes(variant->kind, self->nodes);
	if (!self->count)
		SKIP(return, "no %s node of vivid/vimc (modules loaded? node_types?)",
		     kind_names[variant->kind]);
	for (i = 0; i < self->count; i++)
		TH_LOG("node %s: %s (%s)", kind_names[variant->kind],
		       self->nodes[i].path, self->nodes[i].name);
}

FIXTURE_TEARDOWN(node)
{
}

/*
 * Runs every case of @check for @kind on each of the @count @nodes and
 * says which answers were wrong.  Returns how many were, or -1 when a node
 * did not open; *@ran counts the calls made.
 */
static int run_cases(const struct node *nodes, int count, enum kind kind, enum check check,
		     int *ran)
{
	/* the preps cast it to the commands' structs: aligned as they are */
	static union {
		char b[ARG_BYTES];
		__u64 align;
	} argbuf;
	char *arg = argbuf.b;
	const struct ioctl_case *t;
	const struct node *n;
	int i, fd, ret, got, wrong = 0;
	size_t c;

	for (i = 0; i < count; i++) {
		n = &nodes[i];
		/* a request node is a media device handing out requests */
		fd = kind == K_REQUEST ? request_fd(n->path) : open(n->path, O_RDWR | O_NONBLOCK);
		if (fd < 0) {
			ksft_print_msg("open %s (%s): %s\n", n->path, n->name, strerror(errno));
			return -1;
		}
		for (c = 0; c < ARRAY_SIZE(cases); c++) {
			t = &cases[c];
			if (t->check != check || !(t->kinds & BIT_OF(kind)) ||
			    (t->needs & n->flags) != t->needs)
				continue;
			if (_IOC_SIZE(t->cmd) > sizeof(argbuf.b)) {
				ksft_print_msg("%s: argument larger than %zu bytes\n",
					       t->name, sizeof(argbuf.b));
				wrong++;
				continue;
			}
			memset(arg, 0, sizeof(argbuf.b));
			if (t->prep)
				t->prep(arg, n);
			ret = ioctl(fd, t->cmd, arg);
			got = ret < 0 ? errno : 0;
			(*ran)++;
			if (got == t->expect)
				continue;
			wrong++;
			ksft_print_msg("%s (%s): %s (0x%08lx) answered %s, expected %s\n",
				       n->path, n->name, t->name, t->cmd,
				       errno_name(got), errno_name(t->expect));
		}
		close(fd);
	}
	return wrong;
}

TEST_F(node, unknown_own_range)
{
	int ran = 0, wrong;

	wrong = run_cases(self->nodes, self->count, variant->kind,
			  C_UNKNOWN_OWN, &ran);
	/* a node that does not open fails the case: it is no skip */
	ASSERT_LE(0, wrong);
	if (!ran)
		SKIP(return, "no case for %s", kind_names[variant->kind]);
	EXPECT_EQ(0, wrong);
}

TEST_F(node, unknown_foreign)
{
	int ran = 0, wrong;

	wrong = run_cases(self->nodes, self->count, variant->kind,
			  C_UNKNOWN_FOREIGN, &ran);
	/* a node that does not open fails the case: it is no skip */
	ASSERT_LE(0, wrong);
	if (!ran)
		SKIP(return, "no case for %s", kind_names[variant->kind]);
	EXPECT_EQ(0, wrong);
}

TEST_F(node, known_unsupported)
{
	int ran = 0, wrong;

	wrong = run_cases(self->nodes, self->count, variant->kind,
			  C_KNOWN_UNSUPPORTED, &ran);
	/* a node that does not open fails the case: it is no skip */
	ASSERT_LE(0, wrong);
	if (!ran)
		SKIP(return, "no case for %s", kind_names[variant->kind]);
	EXPECT_EQ(0, wrong);
}

TEST_F(node, bad_argument)
{
	int ran = 0, wrong;

	wrong = run_cases(self->nodes, self->count, variant->kind,
			  C_BAD_ARG, &ran);
	/* a node that does not open fails the case: it is no skip */
	ASSERT_LE(0, wrong);
	if (!ran)
		SKIP(return, "no case for %s", kind_names[variant->kind]);
	EXPECT_EQ(0, wrong);
}

TEST_F(node, good_argument)
{
	int ran = 0, wrong;

	wrong = run_cases(self->nodes, self->count, variant->kind,
			  C_GOOD_ARG, &ran);
	/* a node that does not open fails the case: it is no skip */
	ASSERT_LE(0, wrong);
	if (!ran)
		SKIP(return, "no case for %s", kind_names[variant->kind]);
	EXPECT_EQ(0, wrong);
}

TEST_HARNESS_MAIN
