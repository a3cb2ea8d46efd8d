"""Waits on the history store that a Ctrl-C or SIGTERM interrupts (interrupts.py). Both database
libraries wait inside one C call, where Python runs no signal handler: SQLite sleeps in its busy
handler until another process's write is committed (up to its timeout), libpq until the server
answers (a row another store's transaction holds: indefinitely). Measured before: a SIGINT to a
`BEGIN IMMEDIATE` waiting on a held SQLite lock was heard 19 s later, at the 20 s timeout.

SQLite: its own wait is cut into slices of BUSY_SLICE_S, and the slices repeat from Python until
LOCK_WAIT_S. PostgreSQL: psycopg2's wait callback ("green" mode) makes every wait a select(), which
a signal interrupts; green mode ignores libpq's connect_timeout, so the connection's own deadline is
kept here. An interrupted transaction is never committed: the database rolls it back."""
import select
import time

LOCK_WAIT_S = 60.0
BUSY_SLICE_S = 0.5
CONNECT_TIMEOUT_S = 10.0

_connecting_until: float | None = None


def sqlite_retrying(call):
    """call(), again while SQLite says another process holds the lock, until LOCK_WAIT_S."""
    import sqlite3

    deadline = time.monotonic() + LOCK_WAIT_S
    while True:
        try:
            return call()
        except sqlite3.OperationalError as e:
            if getattr(e, "sqlite_errorcode", None) != sqlite3.SQLITE_BUSY or time.monotonic() > deadline:
                raise


def _postgres_wait(connection) -> None:
    from psycopg2 import OperationalError
    from psycopg2.extensions import POLL_OK, POLL_READ

    while (state := connection.poll()) != POLL_OK:
        fd = connection.fileno()
        wait_s = None if _connecting_until is None else max(0.0, _connecting_until - time.monotonic())
        readable, writable, _ = select.select([fd] if state == POLL_READ else [], [] if state == POLL_READ else [fd],
                                              [], wait_s)
        if not readable and not writable:
            raise OperationalError(f"timeout expired (no answer within {CONNECT_TIMEOUT_S:g} s)")


def postgres_connect(url: str):
    """psycopg2.connect with every wait interruptible, the connection bounded by CONNECT_TIMEOUT_S."""
    global _connecting_until
    import psycopg2
    import psycopg2.extensions

    psycopg2.extensions.set_wait_callback(_postgres_wait)
    _connecting_until = time.monotonic() + CONNECT_TIMEOUT_S
    try:
        return psycopg2.connect(url)
    finally:
        _connecting_until = None
