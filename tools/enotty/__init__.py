"""enotty: find and fix ioctl handlers that answer unknown commands with EINVAL.

`python3 -m enotty COMMAND` (cli.py) is the one entry point.  `make patches`
is patches.command(): one call per stage, each stage's code in its
subpackage, in the order their names sort (the stage's entry in brackets):

  find/       run the rule over the tree: the sites, phase 1's cross-file
              facts (scan.scan; console.scan_listener tells its user)
  judge/      what each site changes, which sites are left out, which
              handlers convert whole (analysis.analyse)
  partition/  split per MAINTAINERS section and driver, subject prefixes
              (grouping.group)
  render/     commit messages, the companion patches, each series applied
              and formatted as mails in memory, every mail addressed
              (recipients: get_maintainer), composed once (drafts.compose)
  verify/     checkpatch, compile-test on x86_64 or a cross target, the
              fixpoint; then the series as they go out, covered, the
              companions checked (checks.check)
  write/      OUT's files serialised from the stages' results: the mails,
              SUMMARY.md and the tables, failed.tsv; the output folder
              renamed into place (publish.write); mailout

kernel/ is the kernel tree the stages read and build (unpack, work trees,
Kconfig, initramfs, TAP); measure/ holds the commands that measure the rule
and the output beside the pipeline (census, bench, coccicheck, verify-generated).
"""
