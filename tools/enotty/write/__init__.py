"""The write stage, publish.write(): what the earlier stages decided,
serialised: the mails as the verify stage left them, SUMMARY.md and the
tables (publish), the output folder written beside its destination and
renamed into place (output); series mailed with git send-email (mailout).
"""
