"""What the history store's database said, turned into the command's own errors (one line each):

- the disk refused the write (SQLite: full, read-only, I/O error) -> an OSError naming the store file,
  which the command reports as a disk error (exit 3), as for every other file it writes;
- the file is not a SQLite database, or a damaged one (cut short, overwritten) -> StoreDamaged
  (exit 2), saying how to rebuild it from the run directories;
- a stored run id that names another run -> RunIdClash (exit 2): the new run is not stored under it;
- anything else the database refused -> UsageError, its first line."""
import errno
import os

from ..errors import UsageError


class StoreDamaged(UsageError):
    """The store cannot be read as one."""


class RunIdClash(UsageError):
    """A run's id is stored already, for a different run."""


def _sqlite_code(error) -> int | None:
    return getattr(error, "sqlite_errorcode", None)


def _first_line(error) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


def translated(error: Exception, where: str) -> Exception:
    """The exception to raise instead of `error`, a sqlite3.Error or psycopg2.Error from the store at
    `where` (a file, or a URL without its password)."""
    import sqlite3

    code = _sqlite_code(error)
    disk = {sqlite3.SQLITE_FULL: errno.ENOSPC, sqlite3.SQLITE_READONLY: errno.EROFS, sqlite3.SQLITE_IOERR: errno.EIO,
            sqlite3.SQLITE_PERM: errno.EACCES}
    if code is not None and code & 0xFF in disk:  # extended codes keep the primary one in their low byte
        number = disk[code & 0xFF]
        return OSError(number, os.strerror(number), where)
    if code is not None and code & 0xFF in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
        return StoreDamaged(f"--store {where}: not a readable SQLite store ({_first_line(error)}); move it aside and "
                            "rebuild it from the run directories (stallbench store import DIR)")
    return UsageError(f"the history store {where} refused: {_first_line(error)}")


def damaged_meta(where: str, run_id: str, error: Exception) -> StoreDamaged:
    return StoreDamaged(f"--store {where}: run {run_id}'s stored meta.json is damaged ({error}); move the store "
                        "aside and rebuild it from the run directories (stallbench store import DIR)")
