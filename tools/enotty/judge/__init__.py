"""The judge stage: what each site changes for user space (effects), which
handlers convert whole or stay out (handlers), and the tests that read the
old answer (selftest_search).
"""
