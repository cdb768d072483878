"""The find stage: the assembled rule (rules), spatch over the tree (scan),
phase 1's whole-tree facts (facts), the C text reader (csource) and the
site records every later stage reads (sites).
"""
