"""The exception types the command line turns into one-line errors."""


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit status 2."""


class ToolError(Exception):
    """A program the pipeline runs failed (a kernel script, git, make):
    printed as one line naming it, exit status 1."""
