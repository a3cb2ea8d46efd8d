"""SIGINT and SIGTERM stop every command the same way: raised as Interrupted in the main thread,
wherever it waits (a build's output, a cell, node, a browser, a lock), so every `finally` and
`except` on the way out runs — killing the children it started (children.py), removing what it
half made (a worktree, a partial file) — and the command ends with 128 + the signal's number:
130 for SIGINT, 143 for SIGTERM.

Installed for the whole command (cli.main), whatever the command inherited: a command started in
the background by a script inherits SIGINT ignored, which Python leaves ignored, and SIGTERM's
default ends the process with no cleanup at all. Only the first stop signal raises: a second one
landing in the cleanup it started would cut that cleanup short (SIGKILL still ends everything:
the watchdog takes the children down)."""
import contextlib
import signal

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
STOP_EXITS = tuple(128 + s for s in STOP_SIGNALS)  # 130, 143: the exit codes of a stopped command


class Interrupted(KeyboardInterrupt):
    """A KeyboardInterrupt, so `except Exception` on the way out does not swallow it."""

    def __init__(self, signum: int = signal.SIGINT):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def signal_name(stop: KeyboardInterrupt) -> str:
    return signal.Signals(getattr(stop, "signum", signal.SIGINT)).name


def exit_code(stop: KeyboardInterrupt) -> int:
    return 128 + getattr(stop, "signum", signal.SIGINT)


_stopping = False  # a stop signal was raised and the command is on its way out


def _noted(_signum, _frame) -> None:
    """A stop signal after the first: the command is already on its way out."""


def _raise(signum, _frame) -> None:
    global _stopping
    _stopping = True
    for s in STOP_SIGNALS:
        signal.signal(s, _noted)
    raise Interrupted(signum)


def stopping() -> bool:
    """Whether the command is on its way out after a stop signal: whatever it still waits for (a
    program's grace to exit) is cut short."""
    return _stopping


def rearm() -> None:
    """For a caller that took a stop signal as the normal end of a wait (Ctrl-C ends the doctor's
    watch) and goes on: the next stop signal raises again, as the first did."""
    global _stopping
    _stopping = False
    if signal.getsignal(signal.SIGINT) is _noted:
        for s in STOP_SIGNALS:
            signal.signal(s, _raise)


@contextlib.contextmanager
def raised():
    """From the main thread, around everything the command does that must be undone; the signals'
    earlier handlers come back at the end (cli.main also runs inside pytest)."""
    global _stopping
    previous = {s: signal.signal(s, _raise) for s in STOP_SIGNALS}
    try:
        yield
    finally:
        _stopping = False
        for s, handler in previous.items():
            signal.signal(s, handler)
