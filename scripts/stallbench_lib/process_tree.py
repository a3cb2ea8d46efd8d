"""The processes this user can see, read from /proc, and how a process group is killed with everything
it started: shared by the orchestrator (children.py) and its watchdog (watchdog.py).

A process is named by (pid, start time): a pid alone may have been reused by the time it is
signalled, the pair never is."""
import ctypes
import os
import signal
from dataclasses import dataclass

_PR_SET_CHILD_SUBREAPER = 36


@dataclass(frozen=True)
class Process:
    pid: int
    parent: int
    group: int
    started: int    # clock ticks after boot: with the pid, names the process
    rss_pages: int


def _read(pid: int) -> Process | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()  # after the command name, which may hold ")"
    except OSError:  # gone meanwhile
        return None
    # stat fields 4, 5, 22 and 24 (the list starts at field 3, the state)
    return Process(pid, int(fields[1]), int(fields[2]), int(fields[19]), int(fields[21]))


def processes():
    """Every process this user can see (a process that ends meanwhile is left out)."""
    for name in os.listdir("/proc"):
        if name.isdigit() and (found := _read(int(name))) is not None:
            yield found


def _children(pid: int) -> list[int]:
    """The pids of `pid`'s children, from each of its threads' children file."""
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                found += map(int, f.read().split())
    except OSError:
        pass
    return found


def children_of(pid: int) -> list[Process]:
    return [c for c in map(_read, _children(pid)) if c is not None]


def subtree(root: int) -> list[Process]:
    """Every process below `root` (not root itself), walked down from it: for a subreaper, whose
    descendants stay below it, this is all of them, read without listing every process there is."""
    found, todo, seen = [], [root], {root}
    while todo:
        for pid in _children(todo.pop()):
            if pid not in seen and (child := _read(pid)) is not None:
                seen.add(pid)
                found.append(child)
                todo.append(pid)
    return found


# Every child the orchestrator starts carries STARTED_BY=mark(orchestrator) in its environment, and so,
# unless they clear it, does everything they start: what the watchdog looks for when the orchestrator
# was SIGKILLed, since its orphans are then init's and no walk down from it finds them.
STARTED_BY = "STALLBENCH_STARTED_BY"


def mark(pid: int) -> str | None:
    """'PID:START' naming process `pid` (None when it is gone)."""
    found = _read(pid)
    return f"{pid}:{found.started}" if found else None


def marked(value: str) -> set[tuple[int, int]]:
    """(pid, start time) of every process whose environment has STARTED_BY=value."""
    wanted = f"{STARTED_BY}={value}".encode()
    found = set()
    for p in processes():
        try:
            with open(f"/proc/{p.pid}/environ", "rb") as f:
                if wanted in f.read().split(b"\0"):
                    found.add((p.pid, p.started))
        except OSError:
            continue
    return found


def become_subreaper() -> None:
    """Orphans among our descendants (a daemon's double fork, a helper whose parent exited) become our
    children instead of init's: they stay in our tree, where they can be found and killed."""
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def group_rss(page_bytes: int) -> dict[int, int]:
    """Resident bytes per process group."""
    totals: dict[int, int] = {}
    for p in processes():
        totals[p.group] = totals.get(p.group, 0) + p.rss_pages * page_bytes
    return totals


def signal_group(pgid: int, signum: int) -> bool:
    """Whether the group had anyone to signal."""
    try:
        os.killpg(pgid, signum)
        return True
    except (ProcessLookupError, PermissionError):
        return False


def _descendant_groups(groups: set[int], within: int | None) -> set[int]:
    """The groups of every process in `groups` and of all their descendants (all below `within`, when
    it is given: a subreaper's own pid)."""
    table = subtree(within) if within else list(processes())
    children: dict[int, list[int]] = {}
    for p in table:
        children.setdefault(p.parent, []).append(p.pid)
    group_of = {p.pid: p.group for p in table}
    todo = [p.pid for p in table if p.group in groups]
    seen = set(todo)
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return set(groups) | {group_of[pid] for pid in seen}


def spared() -> set[int]:
    """Groups no kill may reach: ours, and the pseudo-groups 0 and 1 (killpg(0) is our own group;
    group 1 holds init)."""
    return {os.getpgrp(), 0, 1}


def stop_tree(pgid: int, spare: set[int] = frozenset(), within: int | None = None) -> set[int]:
    """Stops the group and every group its members' descendants are in (SIGSTOP), and returns them:
    each group is stopped before the processes are listed again, so none of them starts a process
    the list misses. A group in `spare`, or one of spared(), is never touched. `within`: a pid every
    process concerned is below (the orchestrator, a subreaper), so that only its subtree is read."""
    spare = spared() | set(spare)
    if pgid in spare or not signal_group(pgid, 0):  # empty: nobody is left in it to have children
        return set()
    groups: set[int] = set()
    found = {pgid}
    while found - groups:
        for g in found - groups:
            signal_group(g, signal.SIGSTOP)
        groups = found
        found = _descendant_groups(groups, within) - spare
    return groups


def kill_group(pgid: int, spare: set[int] = frozenset(), within: int | None = None) -> None:
    """Kills the group and every group its members' descendants are in: ninja starts each compiler in
    a group of its own (so that a Ctrl-C reaches ninja alone), and a killed ninja would leave them
    compiling; a helper a program detached (setsid) is in a session of its own."""
    for g in stop_tree(pgid, spare, within):
        signal_group(g, signal.SIGKILL)


def kill_detached(pgid: int, within: int | None = None) -> None:
    """Kills the groups below `pgid` (what its members' descendants put in groups of their own: a
    setsid helper) and leaves `pgid` itself running: called before the group is asked to end, while
    the parents that lead to those groups are still alive to be followed."""
    below = stop_tree(pgid, within=within)
    for g in below - {pgid}:
        signal_group(g, signal.SIGKILL)
    signal_group(pgid, signal.SIGCONT)


def kill_processes(named: set[tuple[int, int]], spare: set[int] = frozenset(), within: int | None = None) -> None:
    """Kills each (pid, start time) still alive as that same process, with its group and what its
    members started (kill_group)."""
    for pid, started in named:
        if (p := _read(pid)) is not None and p.started == started:
            kill_group(p.group, spare, within)
