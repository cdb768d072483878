/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
#define FDCLRPRM _IO(2, 0x41)
#define FDSETPRM _IOW(2, 0x42, struct floppy_struct)
#define	FDMSGON  _IO(2,0x45)
#define FDRESET _IO(2, 0x54)
#define FDTWADDLE _IO(2, 0x59)
#define FDEJECT _IO(2, 0x5a)
