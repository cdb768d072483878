/* Fixture: headers are not scanned (see scan.prefilter). */
static inline long hdr_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return -EINVAL;
}
