"""The kernel tree the stages read and build: the default tree unpacked into
the cache (tree), hard-link work trees (worktree), Kconfig dependencies
(kconfig), the guest's initramfs (initramfs) and its TAP output (tap).
"""
