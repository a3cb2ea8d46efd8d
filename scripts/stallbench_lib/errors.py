class UsageError(Exception):
    """Bad usage or bad input. The CLI prints it as one line and exits 2; nothing is written."""


class ReportError(UsageError):
    """A family's report module is broken: one line naming it, instead of a section left silently
    empty."""
