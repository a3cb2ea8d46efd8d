class UsageError(Exception):
    """Bad usage or bad input. The CLI prints it as one line and exits 2; nothing is written."""
