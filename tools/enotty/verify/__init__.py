"""The verify stage: every patch applied, checkpatch.pl and get_maintainer.pl
run, and each touched file compiled on x86_64 allmodconfig or on a cross
target that builds it (verify, crossbuild).
"""
