"""The render stage, drafts.compose(): commit messages (messages, cleanup),
the rule and kselftest patches sent with them (companions), each series
applied and formatted in memory (series), every mail addressed as
get_maintainer.pl says (recipients); composed once and handed to the
verify stage.
"""
