"""The partition stage, grouping.group(): the kept hunks grouped into series
per MAINTAINERS section and into patches per driver (split, maintainers),
subject prefixes and the base commit from the tree's history (prefixes),
and documentation hunks (doc_updates).
"""
