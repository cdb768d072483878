// SPDX-License-Identifier: GPL-2.0
#include <linux/rtc.h>

static char *rtc_file = "/dev/rtc0";

TEST_F(rtc, uie_read) {
	int rc;

	/* Turn on update interrupts */
	rc = ioctl(self->fd, RTC_UIE_ON, 0);
	if (rc == -1) {
		ASSERT_EQ(EINVAL, errno);
		TH_LOG("skip update IRQs not supported.");
		return;
	}
}

TEST_F(rtc, bad_time) {
	rc = ioctl(self->fd, RTC_SET_TIME, &bad);
	ASSERT_EQ(EINVAL, errno);
}

TEST_F(rtc, from_table) {
	rc = ioctl(self->fd, cases[i].cmd, 0);
	if (rc == -1)
		ASSERT_EQ(EINVAL, errno);
}
