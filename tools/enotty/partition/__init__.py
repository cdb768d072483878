"""The partition stage: sites grouped into series per MAINTAINERS section
and into patches per driver (split, maintainers), subject prefixes from
the driver's history (prefixes), and documentation hunks (doc_updates).
"""
