import errno
import os


class UsageError(Exception):
    """Bad usage or bad input. The CLI prints it as one line and exits 2; nothing is written."""


class ReportError(UsageError):
    """A family's report module is broken: one line naming it, instead of a section left silently
    empty."""
# A write the filesystem refused: full, over quota, read-only, not ours, or failing. The CLI prints
# one line and exits with DISK_EXIT; a run keeps what it had written and says why it stopped.
DISK_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM, errno.EIO}
DISK_EXIT = 3


def is_disk_error(e: BaseException) -> bool:
    return isinstance(e, OSError) and e.errno in DISK_ERRNOS


def disk_error_line(e: OSError) -> str:
    """'cannot write results/runs/x/results.csv: No space left on device (ENOSPC)'."""
    where = f" {e.filename}" if e.filename else ""
    return f"cannot write{where}: {os.strerror(e.errno)} ({errno.errorcode.get(e.errno, e.errno)})"
