"""The write stage, publish.write(): the mails with their cover letters,
SUMMARY.md and the tables (publish), the output folder written beside its
destination and renamed into place (output); series mailed with git
send-email (mailout).
"""
