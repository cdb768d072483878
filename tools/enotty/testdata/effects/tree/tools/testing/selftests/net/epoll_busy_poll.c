// SPDX-License-Identifier: GPL-2.0-or-later
#include <sys/epoll.h>

TEST_F(epoll_busy_poll, test_invalid_ioctl)
{
	int invalid_ioctl = EPIOCGPARAMS + 10;
	int ret;

	ret = ioctl(self->fd, invalid_ioctl, &self->params);

	EXPECT_EQ(-1, ret)
		TH_LOG("invalid ioctl should return error");

	EXPECT_EQ(EINVAL, errno)
		TH_LOG("Expected ioctl to set errno to EINVAL");
}

TEST_F(epoll_busy_poll, test_set_invalid)
{
	self->params.busy_poll_budget = 0xffff;
	ret = ioctl(self->fd, EPIOCSPARAMS, &self->params);
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(errno, EINVAL);
}
