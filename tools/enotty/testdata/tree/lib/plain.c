// SPDX-License-Identifier: GPL-2.0
/* Fixture: no ops member named here, so the prefilter never hands it to spatch. */
int plain_check(int x)
{
	switch (x) {
	case 1:
		return 0;
	default:
		return -EINVAL;
	}
}
