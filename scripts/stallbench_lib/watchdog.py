"""The orchestrator's watchdog: a small process of its own (started by children.py, which imports only
its kill_group) that outlives a SIGKILLed orchestrator just long enough to take its children's
process groups down.

Why it exists: PR_SET_PDEATHSIG kills a *direct* child when the orchestrator dies, but not what that
child started (the node a bench binary or regex_check runs, a user's app's own helpers), and the
orchestrator's atexit handler does not run when it is SIGKILLed. The watchdog reads the
orchestrator's requests on stdin; stdin reaching end-of-file means the orchestrator is gone (the
kernel closes the pipe however it died), and every group still registered is killed (with the
groups its members' descendants are in: kill_group), every registered temporary file removed.

It also enforces the groups' memory caps on resident memory: the sum of the RSS of every process in
the group, read from /proc every POLL_S. RLIMIT_AS cannot bound V8 (a WebAssembly.Memory reserves
~10 GB of address space, each isolate of Node 24+ ~1 GB, with a few MB resident), and a limit set on
one process does not bound its children; resident memory of the whole group does both. Before
killing a group for memory it says so on stdout ("memory PGID RSS CAP").

Requests, one per line: "watch PGID CAP_BYTES" (0: no cap), "release PGID", "remove PATH" (delete
if the orchestrator dies), "keep PATH"."""
import os
import select
import signal
import sys

POLL_S = 0.25


def _processes():
    """(pid, parent pid, process group, resident pages) of every process this user can see."""
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        yield int(name), int(fields[1]), int(fields[2]), int(fields[21])  # stat fields 4, 5 and 24


def group_rss(page_bytes: int) -> dict[int, int]:
    """Resident bytes per process group."""
    totals: dict[int, int] = {}
    for _, _, pgid, rss_pages in _processes():
        totals[pgid] = totals.get(pgid, 0) + rss_pages * page_bytes
    return totals


def _signal_group(pgid: int, signum: int) -> bool:
    """Whether the group had anyone to signal."""
    try:
        os.killpg(pgid, signum)
        return True
    except (ProcessLookupError, PermissionError):
        return False


def _descendant_groups(groups: set[int]) -> set[int]:
    """The groups of every process in `groups` and of all their descendants."""
    table = list(_processes())
    children: dict[int, list[int]] = {}
    for pid, parent, _, _ in table:
        children.setdefault(parent, []).append(pid)
    group_of = {pid: pgid for pid, _, pgid, _ in table}
    todo = [pid for pid, _, pgid, _ in table if pgid in groups]
    seen = set(todo)
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return set(groups) | {group_of[pid] for pid in seen}


def kill_group(pgid: int) -> None:
    """Kills the group and every group its members' descendants are in: ninja starts each compiler in
    a group of its own (so that a Ctrl-C reaches ninja alone), and a killed ninja would leave them
    compiling. Each group is stopped before the processes are listed again, so none of them starts
    a process the list misses. The caller's own group is never touched."""
    if not _signal_group(pgid, 0):  # empty: nobody is left in it to have children
        return
    spare = {os.getpgrp(), 0, 1}
    groups: set[int] = set()
    found = {pgid}
    while found - groups:
        for g in found - groups:
            _signal_group(g, signal.SIGSTOP)
        groups = found
        found = _descendant_groups(groups) - spare
    for g in groups:
        _signal_group(g, signal.SIGKILL)


def main() -> None:
    for s in (signal.SIGINT, signal.SIGHUP, signal.SIGPIPE):  # only end-of-file or SIGKILL end it
        signal.signal(s, signal.SIG_IGN)
    page_bytes = os.sysconf("SC_PAGE_SIZE")
    caps: dict[int, int] = {}
    paths: set[str] = set()
    pending = b""
    stdin = sys.stdin.fileno()
    while True:
        capped = any(caps.values())
        ready, _, _ = select.select([stdin], [], [], POLL_S if capped else None)
        if ready:
            chunk = os.read(stdin, 65536)
            if not chunk:
                break
            *lines, pending = (pending + chunk).split(b"\n")
            for line in lines:
                verb, _, arg = line.decode().partition(" ")
                if verb == "watch":
                    pgid, cap = arg.split()
                    caps[int(pgid)] = int(cap)
                elif verb == "release":
                    caps.pop(int(arg), None)
                elif verb == "remove":
                    paths.add(arg)
                elif verb == "keep":
                    paths.discard(arg)
        if capped:
            rss = group_rss(page_bytes)
            for pgid, cap in list(caps.items()):
                if cap and rss.get(pgid, 0) > cap:
                    try:
                        os.write(sys.stdout.fileno(), f"memory {pgid} {rss[pgid]} {cap}\n".encode())
                    except OSError:
                        pass
                    kill_group(pgid)
                    caps[pgid] = 0
    for pgid in caps:
        kill_group(pgid)
    for path in paths:
        try:
            os.unlink(path)
        except OSError:
            pass


if __name__ == "__main__":
    main()
