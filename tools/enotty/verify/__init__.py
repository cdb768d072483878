"""The verify stage, checks.check(): every patch applied, get_maintainer.pl
and checkpatch.pl run, each touched file compiled on x86_64 allmodconfig or
on a cross target that builds it (verify, crossbuild), and the companion
patches checked (checks).
"""
