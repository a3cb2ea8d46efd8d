"""The orchestrator's watchdog: a small process of its own (started by children.py) that outlives a
SIGKILLed orchestrator just long enough to take everything it started down.

Why it exists: PR_SET_PDEATHSIG kills a *direct* child when the orchestrator dies, but not what that
child started (the node a bench binary or regex_check runs, a user's app's own helpers), and the
orchestrator's atexit handler does not run when it is SIGKILLed. The watchdog reads the
orchestrator's requests on stdin (watchdog_protocol.py: one JSON object per line, which no path or
name can break); stdin reaching end-of-file means the orchestrator is gone (the kernel closes the
pipe however it died), and every group still registered is killed (with the groups its members'
descendants are in: process_tree.kill_group), every registered temporary file removed.

The death signal makes the orchestrator's children die at the moment the pipe closes, and a helper
one of them detached (setsid), or an orphan the orchestrator had adopted (it is a child subreaper),
is then init's: no walk down from a group finds it. So the watchdog also kills, at the end, every
process it saw below the orchestrator outside its own group (noted every POLL_S while groups are
registered, by pid and start time) and every process whose environment carries the orchestrator's
mark (process_tree.STARTED_BY, which children.start gives every child: one born since the last poll).

It also enforces the groups' memory caps on resident memory: the sum of the RSS of every process in
the group, read from /proc every POLL_S. RLIMIT_AS cannot bound V8 (a WebAssembly.Memory reserves
~10 GB of address space, each isolate of Node 24+ ~1 GB, with a few MB resident), and a limit set on
one process does not bound its children; resident memory of the whole group does both. Before
killing a group for memory it says so on stdout."""
import os
import select
import signal
import sys

from . import process_tree
from .watchdog_protocol import LineReader, decode, encode

POLL_S = 0.25


def _below(orchestrator: int, own_group: int) -> set[tuple[int, int]]:
    """(pid, start time) of every process descended from the orchestrator, outside its group."""
    table = list(process_tree.processes())
    children: dict[int, list[process_tree.Process]] = {}
    for p in table:
        children.setdefault(p.parent, []).append(p)
    found, todo = set(), [orchestrator]
    while todo:
        for p in children.get(todo.pop(), ()):
            if p.pid != os.getpid() and (p.pid, p.started) not in found:
                todo.append(p.pid)
                if p.group != own_group:
                    found.add((p.pid, p.started))
    return found


class _State:
    def __init__(self, orchestrator: int):
        self.orchestrator = orchestrator
        self.started_by = process_tree.mark(orchestrator)  # what its children carry (process_tree.STARTED_BY)
        self.own_group = os.getpgid(orchestrator)
        self.spare = {self.own_group}  # never killed, whatever a walk finds
        self.caps: dict[int, int] = {}
        self.paths: set[str] = set()
        self.seen: set[tuple[int, int]] = set()  # processes below the orchestrator, while it lived

    def take(self, line: bytes) -> None:
        message = decode(line)
        if message is None:
            return  # not one of the protocol's messages: nothing in it is acted on
        verb, value, fields = message
        if verb == "watch":
            self.caps[value] = fields["cap"]
        elif verb == "release":
            self.caps.pop(value, None)
        elif verb == "remove":
            self.paths.add(value)
        elif verb == "keep":
            self.paths.discard(value)

    def poll(self, page_bytes: int) -> None:
        self.seen = {key for key in self.seen if os.path.exists(f"/proc/{key[0]}")}
        self.seen |= _below(self.orchestrator, self.own_group)
        rss = process_tree.group_rss(page_bytes)
        for pgid, cap in list(self.caps.items()):
            if cap and rss.get(pgid, 0) > cap:
                try:
                    os.write(sys.stdout.fileno(), encode("memory", pgid, rss=rss[pgid], cap=cap))
                except OSError:
                    pass
                process_tree.kill_group(pgid, self.spare)
                self.caps[pgid] = 0

    def end(self) -> None:
        for pgid in self.caps:
            process_tree.kill_group(pgid, self.spare)
        marked = process_tree.marked(self.started_by) if self.started_by else set()
        process_tree.kill_processes(self.seen | marked, self.spare)
        for path in self.paths:
            try:
                os.unlink(path)
            except (OSError, ValueError):
                pass


def main() -> None:
    for s in (signal.SIGINT, signal.SIGHUP, signal.SIGPIPE):  # only end-of-file or SIGKILL end it
        signal.signal(s, signal.SIG_IGN)
    page_bytes = os.sysconf("SC_PAGE_SIZE")
    state = _State(os.getppid())
    reader = LineReader()
    stdin = sys.stdin.fileno()
    while True:
        ready, _, _ = select.select([stdin], [], [], POLL_S if state.caps else None)
        if ready:
            chunk = os.read(stdin, 65536)
            if not chunk:
                break
            for line in reader.feed(chunk):
                state.take(line)
        if state.caps:
            state.poll(page_bytes)
    state.end()
