// SPDX-License-Identifier: GPL-2.0
#include <net/genetlink.h>

static int foo_nl_cmd_doit(struct sk_buff *skb, struct genl_info *info)
{
	u8 cmd = info->genlhdr->cmd;

	switch (cmd) {
	case FOO_CMD_GET:
		return foo_nl_get(skb, info);
	default:
		return -EINVAL;
	}
}

static const struct genl_small_ops foo_nl_ops[] = {
	{
		.cmd	= FOO_CMD_GET,
		.doit	= foo_nl_cmd_doit,
	},
};
