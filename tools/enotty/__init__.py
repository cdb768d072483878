"""enotty: find and fix ioctl handlers that answer unknown commands with EINVAL.

`python3 -m enotty COMMAND` (cli.py) is the one entry point.  `make patches`
is patches.command(): one stage per subpackage, in the order their names sort:

  find/       run the rule over the tree: the sites, phase 1's cross-file facts
  judge/      what each site changes, and which handlers convert whole
  partition/  split per MAINTAINERS section and driver, subject prefixes
  render/     commit messages, series, cover letters, the companion patches
  verify/     apply, checkpatch, compile-test on x86_64 or a cross target
  write/      the output folder, renamed into place; mailout

kernel/ is the kernel tree the stages read and build (unpack, work trees,
Kconfig, initramfs, TAP); measure/ holds the commands that measure the rule
and the output beside the pipeline (census, bench, coccicheck, verify-generated).
"""
