import contextlib
import errno
import os
import stat


class UsageError(Exception):
    """Bad usage or bad input. The CLI prints it as one line and exits 2; nothing is written."""


class ReportError(UsageError):
    """A family's report module is broken: one line naming it, instead of a section left silently
    empty."""
# A write the filesystem refused: full, over quota, read-only, not ours, or failing. The CLI prints
# one line and exits with DISK_EXIT; a run keeps what it had written and says why it stopped.
DISK_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM, errno.EIO}
DISK_EXIT = 3
# A path no file can be made at: a component that is a file, a name over the filesystem's limit, a
# loop of links. Bad input (exit 2), named with the path.
PATH_ERRNOS = {errno.ENOTDIR, errno.ENAMETOOLONG, errno.ELOOP, errno.EISDIR}
INTERNAL_EXIT = 70  # a failure no check foresaw (sysexits.h's EX_SOFTWARE): a bug to report


def is_disk_error(e: BaseException) -> bool:
    return isinstance(e, OSError) and e.errno in DISK_ERRNOS


def disk_error_line(e: OSError) -> str:
    """'cannot write results/runs/x/results.csv: No space left on device (ENOSPC)'."""
    where = f" {e.filename}" if e.filename else ""
    return f"cannot write{where}: {os.strerror(e.errno)} ({errno.errorcode.get(e.errno, e.errno)})"


def file_kind(mode: int) -> str:
    """What a file that is not a regular one is, from its st_mode: 'a FIFO', 'a directory', ..."""
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "a regular file" if stat.S_ISREG(mode) else "not a regular file"


def why_not_a_file(path) -> str:
    """What a path that is not a regular file is instead: 'no such file', or 'a FIFO (named pipe), not a
    regular file' (a FIFO, a directory or a device read as a document would hang or fail later)."""
    try:
        return f"{file_kind(os.stat(path).st_mode)}, not a regular file"
    except OSError:
        return "no such file"


def is_path_error(e: BaseException) -> bool:
    return isinstance(e, OSError) and e.errno in PATH_ERRNOS


def path_error_line(e: OSError) -> str:
    """'results/x/y: Not a directory (ENOTDIR): a file cannot be made there (give another path)'."""
    where = f"{e.filename}: " if e.filename else ""
    return (f"{where}{os.strerror(e.errno)} ({errno.errorcode.get(e.errno, e.errno)}): nothing can be written or "
            "read there (give another path)")


@contextlib.contextmanager
def naming(path):
    """An OSError raised inside that names no file (a write to an open file: ENOSPC) names `path`, so
    its one line says which file the disk refused."""
    try:
        yield
    except OSError as e:
        if e.filename is None:
            raise OSError(e.errno, e.strerror, str(path)) from None
        raise
