// default: err = -EINVAL; in a proto_ops handler: the core tries the next
// handler on -ENOIOCTLCMD.
static int x_sock_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg)
{
	int err = 0;

	switch (cmd) {
	case 1:
		err = do_one(sock);
		break;
	default:
		err = -EINVAL;
		break;
	}
	return err;
}

static const struct proto_ops x_ops = {
	.ioctl = x_sock_ioctl,
};
