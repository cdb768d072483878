// excerpt in the shape of 6.12.118's tools/testing/selftests/hid/hidraw.c
TEST_F(hidraw, ioctl_rdescsize)
{
	int desc_size = 0;
	int err;

	err = ioctl(self->hidraw_fd, HIDIOCGRDESCSIZE, &desc_size);
	ASSERT_EQ(err, 0);
}
