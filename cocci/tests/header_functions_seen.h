/* SPDX-License-Identifier: GPL-2.0 */
/* A local header with a function: spatch reads it for the .c file. */
static inline int zzz_hdr_ready(struct hdr_dev *dev)
{
	return dev->ready;
}
