// excerpt in the shape of 7.2.13's tools/testing/selftests/hid/hidraw.c
TEST_F(hidraw, ioctl_invalid_type)
{
	char buf[256] = {0};
	unsigned int bad_cmd;
	int err;

	bad_cmd = _IOC(_IOC_WRITE|_IOC_READ, 'I', 0x01, sizeof(buf));
	err = ioctl(self->hidraw_fd, bad_cmd, buf);
	ASSERT_LT(err, 0);
	ASSERT_EQ(errno, EINVAL);
}
