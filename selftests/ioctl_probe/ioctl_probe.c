// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl_probe - what every reachable ioctl handler answers to a command it
 * does not know.
 *
 * The audit boots the same kernel twice, pristine and with a series
 * applied, and runs this program (native and -m32) in both: the rows that
 * differ are what the series changed for user space.  Targets:
 *
 *   char and block devices   every /sys/dev/{char,block}/MAJ:MIN with a
 *                            DEVNAME in its uevent; when /dev lacks the node
 *                            (or holds another device under that name) it
 *                            is made with mknod in a scratch folder
 *   file descriptors         pipe, epoll, eventfd, userfaultfd, pidfd, pty,
 *                            a seccomp listener, a KVM vCPU,
 *                            a pty with a line discipline, an attached tun,
 *                            sockets of the families and protocols the
 *                            series touch (a family the kernel lacks is
 *                            reported as absent), one socket of every
 *                            other family the kernel has (socket:afN, the
 *                            first of datagram, stream, seqpacket and raw
 *                            that opens), and fds that devices
 *                            hand out: media requests, IIO buffers, GPIO
 *                            lines of gpio-sim chips; USB hubs get their
 *                            commands through USBDEVFS_IOCTL; the anonymous
 *                            fd cachefiles hands its on-demand daemon
 *   files                    /proc/self/maps and pagemap, debugfs and
 *                            securityfs hooks, and any path named on the
 *                            command line
 *
 * Each target gets three commands (foreign, own or unlikely, smoke), each
 * with a zeroed buffer at least as big as the size the command encodes
 * (after its setup step, if -s gives it one: see setup_steps[]):
 *
 *   foreign   _IOWR(0xE1, 0xFE, 64 bytes): a magic no driver uses
 *   own       an unused number in the target's own magic (table below)
 *   unlikely  _IOWR(0xD6, 0xFD, 64 bytes), for targets whose magic the
 *             table does not know
 *   smoke     one known, read-only command, to see that the handler still
 *             answers what it knows; FIGETBSZ (answered by the VFS, never by
 *             the driver) where no such command is known
 *
 * Unknown commands are harmless by definition; only known commands can act,
 * so the smoke commands are all read-only, and the known commands that make
 * the derived fds (TUNSETIFF, TIOCSETD, MEDIA_IOC_REQUEST_ALLOC,
 * IIO_BUFFER_GET_FD_IOCTL, input line requests) make only what closing the
 * fd undoes.  Opening a watchdog arms it, so
 * watchdogs are probed only when named on the command line, and closed with
 * the magic 'V', the only write to a target; nothing is read from one.
 *
 * It never hangs: every open and every ioctl runs under alarm(), each
 * target is probed in a child process that the parent kills when it stops
 * making progress (stuck where no signal reaches it), and nodes are opened
 * with O_NONBLOCK.
 *
 * Output (stdout): comment lines start with '#'; every result is one line
 *
 *   probe TARGET KIND NODE DEV SUBSYSTEM DRIVER CHECK COMMAND NAME ABI RESULT
 *
 * separated by tabs ('-' for an empty field).  CHECK is open (COMMAND and
 * NAME are '-'), foreign, own, unlikely or smoke, or exit when the target's
 * child died (RESULT SIGNAL<n>) or overran (TIMEOUT).  RESULT is 0 (the
 * call succeeded), an errno name, TIMEOUT, or absent (open only: the kernel
 * lacks this kind of file).  ABI is native, or compat for a 32-bit program
 * on a 64-bit kernel.  selftests/README.rst documents it and
 * enotty.audit.probe_output parses it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/auto_fs.h>
#include <linux/cachefiles.h>
#include <linux/android/binder.h>
#include <linux/cec.h>
#include <linux/fb.h>
#include <linux/fd.h>
#include <linux/fs.h>
#include <linux/gpio.h>
#include <linux/hpet.h>
#include <linux/hidraw.h>
#include <linux/iio/buffer.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <linux/input.h>
#include <linux/joystick.h>
#if __has_include(<asm/kvm.h>)
#include <linux/kvm.h>
#else
/*
 * 32-bit arm exports no KVM headers since Linux 5.7 (Debian's armhf cross
 * headers have no asm/kvm.h): the numbers the kvm:vcpu target uses.
 */
#define KVMIO 0xAE
struct kvm_mp_state { __u32 mp_state; };
#define KVM_CREATE_VM _IO(KVMIO, 0x01)
#define KVM_CREATE_VCPU _IO(KVMIO, 0x41)
#define KVM_GET_MP_STATE _IOR(KVMIO, 0x98, struct kvm_mp_state)
#endif
#include <linux/ipmi.h>
#include <linux/loop.h>
#include <linux/lp.h>
#include <linux/media.h>
#include <linux/pmu.h>
#include <linux/ppdev.h>
#include <linux/random.h>
#include <linux/rtc.h>
#include <linux/seccomp.h>
#include <linux/sonypi.h>
#include <linux/filter.h>
#include <linux/tty.h>
#ifdef __powerpc__
/* powerpc's TCGETS encodes the size of the kernel's struct termios */
#include <asm/termbits.h>
#endif
#ifdef __powerpc64__
/* PowerNV's OPAL PRD: a powerpc-only uapi header */
#include <asm/opal-prd.h>
#endif
#include <linux/uinput.h>
#include <linux/usbdevice_fs.h>
#include <linux/usb/ch9.h>
#include <linux/usb/functionfs.h>
#include <linux/usb/tmc.h>
#include <linux/userfaultfd.h>
#include <linux/vduse.h>
#include <linux/videodev2.h>
#include <linux/watchdog.h>
#include <linux/soundcard.h>
#include <sound/asound.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ARG_BYTES 4096
#define MAX_TARGETS 2048
#define NAME_LEN 512

/* 64 bytes: big enough for every unknown command's encoded size */
struct blob { char b[64]; };
#define CMD_FOREIGN	_IOWR(0xE1, 0xFE, struct blob)
#define CMD_UNLIKELY	_IOWR(0xD6, 0xFD, struct blob)

/*
 * Commands that the C library's and Debian's (6.1) uapi headers lack: kernel
 * internal headers (Bluetooth, mISDN, CAPI, ORANGEFS, vmci) or newer uapi.
 */
#define BNEPGETCONNLIST		_IOR('B', 210, int)	/* net/bluetooth/bnep/bnep.h */
#define CMTPGETCONNLIST		_IOR('C', 210, int)	/* net/bluetooth/cmtp/cmtp.h */
#define HIDPGETCONNLIST		_IOR('H', 210, int)	/* net/bluetooth/hidp/hidp.h */
#define IMGETVERSION		_IOR('I', 66, int)	/* include/linux/mISDNif.h */
struct capi_version_ { uint32_t major, minor, manufacturer_major, manufacturer_minor; };
#define CAPI_GET_VERSION	_IOWR('C', 0x07, struct capi_version_)	/* uapi/linux/capi.h */
#define ORANGEFS_DEV_GET_MAGIC	_IOW('k', 1, int32_t)	/* fs/orangefs/protocol.h */
#define IOCTL_VMCI_VERSION	_IO(7, 0x9f)		/* include/linux/vmw_vmci_defs.h */
#define EPIOCGPARAMS		_IOR(0x8A, 0x02, uint64_t)	/* uapi/linux/eventpoll.h, 6.9 */
#define RFCOMMGETDEVLIST	_IOR('R', 210, int)	/* net/bluetooth/rfcomm/tty.c */
#define BTPROTO_RFCOMM		3	/* include/net/bluetooth/bluetooth.h */
#define BTPROTO_BNEP		4
#define BTPROTO_CMTP		5
#define BTPROTO_HIDP		6
/*
 * SPARC's own uapi headers (arch/sparc/include/uapi/asm), which only the
 * sparc64 C library's headers carry: the read-only commands of the
 * sparc64 guest's smoke checks, spelled out so that every build has them.
 */
#define OPIOCGETOPTNODE		_IOR('O', 4, int)	/* asm/openpromio.h */
#define ENVCTRL_RD_GLOBALADDRESS _IOR('p', 0x49, int)	/* asm/envctrl.h */

enum check { C_FOREIGN, C_OWN, C_UNLIKELY, C_SMOKE };
static const char * const check_names[] = { "foreign", "own", "unlikely", "smoke" };

/* Bluetooth's GETCONNLIST requests: a count and room for that many entries */
struct bt_connlist_req {
	uint32_t cnum;
	void *ci;
};
static char connlist_room[1024];

static void prep_connlist(void *arg)
{
	struct bt_connlist_req *req = arg;

	req->cnum = 1;
	req->ci = connlist_room;
}

/* RFCOMMGETDEVLIST: a struct rfcomm_dev_list_req with room for one entry */
static void prep_rfcomm_devlist(void *arg)
{
	*(uint16_t *)arg = 1;
}

static void prep_line_mask(void *arg)
{
	((struct gpio_v2_line_values *)arg)->mask = 1;	/* the one line requested */
}

#define R_EXPLICIT	(1u << 0)	/* opening acts: probe only when named */
#define R_MAGIC_CLOSE	(1u << 1)	/* write 'V' before close (watchdogs) */
#define R_BLOCKING_OPEN	(1u << 2)	/* the open refuses O_NONBLOCK with EINVAL */
#define R_READ_ONLY	(1u << 3)	/* the open refuses FMODE_WRITE with EINVAL */

/*
 * What each target's own magic is, its unused number there, and its smoke
 * command.  First match wins: PATTERN (fnmatch) on the target name and,
 * when set, SUBSYSTEM equal to the sysfs subsystem.  The unused numbers
 * were checked against the kernel's headers (enotty.audit.probe_test
 * checks them again against the tree's uapi headers through
 * `ioctl_probe -l`).
 */
struct rule {
	const char *pattern;
	const char *subsystem;
	const char *own_name;
	unsigned int own;
	const char *smoke_name;
	unsigned int smoke;
	void (*prep)(void *arg);
	unsigned int flags;
};

#define OWN(name, cmd) #name, cmd
#define SMOKE(cmd) #cmd, cmd
#define NO_OWN NULL, 0
#define NO_SMOKE NULL, 0
static const struct rule rules[] = {
	{ "/dev/fd[0-9]*", "block", OWN(FD_UNUSED, _IOWR(2, 0x7f, struct blob)),
	  SMOKE(FDGETDRVTYP) },
	{ "/dev/loop-control", NULL, OWN(LOOP_CTL_UNUSED, _IO(0x4C, 0x8f)), NO_SMOKE },
	{ "/dev/loop[0-9]*", "block", OWN(LOOP_UNUSED, _IO(0x4C, 0x3f)),
	  SMOKE(LOOP_GET_STATUS64) },
	{ "/dev/nbd[0-9]*", "block", OWN(NBD_UNUSED, _IO(0xab, 0x3f)), SMOKE(BLKGETSIZE64) },
	{ "/dev/mmcblk[0-9]*", "block", OWN(MMC_UNUSED, _IOWR(0xB3, 0x7f, struct blob)),
	  SMOKE(BLKGETSIZE64) },
	{ "*", "block", OWN(BLK_UNUSED, _IOWR(0x12, 0xfe, struct blob)), SMOKE(BLKGETSIZE64) },
	{ "/dev/watchdog*", NULL, OWN(WDIOC_UNUSED, _IOWR('W', 0x7f, struct blob)),
	  SMOKE(WDIOC_GETSUPPORT), NULL, R_EXPLICIT | R_MAGIC_CLOSE },
	{ "/dev/lp[0-9]*", NULL, OWN(LP_UNUSED, _IO(0x06, 0x3f)), SMOKE(LPGETIRQ) },
	/*
	 * An autofs mount's root answers ENOTTY itself outside its 32 numbers
	 * from 0x60; 0x7f is inside them and no command of root.c or of
	 * /dev/autofs (dev-ioctl.c, 0x71..0x7e), so it reaches the switch.
	 */
	{ "dir:/autofs", NULL, OWN(AUTOFS_UNUSED, _IO(0x93, 0x7f)), SMOKE(AUTOFS_IOC_PROTOVER) },
	{ "/dev/parport[0-9]*", NULL, OWN(PP_UNUSED, _IOWR('p', 0xbf, struct blob)),
	  SMOKE(PPGETMODE) },
	{ "/dev/*random", NULL, OWN(RND_UNUSED, _IOWR('R', 0x7f, struct blob)),
	  SMOKE(RNDGETENTCNT) },
	{ "/dev/vtpmx", NULL, OWN(VTPM_UNUSED, _IOWR(0xa1, 0x7f, struct blob)), NO_SMOKE },
	{ "gpio-linehandle:*", NULL, OWN(GPIO_UNUSED, _IOWR(0xB4, 0x7f, struct blob)),
	  SMOKE(GPIOHANDLE_GET_LINE_VALUES_IOCTL) },
	{ "gpio-lineevent:*", NULL, OWN(GPIO_UNUSED, _IOWR(0xB4, 0x7f, struct blob)),
	  SMOKE(GPIOHANDLE_GET_LINE_VALUES_IOCTL) },
	{ "gpio-linerequest:*", NULL, OWN(GPIO_UNUSED, _IOWR(0xB4, 0x7f, struct blob)),
	  SMOKE(GPIO_V2_LINE_GET_VALUES_IOCTL), prep_line_mask },
	{ "/dev/gpiochip*", NULL, OWN(GPIO_UNUSED, _IOWR(0xB4, 0x7f, struct blob)),
	  SMOKE(GPIO_GET_CHIPINFO_IOCTL) },
	{ "iio-buffer:*", NULL, OWN(IIO_UNUSED, _IOWR('i', 0x9f, struct blob)), NO_SMOKE },
	{ "/dev/iio:device*", NULL, OWN(IIO_UNUSED, _IOWR('i', 0x9f, struct blob)), NO_SMOKE },
	/* COMMAND is the code inside USBDEVFS_IOCTL, which hub_ioctl() answers */
	{ "usb-hub:*", NULL, OWN(USB_HUB_UNUSED, _IOWR('U', 0x7f, struct blob)),
	  SMOKE(USBDEVFS_HUB_PORTINFO) },
	{ "/dev/bus/usb/*", NULL, OWN(USBDEVFS_UNUSED, _IOWR('U', 0x7f, struct blob)),
	  SMOKE(USBDEVFS_GET_CAPABILITIES) },
	{ "/dev/iommu", NULL, OWN(IOMMUFD_UNUSED, _IOWR(';', 0xfe, struct blob)), NO_SMOKE },
	{ "/dev/capi20", NULL, OWN(CAPI_UNUSED, _IOWR('C', 0x7f, struct blob)),
	  SMOKE(CAPI_GET_VERSION) },
	{ "/dev/mISDNtimer", NULL, OWN(MISDN_UNUSED, _IOWR('I', 0x7f, struct blob)), NO_SMOKE },
	{ "/dev/fb[0-9]*", NULL, OWN(FB_UNUSED, _IOWR('F', 0x7f, struct blob)),
	  SMOKE(FBIOGET_VSCREENINFO) },
	{ "/dev/mptctl", NULL, OWN(MPT_UNUSED, _IOWR('m', 0x7f, struct blob)), NO_SMOKE },
	{ "/dev/ntsync", NULL, OWN(NTSYNC_UNUSED, _IOWR('N', 0xbf, struct blob)), NO_SMOKE },
	{ "/dev/vmci", NULL, OWN(VMCI_UNUSED, _IOWR(7, 0x7f, struct blob)),
	  SMOKE(IOCTL_VMCI_VERSION) },
	{ "/dev/tap[0-9]*", NULL, OWN(TUN_UNUSED, _IOWR('T', 0xf0, struct blob)),
	  SMOKE(TUNGETFEATURES) },
	{ "/dev/net/tun", NULL, OWN(TUN_UNUSED, _IOWR('T', 0xf0, struct blob)),
	  SMOKE(TUNGETFEATURES) },
	{ "tun:*", NULL, OWN(TUN_UNUSED, _IOWR('T', 0xf0, struct blob)), SMOKE(TUNGETIFF) },
	{ "/dev/wwan*", NULL, OWN(TTY_UNUSED, _IO('T', 0x7f)), SMOKE(FIONREAD) },
	/* raw_open(): "Nonblocking I/O is not supported yet"; its open never waits */
	{ "/dev/raw-gadget", NULL, OWN(RAW_GADGET_UNUSED, _IOWR('U', 0x7f, struct blob)),
	  NO_SMOKE, NULL, R_BLOCKING_OPEN },
	{ "/dev/vduse/control", NULL, OWN(VDUSE_UNUSED, _IOWR(0x81, 0x7f, struct blob)),
	  SMOKE(VDUSE_GET_API_VERSION) },
	{ "/dev/pvfs2-req", NULL, OWN(ORANGEFS_UNUSED, _IOWR('k', 0x7f, struct blob)),
	  SMOKE(ORANGEFS_DEV_GET_MAGIC) },
	{ "/dev/hmm_dmirror*", NULL, OWN(HMM_UNUSED, _IOWR('H', 0x7f, struct blob)), NO_SMOKE },
	{ "/dev/snd/hwC*", NULL, OWN(HWDEP_UNUSED, _IOWR('H', 0x7f, struct blob)),
	  SMOKE(SNDRV_HWDEP_IOCTL_PVERSION) },
	/*
	 * binderfs's binder-control knows BINDER_CTL_ADD ('b' 1) alone: no
	 * read-only command to check it by (BINDER_VERSION is unknown there).
	 */
	{ "*/binder-control", NULL, OWN(BINDER_CTL_UNUSED, _IOWR('b', 0x7f, struct blob)),
	  NO_SMOKE },
	{ "*binder*", NULL, OWN(BINDER_UNUSED, _IOWR('b', 0x7f, struct blob)),
	  SMOKE(BINDER_VERSION) },
	{ "/dev/userfaultfd", NULL, OWN(UFFD_UNUSED, _IOWR(0xAA, 0x20, struct blob)), NO_SMOKE },
	{ "/dev/rtc*", NULL, OWN(RTC_UNUSED, _IOWR('p', 0x7f, struct blob)), SMOKE(RTC_RD_TIME) },
	/* hpet_open(): FMODE_WRITE answers EINVAL */
	{ "/dev/hpet", NULL, OWN(HPET_UNUSED, _IOWR('h', 0x7f, struct blob)), SMOKE(HPET_INFO),
	  NULL, R_READ_ONLY },
	/* ALLOC, the one command, allocates: no smoke command */
	{ "/dev/dma_heap/*", NULL, OWN(DMA_HEAP_UNUSED, _IOWR('H', 0x7f, struct blob)), NO_SMOKE },
	{ "/dev/hidraw*", NULL, OWN(HIDRAW_UNUSED, _IOWR('H', 0x7f, struct blob)),
	  SMOKE(HIDIOCGRDESCSIZE) },
	{ "/dev/uinput", NULL, OWN(UINPUT_UNUSED, _IOWR('U', 0x7f, struct blob)),
	  SMOKE(UI_GET_VERSION) },
	/* SONYPI_IOCGBLUE reads the driver's own copy of the Bluetooth state */
	{ "/dev/sonypi", NULL, OWN(SONYPI_UNUSED, _IOWR('v', 0x7f, struct blob)),
	  SMOKE(SONYPI_IOCGBLUE) },
	{ "/dev/rio_cm", NULL, OWN(RIO_CM_UNUSED, _IOWR('c', 0x7f, struct blob)), NO_SMOKE },
	/*
	 * The MegaRAID management nodes take every command of their magic
	 * ('m') and tell them apart by the packet's contents, not by the
	 * number: no number of that magic is unknown to them.
	 */
	{ "/dev/megadev*", NULL, NO_OWN, NO_SMOKE },
	/*
	 * The OSS sequencer hands a command it has no case for to synth
	 * device 0 on a file opened for writing (the probe opens O_RDWR);
	 * sound_core names the OSS music device (minor 8, /dev/music in
	 * MAKEDEV's days) sequencer2.
	 */
	{ "/dev/sequencer", NULL, OWN(SNDCTL_SEQ_UNUSED, _IOWR('Q', 0x7f, struct blob)),
	  SMOKE(SNDCTL_SEQ_NRSYNTHS) },
	{ "/dev/sequencer2", NULL, OWN(SNDCTL_SEQ_UNUSED, _IOWR('Q', 0x7f, struct blob)),
	  SMOKE(SNDCTL_SEQ_NRSYNTHS) },
	{ "/dev/usbtmc*", NULL, OWN(USBTMC_UNUSED, _IOWR(USBTMC_IOC_NR, 0x7f, struct blob)),
	  SMOKE(USBTMC_IOCTL_API_VERSION) },
	{ "/dev/dsp*", NULL, OWN(SNDCTL_DSP_UNUSED, _IOWR('P', 0x7f, struct blob)),
	  SMOKE(OSS_GETVERSION) },
	{ "seccomp:*", NULL, OWN(SECCOMP_UNUSED, _IOWR('!', 0x7f, struct blob)),
	  SMOKE(SECCOMP_IOCTL_NOTIF_ID_VALID) },
	/*
	 * The anonymous fd of a cachefiles object in on-demand mode; making one
	 * binds a cache and starts an erofs mount: only when named.  Its one
	 * command, READ_COMPLETE, completes a read request: no smoke command.
	 */
	{ "cachefiles:*", NULL, OWN(CACHEFILES_UNUSED, _IOWR(0x98, 0x7f, struct blob)), NO_SMOKE,
	  NULL, R_EXPLICIT },
	{ "kvm:vcpu", NULL, OWN(KVM_UNUSED, _IOWR(KVMIO, 0xff, struct blob)),
	  SMOKE(KVM_GET_MP_STATE) },
	{ "/dev/media*", NULL, OWN(MEDIA_UNUSED, _IOWR('|', 0x70, struct blob)),
	  SMOKE(MEDIA_IOC_DEVICE_INFO) },
	{ "*", "video4linux", OWN(V4L2_UNUSED, _IOWR('V', 120, struct blob)),
	  SMOKE(VIDIOC_QUERYCAP) },
	{ "/dev/cec*", NULL, OWN(CEC_UNUSED, _IOWR('a', 0x70, struct blob)),
	  SMOKE(CEC_ADAP_G_CAPS) },
	{ "/dev/input/js*", NULL, OWN(JS_UNUSED, _IOWR('j', 0x7f, struct blob)),
	  SMOKE(JSIOCGVERSION) },
	{ "/dev/usb/lp*", NULL, OWN(USBLP_UNUSED, _IOWR('P', 0x7f, struct blob)), NO_SMOKE },
	{ "/dev/input/event*", NULL, OWN(EVDEV_UNUSED, _IOWR('E', 0xbf, struct blob)),
	  SMOKE(EVIOCGVERSION) },
	/*
	 * The BMC side of IPMI (ASPEED BT and KCS): magic 0xB1, whose three
	 * commands all act on the host interface: no smoke command.
	 */
	{ "/dev/ipmi-bt-host", NULL, OWN(IPMI_BMC_UNUSED, _IOWR(0xB1, 0x7f, struct blob)),
	  NO_SMOKE },
	{ "/dev/ipmi-kcs*", NULL, OWN(IPMI_BMC_UNUSED, _IOWR(0xB1, 0x7f, struct blob)),
	  NO_SMOKE },
	/* APM_IOC_STANDBY and APM_IOC_SUSPEND both act: no smoke command */
	{ "/dev/apm_bios", NULL, OWN(APM_UNUSED, _IOWR('A', 0x7f, struct blob)), NO_SMOKE },
	{ "/dev/pmu", NULL, OWN(PMU_UNUSED, _IOWR('B', 0x7f, struct blob)),
	  SMOKE(PMU_IOC_GET_MODEL) },
	/*
	 * sun4u (the sparc64 guest).  /dev/openprom: magic 'O' (its SunOS
	 * commands are 0x20004Fxx, its NetBSD ones _IO*('O', 1..6));
	 * OPIOCGETOPTNODE only copies out the /options node's phandle.
	 * /dev/envctrl: magic 'p' (0x40..0x49); ENVCTRL_RD_GLOBALADDRESS only
	 * records which value the next read() returns.  cpwd's three timers
	 * (RIC, XIR, POR) take the watchdog magic and Solaris's WIOC* numbers
	 * ('W' 10..12); opening one only requests the interrupt, and there is
	 * no magic close: no write at all.
	 */
	{ "/dev/openprom", NULL, OWN(OPENPROM_UNUSED, _IOWR('O', 0x7f, struct blob)),
	  SMOKE(OPIOCGETOPTNODE) },
	{ "/dev/envctrl", NULL, OWN(ENVCTRL_UNUSED, _IOWR('p', 0x7f, struct blob)),
	  SMOKE(ENVCTRL_RD_GLOBALADDRESS) },
	{ "/dev/RIC", NULL, OWN(WDIOC_UNUSED, _IOWR('W', 0x7f, struct blob)),
	  SMOKE(WDIOC_GETSUPPORT), NULL, R_EXPLICIT },
	{ "/dev/XIR", NULL, OWN(WDIOC_UNUSED, _IOWR('W', 0x7f, struct blob)),
	  SMOKE(WDIOC_GETSUPPORT), NULL, R_EXPLICIT },
	{ "/dev/POR", NULL, OWN(WDIOC_UNUSED, _IOWR('W', 0x7f, struct blob)),
	  SMOKE(WDIOC_GETSUPPORT), NULL, R_EXPLICIT },
#ifdef __powerpc64__
	/*
	 * OPAL PRD: magic 'o' (numbers 1-3; the DVB headers use 'o' up to
	 * 161).  OPAL_PRD_GET_INFO only copies the kernel's version out.
	 */
	{ "/dev/opal-prd", NULL, OWN(OPAL_PRD_UNUSED, _IOWR('o', 0xef, struct blob)),
	  SMOKE(OPAL_PRD_GET_INFO) },
#endif
	{ "/dev/ipmi*", NULL, OWN(IPMI_UNUSED, _IOWR('i', 0x7f, struct blob)),
	  SMOKE(IPMICTL_GET_MY_ADDRESS_CMD) },
	{ "*", "tty", OWN(TTY_UNUSED, _IO('T', 0x7f)), SMOKE(TCGETS) },
	{ "pty:*", NULL, OWN(TTY_UNUSED, _IO('T', 0x7f)), SMOKE(TCGETS) },
	/*
	 * serport's own magic is 'q' (SPIOCSTYPE).  TCGETS is no smoke check
	 * here: the tty core hands it to the line discipline, and serport's
	 * ioctl does not know it (it answered EINVAL, the series makes that
	 * ENOTTY).  TIOCGETD is answered by the tty core itself.
	 */
	{ "pty-ldisc:serport", NULL, OWN(SERPORT_UNUSED, _IOWR('q', 0x7f, struct blob)),
	  SMOKE(TIOCGETD) },
	/* an rpc_pipefs pipe (rpc_pipe_ioctl() knows FIONREAD alone) */
	{ "*/rpc_pipefs/*", NULL, OWN(TTY_UNUSED, _IO('T', 0x7f)), SMOKE(FIONREAD) },
	{ "pipe:*", NULL, OWN(WATCH_QUEUE_UNUSED, _IOWR('W', 0x6f, struct blob)), SMOKE(FIONREAD) },
	{ "epoll:*", NULL, OWN(EPOLL_UNUSED, _IOWR(0x8A, 0x3f, struct blob)), SMOKE(EPIOCGPARAMS) },
	{ "userfaultfd:*", NULL, OWN(UFFD_UNUSED, _IOWR(0xAA, 0x20, struct blob)), NO_SMOKE },
	{ "media-request:*", NULL, OWN(REQUEST_UNUSED, _IOWR('|', 0x8f, struct blob)), NO_SMOKE },
	{ "proc:*", NULL, OWN(PROCFS_UNUSED, _IOWR('f', 0x7e, struct blob)), NO_SMOKE },
	{ "socket:isdn/*", NULL, OWN(MISDN_UNUSED, _IOWR('I', 0x7f, struct blob)),
	  SMOKE(IMGETVERSION) },
	{ "socket:bluetooth/bnep", NULL, OWN(BNEP_UNUSED, _IOWR('B', 0xf0, struct blob)),
	  SMOKE(BNEPGETCONNLIST), prep_connlist },
	{ "socket:bluetooth/cmtp", NULL, OWN(CMTP_UNUSED, _IOWR('C', 0xf0, struct blob)),
	  SMOKE(CMTPGETCONNLIST), prep_connlist },
	{ "socket:bluetooth/hidp", NULL, OWN(HIDP_UNUSED, _IOWR('H', 0xbf, struct blob)),
	  SMOKE(HIDPGETCONNLIST), prep_connlist },
	{ "socket:bluetooth/rfcomm", NULL, OWN(RFCOMM_UNUSED, _IOWR('R', 0xf0, struct blob)),
	  SMOKE(RFCOMMGETDEVLIST), prep_rfcomm_devlist },
	/* the last protocol-private number; the socket core answers SIOCGPGRP */
	{ "socket:*", NULL, OWN(SIOCPROTOPRIVATE_15, _IO(0x89, 0xef)), SMOKE(SIOCGPGRP) },
};

/*
 * Setup steps: what a real program does to a freshly opened target before
 * its commands reach the handler's dispatch (ppdev answers EINVAL to every
 * command until the port is claimed, a userfaultfd until the UFFDIO_API
 * handshake, test_hmm checks the range its argument describes first).
 * Which target gets which step is not decided here: selftests/audit's
 * instantiate.tsv names it, the audit passes it as -s GLOB=STEP.  A target
 * with a step gets its unknown commands twice: before the step (check
 * presetup) and after it (foreign, own or unlikely, then smoke).
 */
struct setup_step {
	const char *name;
	int (*run)(int fd);		/* NULL: no call, only an argument */
	void (*prep)(void *arg);	/* the argument of the unknown commands */
};

static int setup_ppclaim(int fd)
{
	return ioctl(fd, PPCLAIM);
}

static int setup_uffdio_api(int fd)
{
	struct uffdio_api api = { .api = UFFD_API };

	return ioctl(fd, UFFDIO_API, &api);
}

/* lib/test_hmm_uapi.h's struct hmm_dmirror_cmd: page 0, one page */
static void prep_hmm_range(void *arg)
{
	((uint64_t *)arg)[2] = 1;	/* npages, after addr and ptr */
}

static const struct setup_step setup_steps[] = {
	{ "ppclaim", setup_ppclaim, NULL },
	{ "uffdio_api", setup_uffdio_api, NULL },
	{ "hmm_range", NULL, prep_hmm_range },
};

#define MAX_SETUPS 64
static struct {
	const char *glob;
	const struct setup_step *step;
} setups[MAX_SETUPS];
static int nsetups;

enum how {
	H_NODE, H_FILE, H_DIR, H_SOCKET, H_PIPE, H_EPOLL, H_EVENTFD, H_UFFD,
	H_PIDFD, H_PTY_MASTER, H_PTY_SLAVE, H_PTY_LDISC, H_MEDIA_REQUEST, H_TUN,
	H_GPIO_HANDLE, H_GPIO_EVENT, H_GPIO_REQUEST, H_IIO_BUFFER, H_USB_HUB, H_SECCOMP,
	H_KVM_VCPU, H_CACHEFILES,
};

struct target {
	char name[NAME_LEN];
	const char *kind;		/* char, block, fd, socket, file */
	enum how how;
	char path[NAME_LEN];		/* what is opened; "" for fds */
	char dev[24];			/* MAJ:MIN or "-" */
	char subsystem[64];
	char driver[64];
	int family, type, protocol;	/* H_SOCKET; H_PTY_LDISC: family = ldisc */
	dev_t rdev;			/* nodes: the device number */
	char from[NAME_LEN];		/* derived targets: the node they come from */
	int usb_hub;			/* a USB device of class 9 */
	const struct rule *rule;
	const struct setup_step *setup;
};

/* Non-node targets: always in the list, absent where the kernel lacks them. */
static const struct {
	const char *name;
	enum how how;
	int family, type, protocol;
} fd_targets[] = {
	{ "pipe:pipe2", H_PIPE },
	{ "epoll:epoll_create1", H_EPOLL },
	{ "eventfd:eventfd", H_EVENTFD },
	{ "userfaultfd:new", H_UFFD },
	{ "pidfd:self", H_PIDFD },
	{ "pty:master", H_PTY_MASTER },
	{ "pty:slave", H_PTY_SLAVE },
	{ "pty-ldisc:serport", H_PTY_LDISC, N_MOUSE },
	{ "tun:attached", H_TUN },
	{ "socket:unix/stream", H_SOCKET, AF_UNIX, SOCK_STREAM, 0 },
	{ "socket:inet/udp", H_SOCKET, AF_INET, SOCK_DGRAM, 0 },
	{ "socket:netlink/route", H_SOCKET, AF_NETLINK, SOCK_RAW, 0 },
	{ "socket:isdn/base", H_SOCKET, AF_ISDN, SOCK_RAW, 0 },
	{ "socket:bluetooth/bnep", H_SOCKET, AF_BLUETOOTH, SOCK_RAW, BTPROTO_BNEP },
	{ "socket:bluetooth/cmtp", H_SOCKET, AF_BLUETOOTH, SOCK_RAW, BTPROTO_CMTP },
	{ "socket:bluetooth/hidp", H_SOCKET, AF_BLUETOOTH, SOCK_RAW, BTPROTO_HIDP },
	{ "socket:bluetooth/rfcomm", H_SOCKET, AF_BLUETOOTH, SOCK_STREAM, BTPROTO_RFCOMM },
	{ "seccomp:listener", H_SECCOMP },
	{ "kvm:vcpu", H_KVM_VCPU },
	{ "cachefiles:ondemand", H_CACHEFILES },
	{ "socket:mctp", H_SOCKET, AF_MCTP, SOCK_DGRAM, 0 },
};

/* Files by prefix: PREFIX:REST opens ROOT/REST. */
static const struct {
	const char *prefix;
	const char *root;
} file_roots[] = {
	{ "proc:", "/proc/" },
	{ "debugfs:", "/sys/kernel/debug/" },
	{ "securityfs:", "/sys/kernel/security/" },
	{ "dir:", "" },
};

/* Probed by default, absent where missing. */
static const char * const default_files[] = {
	"proc:self/maps", "proc:self/pagemap", "debugfs:gup_test",
	"debugfs:dma_map_benchmark", "securityfs:loadpin/dm-verity",
};

static struct target targets[MAX_TARGETS];
static int ntargets;
static unsigned int timeout_s = 5;
static const char *abi = "native";
static char scratch[PATH_MAX];
static volatile sig_atomic_t alarmed;
/* Steps the current child has finished (open, each command), shared with
 * the parent so that it kills only a child that stopped making progress.
 */
static volatile unsigned int *progress;

static void on_alarm(int sig)
{
	alarmed = 1;
}

static void fail(const char *what)
{
	fprintf(stderr, "ioctl_probe: %s: %s\n", what, strerror(errno));
	exit(2);
}

static const char *errno_name(int err)
{
	static char other[16];
	const char *name = strerrorname_np(err);

	if (name)
		return name;
	snprintf(other, sizeof(other), "E%d", err);
	return other;
}

/* A 32-bit program on a 64-bit kernel takes the compat ioctl paths. */
static const char *detect_abi(void)
{
	struct utsname u;

	if (sizeof(long) == 8 || uname(&u))
		return "native";
	return strstr(u.machine, "64") ? "compat" : "native";
}

/* The last component of the symlink dir/link, "-" when there is none. */
static void link_name(const char *dir, const char *link, char *out, size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	ssize_t n;
	const char *slash;

	snprintf(path, sizeof(path), "%s/%s", dir, link);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0) {
		snprintf(out, len, "-");
		return;
	}
	target[n] = '\0';
	slash = strrchr(target, '/');
	snprintf(out, len, "%s", slash ? slash + 1 : target);
}

/* The first line of a sysfs attribute, "" when unreadable. */
static void read_attr(const char *dir, const char *name, char *out, size_t len)
{
	char path[PATH_MAX];
	FILE *f;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(out, len, f))
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	fclose(f);
}

/* DEVNAME= from a sysfs device's uevent; -1 when it has none. */
static int uevent_devname(const char *dir, char *out, size_t len)
{
	char path[PATH_MAX], line[PATH_MAX];
	FILE *f;
	int ret = -1;

	snprintf(path, sizeof(path), "%s/uevent", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "DEVNAME=", 8)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(out, len, "%s", line + 8);
			ret = 0;
			break;
		}
	}
	fclose(f);
	return ret;
}

static struct target *new_target(const char *name, const char *kind, enum how how)
{
	struct target *t;

	if (ntargets == MAX_TARGETS) {
		fprintf(stderr, "ioctl_probe: more than %d targets, the rest left out\n",
			MAX_TARGETS);
		return NULL;
	}
	t = &targets[ntargets++];
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->kind = kind;
	t->how = how;
	strcpy(t->dev, "-");
	strcpy(t->subsystem, "-");
	strcpy(t->driver, "-");
	return t;
}

/* Every device number under /sys/dev/<kind> that has a /dev name. */
static void find_nodes(const char *kind)
{
	char base[64], dir[PATH_MAX], devname[PATH_MAX], name[PATH_MAX + 8];
	unsigned int maj, min;
	struct dirent *e;
	DIR *d;

	snprintf(base, sizeof(base), "/sys/dev/%s", kind);
	d = opendir(base);
	if (!d)
		return;
	while ((e = readdir(d))) {
		struct target *t;

		if (sscanf(e->d_name, "%u:%u", &maj, &min) != 2)
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", base, e->d_name);
		if (uevent_devname(dir, devname, sizeof(devname)))
			continue;
		snprintf(name, sizeof(name), "/dev/%s", devname);
		t = new_target(name, kind, H_NODE);
		if (!t)
			break;
		snprintf(t->dev, sizeof(t->dev), "%u:%u", maj, min);
		t->rdev = makedev(maj, min);
		link_name(dir, "subsystem", t->subsystem, sizeof(t->subsystem));
		/* class devices link to their device; bus devices (media, cec,
		 * gpiochip) sit in their parent's folder
		 */
		link_name(dir, "device/driver", t->driver, sizeof(t->driver));
		if (!strcmp(t->driver, "-"))
			link_name(dir, "../driver", t->driver, sizeof(t->driver));
		if (!strcmp(t->subsystem, "usb")) {
			char class[8];

			read_attr(dir, "bDeviceClass", class, sizeof(class));
			t->usb_hub = !strcmp(class, "09");
		}
	}
	closedir(d);
}

/* PREFIX:REST or an absolute path as a file target. */
static struct target *add_file(const char *name)
{
	struct target *t;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(file_roots); i++) {
		size_t n = strlen(file_roots[i].prefix);

		if (strncmp(name, file_roots[i].prefix, n))
			continue;
		t = new_target(name, "file", i == ARRAY_SIZE(file_roots) - 1 ? H_DIR : H_FILE);
		if (t)
			snprintf(t->path, sizeof(t->path), "%s%s", file_roots[i].root, name + n);
		return t;
	}
	if (name[0] != '/')
		return NULL;
	t = new_target(name, "file", H_FILE);
	if (t)
		snprintf(t->path, sizeof(t->path), "%s", name);
	return t;
}

static const struct rule *find_rule(const struct target *t)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rules); i++) {
		const struct rule *r = &rules[i];

		if (r->subsystem && strcmp(r->subsystem, t->subsystem) &&
		    strcmp(r->subsystem, t->kind))
			continue;
		if (!fnmatch(r->pattern, t->name, 0))
			return r;
	}
	return NULL;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct target *)a)->name, ((const struct target *)b)->name);
}

/*
 * File descriptors that device nodes hand out, one target each: a request
 * of every media device, buffer 0 of every IIO device, a v1 line handle, a
 * v1 line event and a v2 line request on line 0 of every gpio-sim chip
 * (on real hardware, requesting a line can reconfigure a pin), and every
 * USB hub's interface 0 for USBDEVFS_IOCTL.
 */
static void add_derived(void)
{
	static const struct {
		const char *prefix;
		const char *subsystem;
		const char *driver;	/* NULL: any */
		enum how how;
	} derived[] = {
		{ "media-request:", "media", NULL, H_MEDIA_REQUEST },
		{ "iio-buffer:", "iio", NULL, H_IIO_BUFFER },
		{ "gpio-linehandle:", "gpio", "gpio-sim", H_GPIO_HANDLE },
		{ "gpio-lineevent:", "gpio", "gpio-sim", H_GPIO_EVENT },
		{ "gpio-linerequest:", "gpio", "gpio-sim", H_GPIO_REQUEST },
		{ "usb-hub:", "usb", NULL, H_USB_HUB },
	};
	char name[NAME_LEN + 32];
	int i, n = ntargets;
	size_t j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < ARRAY_SIZE(derived); j++) {
			const struct target *from = &targets[i];
			struct target *t;

			if (strcmp(from->subsystem, derived[j].subsystem) ||
			    (derived[j].driver && strcmp(from->driver, derived[j].driver)) ||
			    (derived[j].how == H_USB_HUB && !from->usb_hub))
				continue;
			snprintf(name, sizeof(name), "%s%s", derived[j].prefix, from->name);
			t = new_target(name, "fd", derived[j].how);
			if (!t)
				return;
			/* the node is found like the one it comes from (node_path) */
			strcpy(t->dev, from->dev);
			strcpy(t->subsystem, from->subsystem);
			strcpy(t->driver, from->driver);
			t->rdev = from->rdev;
			snprintf(t->from, sizeof(t->from), "%s", from->name);
		}
	}
}

static int matches_any(const char *name, char **patterns, int npatterns)
{
	int i;

	for (i = 0; i < npatterns; i++)
		if (!fnmatch(patterns[i], name, 0))
			return 1;
	return 0;
}

static int is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/*
 * One socket of every family the kernel has that no fd_targets[] row
 * names: the first type that opens, so that every family's proto_ops is
 * asked an unknown command, not only those the series touch.  Families
 * the kernel lacks are left out (they answer no ioctl at all).
 */
static void add_every_family(void)
{
	static const int types[] = { SOCK_DGRAM, SOCK_STREAM, SOCK_SEQPACKET, SOCK_RAW };
	char name[NAME_LEN];
	size_t i, k;
	int family, fd;

	for (family = 1; family < AF_MAX; family++) {
		int named = 0;

		for (i = 0; i < ARRAY_SIZE(fd_targets); i++)
			named |= fd_targets[i].how == H_SOCKET && fd_targets[i].family == family;
		for (k = 0; k < ARRAY_SIZE(types) && !named; k++) {
			struct target *t;

			fd = socket(family, types[k] | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
			if (fd < 0)
				continue;
			close(fd);
			snprintf(name, sizeof(name), "socket:af%d", family);
			t = new_target(name, "socket", H_SOCKET);
			if (!t)
				return;
			t->family = family;
			t->type = types[k];
			break;
		}
	}
}

/*
 * The targets: all of them, or those the patterns name.  A pattern that is
 * no glob and names no found target is a file to probe.
 */
static void collect_targets(char **patterns, int npatterns)
{
	size_t i;
	int j, k;

	find_nodes("char");
	find_nodes("block");
	add_derived();
	for (i = 0; i < ARRAY_SIZE(fd_targets); i++) {
		struct target *t = new_target(fd_targets[i].name,
					      fd_targets[i].how == H_SOCKET ? "socket" : "fd",
					      fd_targets[i].how);

		if (!t)
			break;
		t->family = fd_targets[i].family;
		t->type = fd_targets[i].type;
		t->protocol = fd_targets[i].protocol;
	}
	add_every_family();
	for (i = 0; i < ARRAY_SIZE(default_files); i++)
		add_file(default_files[i]);
	for (j = 0; j < npatterns; j++) {
		int found = 0;

		for (k = 0; k < ntargets && !found; k++)
			found = !fnmatch(patterns[j], targets[k].name, 0);
		if (!found && !is_glob(patterns[j]) && !add_file(patterns[j]))
			fprintf(stderr, "ioctl_probe: no target %s\n", patterns[j]);
	}
	for (k = 0; k < ntargets; k++) {
		targets[k].rule = find_rule(&targets[k]);
		for (j = 0; j < nsetups && !targets[k].setup; j++)
			if (!fnmatch(setups[j].glob, targets[k].name, 0))
				targets[k].setup = setups[j].step;
	}
	/* keep what was asked for; explicit-only targets only when named */
	for (j = k = 0; k < ntargets; k++) {
		const struct target *t = &targets[k];
		int named = npatterns && matches_any(t->name, patterns, npatterns);

		if (npatterns && !named)
			continue;
		if (!npatterns && t->rule && (t->rule->flags & R_EXPLICIT))
			continue;
		if (j != k)
			targets[j] = *t;
		j++;
	}
	ntargets = j;
	qsort(targets, ntargets, sizeof(targets[0]), by_name);
}

/*
 * Where to open a device: its /dev node when that is the same device, else
 * a node made in the scratch folder.  Fills t->path; -errno on failure.
 */
static int node_path(struct target *t, int is_block, char *made, size_t len)
{
	char devpath[NAME_LEN];
	struct stat st;
	mode_t type = is_block ? S_IFBLK : S_IFCHR;

	/* a derived target's node is the one it comes from */
	snprintf(devpath, sizeof(devpath), "%s", t->from[0] ? t->from : t->name);
	made[0] = '\0';
	if (!stat(devpath, &st) && (st.st_mode & S_IFMT) == type && st.st_rdev == t->rdev) {
		snprintf(t->path, sizeof(t->path), "%s", devpath);
		return 0;
	}
	if (!scratch[0]) {
		snprintf(scratch, sizeof(scratch), "/tmp/ioctl_probe.XXXXXX");
		if (!mkdtemp(scratch)) {
			scratch[0] = '\0';
			return -errno;
		}
	}
	snprintf(made, len, "%s/%s_%u_%u", scratch, is_block ? "b" : "c",
		 major(t->rdev), minor(t->rdev));
	if (mknod(made, type | 0600, t->rdev) && errno != EEXIST) {
		made[0] = '\0';
		return -errno;
	}
	snprintf(t->path, sizeof(t->path), "%s", made);
	return 0;
}

/* Starts the per-call timer; returns whether the call was cut short. */
static void arm(void)
{
	alarmed = 0;
	alarm(timeout_s);
}

static int disarm(void)
{
	alarm(0);
	return alarmed;
}

static int open_node(const char *path, int flags_extra)
{
	static const int modes[] = { O_RDWR, O_RDONLY, O_WRONLY };
	int fd = -1, err = ENOENT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		fd = open(path, modes[i] | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | flags_extra);
		/* EBUSY: a block device that is mounted cannot be opened for writing */
		if (fd >= 0 || (errno != EACCES && errno != EPERM && errno != EROFS &&
				 errno != EBUSY))
			break;
		err = errno;
	}
	if (fd < 0 && errno == 0)
		errno = err;
	return fd;
}

static int open_pty(int *master)
{
	char name[64];

	*master = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (*master < 0)
		return -1;
	if (grantpt(*master) || unlockpt(*master) || ptsname_r(*master, name, sizeof(name)))
		return -1;
	return open(name, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
}

/*
 * cachefiles in on-demand mode, as erofs-over-fscache's daemon runs it: bind
 * a cache in CACHEFILES_DIR (on a filesystem with xattrs and sync_fs: the
 * guest's setup mounts an ext2 image there), mount erofs with an fsid in a
 * child, and read the OPEN request that the mount's cookie sends: it
 * carries the object's anonymous fd.  The mount waits for the answer
 * (copen) that never comes: closing the daemon's fd (*keep) when the
 * target's child exits fails the pending requests, and with them the mount.
 */
#define CACHEFILES_DIR "/var/cache/fscache"

static int open_cachefiles_object(int *absent, int *keep)
{
	static const char * const cmds[] = {
		"dir " CACHEFILES_DIR, "tag ioctl_probe", "bind ondemand",
	};
	char mnt[] = "/tmp/ioctl_probe_erofs.XXXXXX";
	static char buf[CACHEFILES_MSG_MAX_SIZE];
	struct cachefiles_msg *msg = (struct cachefiles_msg *)buf;
	struct pollfd pfd;
	size_t i;
	ssize_t len;
	pid_t pid;
	int cfd;

	cfd = open("/dev/cachefiles", O_RDWR | O_CLOEXEC);
	*absent = cfd < 0 && errno == ENOENT;
	if (cfd < 0)
		return -1;
	*keep = cfd;
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (write(cfd, cmds[i], strlen(cmds[i])) < 0)
			return -1;
	if (!mkdtemp(mnt))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		/* the daemon's fd must close with the target's child, not here */
		close(cfd);
		mount("none", mnt, "erofs", 0, "fsid=ioctl_probe");
		_exit(0);
	}
	pfd.fd = cfd;
	pfd.events = POLLIN;
	for (;;) {
		/* within the open's alarm (timeout_s, 5 s by default) */
		int ready = poll(&pfd, 1, 4000);

		if (ready <= 0) {
			if (ready == 0)
				errno = ETIMEDOUT;
			return -1;
		}
		len = read(cfd, buf, sizeof(buf));
		if (len < 0)
			return -1;
		if ((size_t)len >= sizeof(*msg) + sizeof(struct cachefiles_open) &&
		    msg->opcode == CACHEFILES_OP_OPEN)
			return (int)((struct cachefiles_open *)msg->data)->fd;
	}
}

/*
 * Opens a target; the fd, or -1 with errno set.  *absent: the kernel lacks
 * this kind of file (family, line discipline, syscall).  *keep: an extra fd
 * that must stay open while probing (a pty master, a media device).
 */
static int open_target(const struct target *t, int *absent, int *keep)
{
	int fd = -1, pipefd[2];

	*absent = 0;
	*keep = -1;
	switch (t->how) {
	case H_NODE:
	case H_FILE:
		if (t->rule && (t->rule->flags & R_BLOCKING_OPEN))
			return open(t->path, O_RDWR | O_NOCTTY | O_CLOEXEC);
		if (t->rule && (t->rule->flags & R_READ_ONLY))
			return open(t->path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		fd = open_node(t->path, 0);
		if (fd < 0 && errno == ENOENT && t->how == H_FILE)
			*absent = 1;
		return fd;
	case H_DIR:
		fd = open(t->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		*absent = fd < 0 && errno == ENOENT;
		return fd;
	case H_SOCKET:
		fd = socket(t->family, t->type | SOCK_CLOEXEC | SOCK_NONBLOCK, t->protocol);
		/* ENOSYS: a kernel without CONFIG_NET has no socket() at all */
		*absent = fd < 0 && (errno == EAFNOSUPPORT || errno == EPROTONOSUPPORT ||
				     errno == ESOCKTNOSUPPORT || errno == EPROTOTYPE ||
				     errno == ENOSYS);
		return fd;
	case H_PIPE:
		if (pipe2(pipefd, O_NONBLOCK | O_CLOEXEC))
			return -1;
		*keep = pipefd[1];
		return pipefd[0];
	case H_EPOLL:
		return epoll_create1(EPOLL_CLOEXEC);
	case H_EVENTFD:
		return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	case H_UFFD:
		fd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
		if (fd < 0 && errno == EINVAL)	/* before 5.11: no user-mode-only */
			fd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
		*absent = fd < 0 && errno == ENOSYS;
		return fd;
	case H_SECCOMP: {
		/*
		 * An allow-all filter still hands out a listener; the probe
		 * runs each target in a child of its own, so the filter dies
		 * with the child.
		 */
		struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
		struct sock_fprog prog = { .len = 1, .filter = &allow };

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
			return -1;
		fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			     SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
		*absent = fd < 0 && (errno == ENOSYS || errno == EINVAL);
		return fd;
	}
	case H_KVM_VCPU: {
		int kvm, vm;

		kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
		*absent = kvm < 0 && errno == ENOENT;
		if (kvm < 0)
			return -1;
		vm = ioctl(kvm, KVM_CREATE_VM, 0);
		close(kvm);
		if (vm < 0)
			return -1;
		/* the vCPU holds the VM: the VM's own fd is not needed */
		fd = ioctl(vm, KVM_CREATE_VCPU, 0);
		close(vm);
		return fd;
	}
	case H_PIDFD:
		fd = syscall(SYS_pidfd_open, getpid(), 0);
		*absent = fd < 0 && errno == ENOSYS;
		return fd;
	case H_PTY_MASTER:
		fd = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
		*absent = fd < 0 && errno == ENOENT;
		return fd;
	case H_PTY_SLAVE:
	case H_PTY_LDISC:
		fd = open_pty(keep);
		*absent = fd < 0 && errno == ENOENT;
		if (fd >= 0 && t->how == H_PTY_LDISC) {
			int ldisc = t->family;

			/* an unregistered line discipline answers EINVAL */
			if (ioctl(fd, TIOCSETD, &ldisc)) {
				*absent = errno == EINVAL;
				close(fd);
				return -1;
			}
		}
		return fd;
	case H_MEDIA_REQUEST:
		*keep = open_node(t->path, 0);
		if (*keep < 0)
			return -1;
		if (ioctl(*keep, MEDIA_IOC_REQUEST_ALLOC, &fd))
			return -1;
		return fd;
	case H_IIO_BUFFER: {
		int idx = 0;	/* buffer 0; the ioctl replaces it with the fd */

		*keep = open_node(t->path, 0);
		if (*keep < 0 || ioctl(*keep, IIO_BUFFER_GET_FD_IOCTL, &idx))
			return -1;
		return idx;
	}
	case H_GPIO_HANDLE: {
		struct gpiohandle_request req = { .lineoffsets = { 0 }, .lines = 1,
						  .flags = GPIOHANDLE_REQUEST_INPUT };

		strcpy(req.consumer_label, "ioctl_probe");
		*keep = open_node(t->path, 0);
		if (*keep < 0 || ioctl(*keep, GPIO_GET_LINEHANDLE_IOCTL, &req))
			return -1;
		return req.fd;
	}
	case H_GPIO_EVENT: {
		struct gpioevent_request req = { .lineoffset = 0,
						 .handleflags = GPIOHANDLE_REQUEST_INPUT,
						 .eventflags = GPIOEVENT_REQUEST_BOTH_EDGES };

		strcpy(req.consumer_label, "ioctl_probe");
		*keep = open_node(t->path, 0);
		if (*keep < 0 || ioctl(*keep, GPIO_GET_LINEEVENT_IOCTL, &req))
			return -1;
		return req.fd;
	}
	case H_GPIO_REQUEST: {
		struct gpio_v2_line_request req;

		memset(&req, 0, sizeof(req));
		req.offsets[0] = 0;
		req.num_lines = 1;
		req.config.flags = GPIO_V2_LINE_FLAG_INPUT;
		strcpy(req.consumer, "ioctl_probe");
		*keep = open_node(t->path, 0);
		if (*keep < 0 || ioctl(*keep, GPIO_V2_GET_LINE_IOCTL, &req))
			return -1;
		return req.fd;
	}
	case H_USB_HUB:
		return open_node(t->path, 0);
	case H_CACHEFILES:
		return open_cachefiles_object(absent, keep);
	case H_TUN: {
		struct ifreq ifr;

		fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
		*absent = fd < 0 && errno == ENOENT;
		if (fd < 0)
			return -1;
		/* a fresh, non-persistent tunN: it goes away with the fd */
		memset(&ifr, 0, sizeof(ifr));
		ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
		if (ioctl(fd, TUNSETIFF, &ifr)) {
			close(fd);
			return -1;
		}
		return fd;
	}
	}
	errno = EINVAL;
	return -1;
}

static void row(const struct target *t, const char *check, const char *command,
		const char *name, const char *result)
{
	printf("probe\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", t->name, t->kind,
	       t->path[0] ? t->path : "-", t->dev, t->subsystem, t->driver, check,
	       command, name, abi, result);
	fflush(stdout);
}

struct command {
	enum check check;
	const char *name;
	unsigned int cmd;
	void (*prep)(void *arg);
};

/* The commands a target gets, in order; their number. */
static int commands_for(const struct target *t, struct command *out)
{
	const struct rule *r = t->rule;
	int n = 0;

	out[n++] = (struct command){ C_FOREIGN, "FOREIGN_E1_FE", CMD_FOREIGN, NULL };
	if (r && r->own_name)
		out[n++] = (struct command){ C_OWN, r->own_name, r->own, NULL };
	else
		out[n++] = (struct command){ C_UNLIKELY, "UNLIKELY_D6_FD", CMD_UNLIKELY, NULL };
	if (r && r->smoke_name)
		out[n++] = (struct command){ C_SMOKE, r->smoke_name, r->smoke, r->prep };
	else
		out[n++] = (struct command){ C_SMOKE, "FIGETBSZ", FIGETBSZ, NULL };
	return n;
}

static void run_command(const struct target *t, int fd, const struct command *c,
			const char *check, void (*prep)(void *arg), char *arg);

/*
 * The child's work: open, then every command, one row each; a target with
 * a setup step gets its unknown commands before the step too (presetup).
 */
static void probe_target(const struct target *t)
{
	static char arg[ARG_BYTES] __attribute__((aligned(64)));
	struct command cmds[4];
	int fd, keep, absent, err, i, n;

	arm();
	fd = open_target(t, &absent, &keep);
	err = errno;
	if (disarm() && fd < 0) {
		row(t, "open", "-", "-", "TIMEOUT");
		return;
	}
	if (fd < 0) {
		row(t, "open", "-", "-", absent ? "absent" : errno_name(err));
		return;
	}
	row(t, "open", "-", "-", "0");
	(*progress)++;
	n = commands_for(t, cmds);
	if (t->setup) {
		const struct setup_step *s = t->setup;
		long ret = 0;

		/* the unknown commands as the fresh target answers them */
		for (i = 0; i < n; i++)
			if (cmds[i].check != C_SMOKE)
				run_command(t, fd, &cmds[i], "presetup", NULL, arg);
		if (s->run) {
			arm();
			ret = s->run(fd);
			err = errno;
			if (disarm() && ret < 0 && err == EINTR)
				err = ETIME;
		}
		row(t, "setup", "-", s->name,
		    ret < 0 ? (err == ETIME ? "TIMEOUT" : errno_name(err)) : "0");
		(*progress)++;
		if (ret < 0)
			goto out;
	}
	for (i = 0; i < n; i++)
		run_command(t, fd, &cmds[i], check_names[cmds[i].check],
			    cmds[i].check != C_SMOKE && t->setup ? t->setup->prep : cmds[i].prep,
			    arg);
	if (t->rule && (t->rule->flags & R_MAGIC_CLOSE) && write(fd, "V", 1) != 1)
		fprintf(stderr, "ioctl_probe: %s: magic close failed\n", t->name);
out:
	close(fd);
	if (keep >= 0)
		close(keep);
}

/* One command on an open target, one row. */
static void run_command(const struct target *t, int fd, const struct command *c,
			const char *check, void (*prep)(void *arg), char *arg)
{
	char hex[16];
	long ret;
	int err;

	{
		memset(arg, 0, ARG_BYTES);
		if (prep)
			prep(arg);
		arm();
		if (t->how == H_USB_HUB) {
			/* the hub driver's ioctl, through interface 0 */
			struct usbdevfs_ioctl ctl = { .ifno = 0, .ioctl_code = c->cmd,
						      .data = arg };

			ret = ioctl(fd, USBDEVFS_IOCTL, &ctl);
		} else {
			ret = ioctl(fd, c->cmd, arg);
		}
		err = errno;
		snprintf(hex, sizeof(hex), "0x%08x", c->cmd);
		if (disarm() && ret < 0 && err == EINTR)
			row(t, check, hex, c->name, "TIMEOUT");
		else
			row(t, check, hex, c->name, ret < 0 ? errno_name(err) : "0");
		(*progress)++;
	}
}

/*
 * Waits for the child; its status, or -1 once it has made no progress for
 * idle_s seconds.  The clock is alarm(), not nanosleep(): a 32-bit glibc
 * program's nanosleep() fails with ENOSYS on a kernel without
 * CONFIG_COMPAT_32BIT_TIME (tinyconfig), and alarm() interrupts a waitpid()
 * that would otherwise wait for a stuck child forever.
 */
static int wait_for(pid_t pid, unsigned int idle_s)
{
	unsigned int idle = 0, seen = *progress;
	int status;

	for (;;) {
		pid_t got;

		alarm(1);
		got = waitpid(pid, &status, 0);
		alarm(0);
		if (got == pid)
			return status;
		if (got < 0 && errno != EINTR)
			return -1;
		if (*progress != seen) {
			seen = *progress;
			idle = 0;
		} else if (++idle > idle_s) {
			return -1;
		}
	}
}

/* Where an overrunning child is stuck, for the log: /proc's wchan and syscall. */
static void report_stuck(const struct target *t, pid_t pid)
{
	static const char * const files[] = { "wchan", "syscall" };
	char path[64], what[128];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, files[i]);
		f = fopen(path, "r");
		what[0] = '\0';
		if (f) {
			if (!fgets(what, sizeof(what), f))
				what[0] = '\0';
			fclose(f);
		}
		what[strcspn(what, "\n")] = '\0';
		printf("# ioctl_probe: %s: overran; %s: %s\n", t->name, files[i],
		       what[0] ? what : "?");
	}
}

static void run_target(struct target *t)
{
	char made[PATH_MAX], result[32];
	int status;
	pid_t pid;

	made[0] = '\0';
	if (t->how == H_NODE || t->from[0]) {
		int err = node_path(t, !strcmp(t->kind, "block"), made, sizeof(made));

		if (err) {
			row(t, "open", "-", "-", errno_name(-err));
			return;
		}
	}
	fflush(stdout);
	*progress = 0;
	pid = fork();
	if (pid < 0)
		fail("fork");
	if (pid == 0) {
		probe_target(t);
		_exit(0);
	}
	/* each step (open, a command) runs under its own alarm: twice that */
	status = wait_for(pid, 2 * timeout_s + 2);
	if (status == -1) {
		report_stuck(t, pid);
		kill(pid, SIGKILL);
		if (wait_for(pid, 5) == -1)
			fprintf(stderr, "ioctl_probe: %s: the child does not die\n", t->name);
		row(t, "exit", "-", "-", "TIMEOUT");
	} else if (WIFSIGNALED(status)) {
		snprintf(result, sizeof(result), "SIGNAL%d", WTERMSIG(status));
		row(t, "exit", "-", "-", result);
	}
	if (made[0])
		unlink(made);
}

static void list_rules(void)
{
	size_t i;

	printf("# pattern\tsubsystem\town\town_name\tsmoke\tsmoke_name\tflags\n");
	for (i = 0; i < ARRAY_SIZE(rules); i++) {
		const struct rule *r = &rules[i];

		printf("%s\t%s\t0x%08x\t%s\t0x%08x\t%s\t%s%s%s%s\n", r->pattern,
		       r->subsystem ? r->subsystem : "-", r->own, r->own_name ? r->own_name : "-",
		       r->smoke, r->smoke_name ? r->smoke_name : "-",
		       r->flags & R_EXPLICIT ? "explicit" : "-",
		       r->flags & R_MAGIC_CLOSE ? ",magic-close" : "",
		       r->flags & R_BLOCKING_OPEN ? ",blocking-open" : "",
		       r->flags & R_READ_ONLY ? ",read-only" : "");
	}
}

static void usage(void);

/*
 * -j: a joystick through uinput (two axes, a trigger), for joydev, which
 * QEMU has no device for; it lives as long as this process, which the
 * audit's guest-init.sh starts in the background before the probe runs.
 */
static __attribute__((noreturn)) void uinput_joystick(void)
{
	struct uinput_setup setup = { .id = { .bustype = BUS_VIRTUAL } };
	struct uinput_abs_setup abs = { .absinfo = { .minimum = -32767, .maximum = 32767 } };
	int fd = open("/dev/uinput", O_RDWR | O_CLOEXEC);

	strcpy(setup.name, "ioctl_probe joystick");
	if (fd < 0 || ioctl(fd, UI_SET_EVBIT, EV_KEY) || ioctl(fd, UI_SET_KEYBIT, BTN_TRIGGER) ||
	    ioctl(fd, UI_SET_EVBIT, EV_ABS) || ioctl(fd, UI_SET_ABSBIT, ABS_X) ||
	    ioctl(fd, UI_SET_ABSBIT, ABS_Y))
		fail("uinput");
	abs.code = ABS_X;
	if (ioctl(fd, UI_ABS_SETUP, &abs))
		fail("UI_ABS_SETUP");
	abs.code = ABS_Y;
	if (ioctl(fd, UI_ABS_SETUP, &abs) || ioctl(fd, UI_DEV_SETUP, &setup) ||
	    ioctl(fd, UI_DEV_CREATE))
		fail("UI_DEV_CREATE");
	printf("# ioctl_probe: uinput joystick made\n");
	fflush(stdout);
	for (;;)
		pause();
}

/*
 * -f DIR: a USB test and measurement function (class 0xfe, subclass 3,
 * two bulk endpoints) through the FunctionFS instance mounted at DIR, for
 * usbtmc, which no QEMU device reaches: the audit's guest-init.sh puts the
 * instance in a configfs gadget, binds that to dummy_hcd's UDC, and
 * dummy_hcd's host side enumerates it.  FunctionFS keeps the function
 * while ep0 stays open, so this process lives until QEMU exits.  It stalls
 * every class request (usbtmc's probe asks for the capabilities and goes
 * on without them) and moves no data.
 */
struct ffs_tmc_descs {
	struct usb_functionfs_descs_head_v2 header;
	uint32_t fs_count, hs_count;
	struct {
		struct usb_interface_descriptor intf;
		struct usb_endpoint_descriptor_no_audio in, out;
	} __attribute__((packed)) fs, hs;
} __attribute__((packed));

static void ffs_tmc_speed(__typeof__(((struct ffs_tmc_descs *)0)->fs) *d, uint16_t maxpacket)
{
	d->intf.bLength = USB_DT_INTERFACE_SIZE;
	d->intf.bDescriptorType = USB_DT_INTERFACE;
	d->intf.bNumEndpoints = 2;
	d->intf.bInterfaceClass = USB_CLASS_APP_SPEC;
	d->intf.bInterfaceSubClass = 3;	/* USBTMC */
	d->intf.iInterface = 1;
	d->in.bLength = d->out.bLength = USB_DT_ENDPOINT_SIZE;
	d->in.bDescriptorType = d->out.bDescriptorType = USB_DT_ENDPOINT;
	d->in.bEndpointAddress = 1 | USB_DIR_IN;
	d->out.bEndpointAddress = 2 | USB_DIR_OUT;
	d->in.bmAttributes = d->out.bmAttributes = USB_ENDPOINT_XFER_BULK;
	d->in.wMaxPacketSize = d->out.wMaxPacketSize = htole16(maxpacket);
}

static __attribute__((noreturn)) void functionfs_tmc(const char *dir)
{
	static const char name[] = "ioctl_probe usbtmc";
	struct ffs_tmc_descs descs;
	struct {
		struct usb_functionfs_strings_head header;
		uint16_t lang;
		char str[sizeof(name)];
	} __attribute__((packed)) strings;
	struct usb_functionfs_event events[4];
	char path[PATH_MAX];
	int fd;

	memset(&descs, 0, sizeof(descs));
	descs.header.magic = htole32(FUNCTIONFS_DESCRIPTORS_MAGIC_V2);
	descs.header.length = htole32(sizeof(descs));
	descs.header.flags = htole32(FUNCTIONFS_HAS_FS_DESC | FUNCTIONFS_HAS_HS_DESC);
	descs.fs_count = descs.hs_count = htole32(3);
	ffs_tmc_speed(&descs.fs, 64);
	ffs_tmc_speed(&descs.hs, 512);
	strings.header.magic = htole32(FUNCTIONFS_STRINGS_MAGIC);
	strings.header.length = htole32(sizeof(strings));
	strings.header.str_count = htole32(1);
	strings.header.lang_count = htole32(1);
	strings.lang = htole16(0x0409);
	memcpy(strings.str, name, sizeof(name));
	snprintf(path, sizeof(path), "%s/ep0", dir);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		fail(path);
	if (write(fd, &descs, sizeof(descs)) != sizeof(descs))
		fail("FunctionFS descriptors");
	if (write(fd, &strings, sizeof(strings)) != sizeof(strings))
		fail("FunctionFS strings");
	printf("# ioctl_probe: FunctionFS usbtmc function ready\n");
	fflush(stdout);
	for (;;) {
		ssize_t n = read(fd, events, sizeof(events));
		char byte = 0;
		int i;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			fail("FunctionFS events");
		for (i = 0; i < n / (ssize_t)sizeof(events[0]); i++) {
			if (events[i].type != FUNCTIONFS_SETUP)
				continue;
			/* the transfer against the request's direction stalls it */
			if (events[i].u.setup.bRequestType & USB_DIR_IN) {
				if (read(fd, &byte, 1) < 0 && errno != EL2HLT)
					fprintf(stderr, "ioctl_probe: stall: %s\n", strerror(errno));
			} else if (write(fd, &byte, 1) < 0 && errno != EL2HLT) {
				fprintf(stderr, "ioctl_probe: stall: %s\n", strerror(errno));
			}
		}
	}
}

/* -s GLOB=STEP */
static void add_setup(char *text)
{
	char *eq = strrchr(text, '=');
	size_t i;

	if (!eq || eq == text || nsetups == MAX_SETUPS)
		usage();
	*eq = '\0';
	for (i = 0; i < ARRAY_SIZE(setup_steps); i++) {
		if (strcmp(setup_steps[i].name, eq + 1))
			continue;
		setups[nsetups].glob = text;
		setups[nsetups++].step = &setup_steps[i];
		return;
	}
	fprintf(stderr, "ioctl_probe: unknown setup step %s\n", eq + 1);
	exit(2);
}

static void usage(void)
{
	fprintf(stderr, "usage: ioctl_probe [-t SECONDS] [-l] [-s PATTERN=STEP]... [TARGET|PATTERN...]\n"
		"  no argument: every device node, fd kind and default file\n"
		"  PATTERN: fnmatch on target names (/dev/fd*, socket:*, pipe:*)\n"
		"  TARGET: a path, proc:REST, debugfs:REST, securityfs:REST, dir:PATH\n"
		"  -t: seconds per open and per ioctl (default 5); -l: the magic table\n"
		"  -s: the setup step (ppclaim, uffdio_api, hmm_range) for the targets\n"
		"      PATTERN matches, run after their unknown commands' presetup rows\n"
		"  -j: make a joystick through /dev/uinput and wait (for joydev)\n"
		"  -f DIR: offer a USB TMC function through the FunctionFS at DIR and wait\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	int opt, i;

	while ((opt = getopt(argc, argv, "t:ls:jf:h")) != -1) {
		switch (opt) {
		case 'j':
			uinput_joystick();
		case 'f':
			functionfs_tmc(optarg);
		case 's':
			add_setup(optarg);
			break;
		case 't':
			timeout_s = strtoul(optarg, NULL, 10);
			if (!timeout_s || timeout_s > 600)
				usage();
			break;
		case 'l':
			list_rules();
			return 0;
		default:
			usage();
		}
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART: the call returns EINTR */
	if (sigaction(SIGALRM, &sa, NULL))
		fail("sigaction");
	signal(SIGPIPE, SIG_IGN);
	progress = mmap(NULL, sizeof(*progress), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (progress == MAP_FAILED)
		fail("mmap");
	abi = detect_abi();
	collect_targets(argv + optind, argc - optind);
	printf("# ioctl_probe: abi=%s targets=%d timeout=%us\n", abi, ntargets, timeout_s);
	printf("# probe\ttarget\tkind\tnode\tdev\tsubsystem\tdriver\tcheck\tcommand\tname\tabi\tresult\n");
	for (i = 0; i < ntargets; i++)
		run_target(&targets[i]);
	if (scratch[0])
		rmdir(scratch);
	printf("# ioctl_probe: done abi=%s\n", abi);
	return 0;
}
