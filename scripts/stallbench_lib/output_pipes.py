"""A command whose reader goes away (`stallbench run ... 2>&1 | head -1`) goes on with its work and
stops printing, instead of ending half-way with exit 0: its stdout and stderr are put behind writers
that, when a write fails with EPIPE, point the descriptor at /dev/null (so children started later
write there too) and note when; a run's meta.json says so (`output_lost`). The results are the point
of a run, and a pipe reader's leaving says nothing about them."""
import contextlib
import io
import os
import sys
import time

_lost: dict[str, str] = {}  # stream name -> when its reader left (UTC, ISO)


class _PipeWriter(io.RawIOBase):
    def __init__(self, fd: int, name: str):
        super().__init__()
        self.fd, self.name = fd, name

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return os.isatty(self.fd)

    def write(self, data) -> int:
        if self.name in _lost:
            return len(data)
        try:
            return os.write(self.fd, data)
        except BrokenPipeError:
            _lost[self.name] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, self.fd)
            os.close(null)
            return len(data)


def _wrapped(stream, name: str):
    """`stream` behind a _PipeWriter, or None when it has no descriptor of its own (captured by a test)."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None
    stream.flush()
    raw = _PipeWriter(fd, name)
    # Buffered as the stream was (Python's stderr, and stdout under PYTHONUNBUFFERED, are not): the
    # order of lines between stdout and stderr stays what it was.
    unbuffered = name == "stderr" or isinstance(getattr(stream, "buffer", None), io.RawIOBase)
    return io.TextIOWrapper(raw if unbuffered else io.BufferedWriter(raw), encoding=stream.encoding,
                            errors=stream.errors, line_buffering=getattr(stream, "line_buffering", False),
                            write_through=unbuffered)


@contextlib.contextmanager
def surviving_readers():
    """Around a command (cli.main): sys.stdout and sys.stderr outlive their readers."""
    previous = sys.stdout, sys.stderr
    out, err = _wrapped(sys.stdout, "stdout"), _wrapped(sys.stderr, "stderr")
    sys.stdout, sys.stderr = out or sys.stdout, err or sys.stderr
    try:
        yield
    finally:
        for stream in (out, err):
            if stream is not None:
                with contextlib.suppress(OSError, ValueError):
                    stream.flush()
        sys.stdout, sys.stderr = previous


def lost() -> dict[str, str]:
    """Which of stdout and stderr lost their reader, and when."""
    return dict(_lost)
