"""The render stage, drafts.compose(): commit messages (messages, cleanup),
series formatted in memory (series), and the rule and kselftest patches
sent with them (companions), composed once and handed to the verify stage.
"""
