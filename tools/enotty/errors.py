"""The one exception type the command line turns into a one-line error."""


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit status 2."""
