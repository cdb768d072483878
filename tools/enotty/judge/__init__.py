"""The judge stage, analysis.analyse(): what each site changes for user
space (effects), the tests that read the old answer (selftest_search), the
files no configuration compiles (kernel.kconfig.Unbuildable), and which
handlers convert whole or stay out (handlers, with the user-space readers
of consumers.tsv that hold on the tree being patched: consumers).
"""
