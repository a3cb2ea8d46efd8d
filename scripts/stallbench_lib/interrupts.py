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


class Interrupted(KeyboardInterrupt):
    """A KeyboardInterrupt, so `except Exception` on the way out does not swallow it."""

    def __init__(self, signum: int = signal.SIGINT):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def signal_name(stop: KeyboardInterrupt) -> str:
    return signal.Signals(getattr(stop, "signum", signal.SIGINT)).name


def exit_code(stop: KeyboardInterrupt) -> int:
    return 128 + getattr(stop, "signum", signal.SIGINT)


def _noted(_signum, _frame) -> None:
    """A stop signal after the first: the command is already on its way out."""


def _raise(signum, _frame) -> None:
    for s in STOP_SIGNALS:
        signal.signal(s, _noted)
    raise Interrupted(signum)


@contextlib.contextmanager
def raised():
    """From the main thread, around everything the command does that must be undone; the signals'
    earlier handlers come back at the end (cli.main also runs inside pytest)."""
    previous = {s: signal.signal(s, _raise) for s in STOP_SIGNALS}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
