/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/* excerpt of include/uapi/linux/sonet.h (6.12): the ioctl commands */
#define SONET_GETSTAT	_IOR('a',ATMIOC_PHYTYP,struct sonet_stats)
#define SONET_GETSTATZ	_IOR('a',ATMIOC_PHYTYP+1,struct sonet_stats)
#define SONET_SETDIAG	_IOWR('a',ATMIOC_PHYTYP+2,int)
#define SONET_CLRDIAG	_IOWR('a',ATMIOC_PHYTYP+3,int)
#define SONET_GETDIAG	_IOR('a',ATMIOC_PHYTYP+4,int)
#define SONET_SETFRAMING _IOW('a',ATMIOC_PHYTYP+5,int)
#define SONET_GETFRAMING _IOR('a',ATMIOC_PHYTYP+6,int)
#define SONET_GETFRSENSE _IOR('a',ATMIOC_PHYTYP+7, int)
