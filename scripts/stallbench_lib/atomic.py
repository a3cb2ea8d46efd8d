"""Files appear whole or not at all: written under a temporary name in the same directory, flushed,
then renamed over the target, so a reader (or a run killed mid-write) never sees half a file.
They get the mode any new file gets here (0666 less the umask), not mkstemp's private 0600."""
import contextlib
import os
import re
import tempfile
from pathlib import Path


def _umask() -> int:
    """Read without changing it (os.umask sets while it reads, which races with other threads)."""
    try:
        found = re.search(r"^Umask:\s*([0-7]+)$", Path("/proc/self/status").read_text(), re.M)
        if found:
            return int(found.group(1), 8)
    except OSError:
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


FILE_MODE = 0o666 & ~_umask()


def atomic_write(path: Path, data: str | bytes) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = "wb" if isinstance(data, bytes) else "w"
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, FILE_MODE)
        with os.fdopen(fd, mode, encoding=None if isinstance(data, bytes) else "utf-8") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException as e:
        if os.path.exists(tmp):
            os.unlink(tmp)
        _raise_naming(e, path)


def append_synced(path: Path, text: str) -> None:
    """Appends whole lines to an existing file in one write, then syncs: a process killed at any
    moment leaves the file with or without them (a signal does not cut a write to a regular file
    short). A write the disk refuses part-way is cut back to the old end before the error goes on
    (the caller then rewrites the file whole). Unlike atomic_write, a reader that reads while the
    write is under way may see part of it."""
    data = text.encode("utf-8")
    with open(path, "ab") as out:
        end = out.tell()
        try:
            view = memoryview(data)
            while view:  # a regular file's write is short only when the disk fills; the rest raises then
                view = view[os.write(out.fileno(), view):]
            os.fsync(out.fileno())
        except BaseException as e:
            with contextlib.suppress(OSError):
                os.truncate(out.fileno(), end)
            _raise_naming(e, path)


def _raise_naming(e: BaseException, path: Path):
    """Raises `e` again; a failed write names no file, so an OSError without one names `path`."""
    if isinstance(e, OSError) and e.filename is None:
        raise OSError(e.errno, e.strerror, str(path)) from None
    raise e
