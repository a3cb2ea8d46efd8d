"""Orphans a command's children leave: a daemon's double fork, or a helper whose parent exited. Such a
process belongs to nobody's group we know, and would be re-parented to init, out of reach; once the
command has made itself a child subreaper (adopt), it is re-parented to the command instead, and
kill_adopted finds it among the command's own children.

What counts as adopted: a child of ours that we did not start (not one of `known`), outside our own
process group (everything children.start starts is in a session of its own, so an orphan of it never
shares our group, while a program run with plain subprocess from this process does), started after
adopt() (a process a test harness started before calling the command in-process is not ours)."""
import os
import time

from . import process_tree

_REAP_WAIT_S = 1.0
_since: int | None = None  # clock ticks after boot when this process became a subreaper


def adopt() -> None:
    """Once per process, before its first child starts."""
    global _since
    if _since is None:
        process_tree.become_subreaper()
        _since = int(time.clock_gettime(time.CLOCK_BOOTTIME) * os.sysconf("SC_CLK_TCK")) - 1


def adopted(known: set[int]) -> set[tuple[int, int]]:
    """(pid, start time) of every orphan we adopted and still have (exited ones included: zombies)."""
    if _since is None:
        return set()
    mine = os.getpgrp()
    return {(p.pid, p.started) for p in process_tree.children_of(os.getpid())
            if p.pid not in known and p.group != mine and p.started >= _since}


def kill_adopted(known: set[int]) -> None:
    """Kills every adopted orphan (with what it started) and reaps it."""
    found = adopted(known)
    if not found:
        return
    process_tree.kill_processes(found, within=os.getpid())
    deadline = time.monotonic() + _REAP_WAIT_S
    waiting = {pid for pid, _ in found}
    while waiting and time.monotonic() < deadline:
        for pid in list(waiting):
            try:
                if os.waitpid(pid, os.WNOHANG)[0] == pid:
                    waiting.discard(pid)
            except ChildProcessError:  # reaped meanwhile, or never ours
                waiting.discard(pid)
        if waiting:
            time.sleep(0.01)
