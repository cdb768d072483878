"""The verify stage, checks.check(): every mail the render stage formatted
through checkpatch.pl, each touched file compiled on x86_64 allmodconfig or
on a cross target that builds it (crossbuild; the builds themselves
are enotty.kernel.build.check_objects), the fixpoint; then the series as
they go out, covered, and the companion patches checked
(outgoing).  The stage's result types: verdicts.
"""
