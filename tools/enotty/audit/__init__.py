"""`make audit`: the host side of the before/after audit in QEMU.

Per guest architecture (guests: x86_64, s390x, ppc, arm) one audit kernel
(enotty.kernel) is configured for the drivers the committed series touch
(kernel_config), booted pristine and with the series applied (run); the
guest (selftests/audit/guest-init.sh, or guest-init.c without busybox)
runs the ioctl probe (selftests/ioctl_probe, read by probe_output) and the
in-tree kselftests (kselftests, kselftest_tap) and frames what they print
(bootlog).  compare turns the boots into audit.tsv and AUDIT.md.
The guest's files and the tables (instantiate.tsv, exceptions.tsv,
kselftests.tsv, the config fragment, the ACPI tables, the mutant
patches) stay in selftests/audit/ (DATA).  single_series runs the audit
on one committed series, for the end-to-end tests.
"""
from pathlib import Path

DATA = Path(__file__).resolve().parents[3] / "selftests" / "audit"
PROBE_DIR = DATA.parent / "ioctl_probe"     # the probe's C source and Makefile
