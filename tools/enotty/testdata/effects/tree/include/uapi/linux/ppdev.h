/* SPDX-License-Identifier: GPL-2.0+ WITH Linux-syscall-note */
#define PP_IOCTL	'p'
#define PPCLAIM		_IO(PP_IOCTL, 0x8b)
#define PPEXCL		_IO(PP_IOCTL, 0x8f)
#define PPRSTATUS	_IOR(PP_IOCTL, 0x81, unsigned char)
#define PPGETTIME	_IOR(PP_IOCTL, 0x95, struct timeval)
#define PPGETMODES	_IOR(PP_IOCTL, 0x97, unsigned int)
