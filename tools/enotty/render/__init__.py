"""The render stage, drafts.compose(): commit messages (messages, cleanup),
series with their cover letters (series), and the rule and kselftest
patches sent with them (companions).
"""
