"""The terminal lent to a child for as long as it runs, as a shell lends it to a job: the installer, so
that sudo can ask for the password when the command is not root. sudo reads it from the controlling
terminal, and only its foreground process group may read there: a child in a session of its own has no
terminal ("a terminal is required to read the password"), and one in a background group is stopped by
the kernel when it tries. A terminal's Ctrl-C then goes to the child's group alone, which stops safely
by itself (scripts/bootstrap), and the command learns of it from the child's exit status."""
import contextlib
import ctypes
import os
import signal

_LIBC = ctypes.CDLL(None, use_errno=True)
_LIBC.signal.restype = ctypes.c_void_p
_LIBC.signal.argtypes = (ctypes.c_int, ctypes.c_void_p)
_SIG_IGN = ctypes.c_void_p(1)


def held_terminal() -> int | None:
    """An open descriptor of the controlling terminal when this process's group is its foreground;
    otherwise None (no terminal, or one held by another job: nothing to lend)."""
    try:
        fd = os.open("/dev/tty", os.O_RDWR)
    except OSError:
        return None
    try:
        if os.tcgetpgrp(fd) == os.getpgrp():
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def _give(fd: int, group: int) -> None:
    # A process outside the foreground that sets it is sent SIGTTOU (and stopped) unless it blocks it.
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTTOU})
    try:
        os.tcsetpgrp(fd, group)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def take_in_child(fd: int) -> None:
    """In the child, before exec: a process group of its own, made the terminal's foreground. Done here
    rather than by the parent after the fork, so the child never runs a moment in the background.
    The terminal's Ctrl-Z and Ctrl-\\ are ignored from here on (what is ignored stays ignored through
    exec): a child suspended while it holds the terminal would leave the user a terminal that answers
    nothing, since their shell waits on this command, which is not suspended; a Ctrl-C stops it."""
    os.setpgid(0, 0)
    _give(fd, os.getpgrp())
    for ignored in (signal.SIGTSTP, signal.SIGQUIT):
        _LIBC.signal(ignored, _SIG_IGN)  # signal.signal() refuses outside the main thread


@contextlib.contextmanager
def returned_to_us(fd: int):
    """However the block ends, the terminal's foreground is this process's group again, and fd closed."""
    try:
        yield
    finally:
        try:
            _give(fd, os.getpgrp())
        except OSError:
            pass  # the terminal went away (a closed ssh session): nothing to return
        os.close(fd)
