"""The write stage: the output folder written beside its destination and
renamed into place (output); series mailed with git send-email (mailout).
"""
