"""enotty: find and fix ioctl handlers that answer unknown commands with EINVAL."""
